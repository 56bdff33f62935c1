/**
 * The context stage's thresholds per routed type (src/train/context.ts tuneByRoutedType): tuned
 * on the pages a fold may see, so a held-out page's labels never choose the threshold it is
 * scored with.
 */
import assert from "node:assert/strict";
import test from "node:test";
import { tuneByRoutedType, type RoutedScores } from "../src/train/context.ts";
import type { PageRecord } from "../src/train/page-record.ts";

/** A page of 10-word leaves: what tuneThreshold reads (own words, gold share, gold words). */
function page(goldShares: number[]): PageRecord {
  const n = goldShares.length;
  const share = Float32Array.from(goldShares);
  return {
    nodes: new Int32Array(n),
    ownWords: new Int32Array(n).fill(10),
    share,
    goldWords: 10 * goldShares.reduce((a, b) => a + b, 0),
  } as unknown as PageRecord;
}

const routed = (type: string, scores: number[]): RoutedScores => ({
  type,
  scores: Float32Array.from(scores),
});

test("context thresholds are tuned on the included pages only; a type none of them has gets none", () => {
  // Page 0 keeps its second main leaf only at a threshold ≤ 0.28; page 1 drops its noise leaf only above 0.36.
  const records = [page([1, 1]), page([1, 0]), page([1, 0])];
  const scores = [
    routed("article", [0.9, 0.28]),
    routed("article", [0.9, 0.36]),
    routed("forum", [0.8, 0.6]),
  ];
  const oof = scores.map((s) => s.scores);
  const first = tuneByRoutedType(records, scores, oof, (p) => p === 0);
  const second = tuneByRoutedType(records, scores, oof, (p) => p === 1);
  assert.ok(
    (first["article"] as number) <= 0.28,
    `page 0 alone wants its 0.28 leaf kept: ${first["article"]}`,
  );
  assert.ok(
    (second["article"] as number) > 0.36,
    `page 1 alone wants its 0.36 leaf dropped: ${second["article"]}`,
  );
  assert.equal(first["forum"], undefined, "no forum page was included");
  const all = tuneByRoutedType(records, scores, oof, () => true);
  assert.ok(
    (all["forum"] as number) > 0.6,
    `with page 2 included, forum drops its noise leaf: ${all["forum"]}`,
  );
});
