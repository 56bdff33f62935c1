// Metrics (src/ml/metrics.ts) and site-grouped splits (src/ml/split.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bestF1Threshold, binaryMetrics, rocAuc } from "../src/ml/metrics.ts";
import { assignGroupFolds, foldOfRows, groupHoldout, groupKFold, kFold } from "../src/ml/split.ts";

describe("metrics", () => {
  it("computes precision, recall, F1, accuracy on a hand-checked case", () => {
    const y = [1, 1, 1, 0, 0, 0, 0, 0];
    const p = [0.9, 0.8, 0.2, 0.7, 0.1, 0.1, 0.3, 0.4];
    const m = binaryMetrics(y, p);
    assert.deepEqual([m.tp, m.fp, m.tn, m.fn], [2, 1, 4, 1]);
    assert.equal(m.precision, 2 / 3);
    assert.equal(m.recall, 2 / 3);
    assert.ok(Math.abs(m.f1 - 2 / 3) < 1e-12);
    assert.equal(m.accuracy, 6 / 8);
    // positives beat negatives in 12 of 15 pairs
    assert.ok(Math.abs(m.auc - 12 / 15) < 1e-12);
  });

  it("AUC handles ties, perfect and inverted rankings, one class, and weights", () => {
    assert.equal(rocAuc([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5]), 0.5);
    assert.equal(rocAuc([0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4]), 1);
    assert.equal(rocAuc([1, 1, 0, 0], [0.1, 0.2, 0.3, 0.4]), 0);
    assert.ok(Number.isNaN(rocAuc([1, 1], [0.1, 0.2])));
    // weight 3 on the one misranked pair's negative: 1 good (w 1) + 3 bad ... = 1/4
    assert.equal(rocAuc([1, 0, 0], [0.5, 0.9, 0.1], [1, 3, 1]), 1 / 4);
    const zero = binaryMetrics([0, 0], [0.1, 0.2]);
    assert.equal(zero.precision, 0);
    assert.equal(zero.f1, 0);
  });

  it("finds the F1-maximising threshold", () => {
    const best = bestF1Threshold([1, 1, 0, 0], [0.9, 0.6, 0.5, 0.1]);
    assert.equal(best.threshold, 0.6);
    assert.equal(best.f1, 1);
  });
});

describe("grouped splits", () => {
  const groups = Array.from({ length: 500 }, (_, i) => `site${(i * 7919) % 37}`);

  it("never puts one group in two folds, covers every row once, and balances rows", () => {
    const folds = groupKFold(groups, 5, 3);
    const seen = new Uint8Array(groups.length);
    const foldOfGroup = new Map<string, number>();
    folds.forEach((f, k) => {
      assert.equal(f.train.length + f.test.length, groups.length);
      for (const r of f.test) {
        seen[r] = seen[r]! + 1;
        const g = groups[r]!;
        assert.equal(foldOfGroup.get(g) ?? k, k, `group ${g} in two folds`);
        foldOfGroup.set(g, k);
      }
      const testGroups = new Set(Array.from(f.test, (r) => groups[r]));
      for (const r of f.train) assert.ok(!testGroups.has(groups[r]));
      assert.ok(f.test.length > 60 && f.test.length < 140, `fold size ${f.test.length}`);
    });
    assert.ok(seen.every((c) => c === 1));
  });

  it("foldOfRows names the fold that holds out each row, as assignGroupFolds does", () => {
    const folds = groupKFold(groups, 5, 3);
    assert.deepEqual(foldOfRows(folds, groups.length), assignGroupFolds(groups, 5, 3));
  });

  it("is deterministic by seed and independent of row order", () => {
    assert.deepEqual(assignGroupFolds(groups, 5, 3), assignGroupFolds(groups, 5, 3));
    assert.notDeepEqual(assignGroupFolds(groups, 5, 3), assignGroupFolds(groups, 5, 4));
    const rev = [...groups].reverse();
    const a = assignGroupFolds(groups, 5, 3);
    const b = assignGroupFolds(rev, 5, 3);
    groups.forEach((_, i) => assert.equal(a[i], b[groups.length - 1 - i]));
  });

  it("holds out whole groups; refuses impossible splits", () => {
    const h = groupHoldout(groups.length, 0.2, 1, groups);
    const test = new Set(Array.from(h.test, (r) => groups[r]));
    for (const r of h.train) assert.ok(!test.has(groups[r]));
    assert.ok(h.test.length >= 100 && h.test.length < 160);
    assert.equal(kFold(10, 5).length, 5);
    assert.throws(() => groupKFold(["a", "a", "b"], 3), /from 2 groups/);
    assert.throws(() => groupHoldout(3, 0.5, 1, [1, 1, 1]), /at least 2 groups/);
  });
});

describe("cross-validation", () => {
  it("gives out-of-fold predictions for every row from models that never saw the row's site", async () => {
    const { crossValidate } = await import("../src/ml/cv.ts");
    const { GradientBoostedTrees } = await import("../src/ml/gbdt.ts");
    const { makeSyntheticData } = await import("../src/ml/synthetic.ts");
    const d = makeSyntheticData({ nRows: 3000, nCols: 20, seed: 2 });
    const seenFolds: number[] = [];
    const cv = await crossValidate(() => new GradientBoostedTrees({ nEstimators: 30 }), d.X, d.y, {
      groups: d.groups,
      k: 3,
      onFold: (f) => seenFolds.push(f),
    });
    assert.deepEqual(seenFolds, [1, 2, 3]);
    assert.equal(cv.folds.length, 3);
    assert.equal(cv.overall.n, 3000);
    assert.ok(cv.overall.auc > 0.8, `auc ${cv.overall.auc}`);
  });
});
