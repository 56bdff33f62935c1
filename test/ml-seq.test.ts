// The TensorFlow.js sequence model (src/ml/seq.ts): learns from neighbours, pages stay apart,
// deterministic for a seed, JSON round trip, packing of pages into training windows.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GradientBoostedTrees } from "../src/ml/gbdt.ts";
import { loadClassifier } from "../src/ml/kinds.ts";
import { selectIndices, selectRows } from "../src/ml/matrix.ts";
import { rocAuc } from "../src/ml/metrics.ts";
import { packPieces, SequenceClassifier, sequenceRuns } from "../src/ml/seq.ts";
import { makeToySequences } from "../src/ml/synthetic.ts";

const FAST = { filters: 16, window: 128, batchWindows: 4, epochs: 8 };

describe("seq", () => {
  it("learns a label that only the neighbouring blocks decide, where a row classifier cannot", async () => {
    const train = makeToySequences(200, 1);
    const test = makeToySequences(80, 2);
    const seq = new SequenceClassifier(FAST);
    await seq.fit(train.X, train.y, { seed: 3, sequences: train.sequences });
    const seqAuc = rocAuc(test.y, seq.predictProba(test.X, { sequences: test.sequences }));
    const rows = new GradientBoostedTrees({ nEstimators: 50 });
    rows.fit(train.X, train.y, { seed: 3 });
    const rowAuc = rocAuc(test.y, rows.predictProba(test.X));
    assert.ok(seqAuc > 0.9, `seq AUC ${seqAuc}`);
    assert.ok(rowAuc < 0.65, `row classifier AUC ${rowAuc}`);
  });

  it("scores a page the same alone or among other pages, and round-trips through JSON", async () => {
    const d = makeToySequences(60, 4);
    const fit = async (seed: number) => {
      const m = new SequenceClassifier({ ...FAST, epochs: 2 });
      await m.fit(d.X, d.y, { seed, sequences: d.sequences });
      return m;
    };
    const a = await fit(1);
    const json = JSON.stringify(a.toJSON());
    assert.equal(JSON.stringify((await fit(1)).toJSON()), json, "same seed, same model");
    assert.notEqual(JSON.stringify((await fit(2)).toJSON()), json);
    const all = a.predictProba(d.X, { sequences: d.sequences });
    const back = await loadClassifier(JSON.parse(json));
    assert.deepEqual(back.predictProba(d.X, { sequences: d.sequences }), all);
    const [s, e] = sequenceRuns(d.y.length, d.sequences)[7]!;
    const idx = Array.from({ length: e - s }, (_, i) => s + i);
    const alone = a.predictProba(selectRows(d.X, idx));
    const together = selectIndices(all, idx);
    alone.forEach((p, i) => assert.ok(Math.abs(p - together[i]!) < 1e-5, `row ${i}: ${p} vs ${together[i]}`));
  });

  it("packs pages into windows with a gap between them, a long page in pieces", () => {
    const { placements, windows } = packPieces(
      [
        [0, 5],
        [5, 9],
        [9, 19],
      ],
      12,
      2,
    );
    assert.deepEqual(placements, [
      { win: 0, offset: 0, start: 0, end: 5 },
      { win: 0, offset: 7, start: 5, end: 9 },
      { win: 1, offset: 0, start: 9, end: 19 },
    ]);
    assert.equal(windows, 2);
    assert.deepEqual(sequenceRuns(5, [3, 3, 1, 1, 3]), [
      [0, 2],
      [2, 4],
      [4, 5],
    ]);
    assert.throws(() => new SequenceClassifier({ kernelSize: 4 }), /odd/);
  });
});
