/**
 * Pages whose gold is empty or mostly absent from the page (src/train/label-quality.ts) train
 * no classifier: their leaves' rows leave the training matrices, and stay in the rows that
 * tune thresholds and score held-out pages.
 */
import assert from "node:assert/strict";
import test from "node:test";
import { alignedGoldShare, trainable } from "../src/train/label-quality.ts";
import { buildRowIndex, LEAF_ROWS, TRAINING_LEAF_ROWS } from "../src/train/matrix.ts";
import type { PageRecord } from "../src/train/page-record.ts";

/** A page of 10-word leaves with these gold shares, and `goldWords` words of gold. */
function page(id: string, goldShares: number[], goldWords: number): PageRecord {
  const n = goldShares.length;
  return {
    id,
    site: id,
    nodes: new Int32Array(n),
    ownWords: new Int32Array(n).fill(10),
    subtreeWords: new Int32Array(n).fill(10),
    share: Float32Array.from(goldShares),
    main: Uint8Array.from(goldShares, (s) => (s >= 0.5 ? 1 : 0)),
    ambiguous: new Uint8Array(n),
    goldWords,
  } as unknown as PageRecord;
}

test("a page trains when its leaves hold most of its gold, not when the gold is empty or elsewhere", () => {
  const good = page("good", [1, 1, 0], 20);
  const elsewhere = page("elsewhere", [1, 0, 0], 100); // 10 of 100 gold words on the page
  const empty = page("empty", [0, 0, 0], 0);
  assert.equal(alignedGoldShare(good), 1);
  assert.equal(alignedGoldShare(elsewhere), 0.1);
  assert.equal(trainable(good), true);
  assert.equal(trainable(elsewhere), false);
  assert.equal(trainable(empty), false);
});

test("training rows leave out untrainable pages; evaluation rows keep them", () => {
  const records = [
    page("good", [1, 1, 0], 20),
    page("elsewhere", [1, 0, 0], 100),
    page("empty", [0, 0, 0], 0),
  ];
  const training = buildRowIndex(records, TRAINING_LEAF_ROWS, "main", false);
  const all = buildRowIndex(records, LEAF_ROWS, "main", false);
  assert.deepEqual([...new Set(training.page)], [0]);
  assert.deepEqual([...new Set(all.page)], [0, 1, 2]);
  assert.equal(training.y.length, 3);
  assert.equal(all.y.length, 9);
});
