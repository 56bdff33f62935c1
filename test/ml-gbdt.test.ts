// Gradient-boosted trees (src/ml/gbdt.ts) on toy problems with known structure.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadClassifier } from "../src/ml/kinds.ts";
import { BAG_SEED_STEP, GradientBoostedTrees } from "../src/ml/gbdt.ts";
import { selectIndices, selectRows } from "../src/ml/matrix.ts";
import { rocAuc } from "../src/ml/metrics.ts";
import { makeSyntheticData, makeToyData, type ToyProblem } from "../src/ml/synthetic.ts";

const FAST = { nEstimators: 60, maxLeaves: 15, minSamplesLeaf: 10 };

function aucOn(problem: ToyProblem, params: Record<string, unknown> = FAST): number {
  const train = makeToyData(problem, 3000, 1);
  const test = makeToyData(problem, 2000, 2);
  const m = new GradientBoostedTrees(params);
  m.fit(train.X, train.y, { seed: 7 });
  return rocAuc(test.y, m.predictProba(test.X));
}

describe("gbdt", () => {
  it("learns an XOR interaction, a threshold and a missing-value rule", () => {
    assert.ok(aucOn("xor") > 0.95, "xor");
    assert.ok(aucOn("threshold") > 0.95, "threshold");
    assert.ok(aucOn("missing") > 0.95, "missing");
  });

  it("a one-split model cannot solve XOR (the test can tell)", () => {
    assert.ok(aucOn("xor", { nEstimators: 1, maxLeaves: 2 }) < 0.7);
  });

  it("save → load gives identical predictions", async () => {
    const d = makeSyntheticData({ nRows: 4000, nCols: 30, seed: 3 });
    const m = new GradientBoostedTrees(FAST);
    m.fit(d.X, d.y, { seed: 1, groups: d.groups });
    const json = JSON.parse(JSON.stringify(m.toJSON()));
    const back = await loadClassifier(json);
    assert.deepEqual(back.predictProba(d.X), m.predictProba(d.X));
    assert.equal(JSON.stringify(back.toJSON()), JSON.stringify(m.toJSON()));
  });

  it("is deterministic for a seed and depends on it with subsampling", () => {
    const d = makeSyntheticData({ nRows: 3000, nCols: 20, seed: 4 });
    const params = { ...FAST, subsample: 0.7, colsample: 0.7 };
    const fit = (seed: number) => {
      const m = new GradientBoostedTrees(params);
      m.fit(d.X, d.y, { seed });
      return JSON.stringify(m.toJSON());
    };
    assert.equal(fit(5), fit(5));
    assert.notEqual(fit(5), fit(6));
  });

  it("class weights move predictions toward the minority class", () => {
    const d = makeToyData("imbalanced", 4000, 5);
    const mean = (p: Float32Array) => p.reduce((a, b) => a + b, 0) / p.length;
    const plain = new GradientBoostedTrees(FAST);
    plain.fit(d.X, d.y, { seed: 1 });
    const balanced = new GradientBoostedTrees(FAST);
    balanced.fit(d.X, d.y, { seed: 1, classWeight: "balanced" });
    assert.ok(mean(balanced.predictProba(d.X)) > mean(plain.predictProba(d.X)) + 0.1);
  });

  it("early stopping keeps fewer trees than the maximum on noisy data, holding out whole groups", () => {
    const d = makeSyntheticData({ nRows: 6000, nCols: 20, seed: 6, noise: 2 });
    const m = new GradientBoostedTrees({ nEstimators: 400, learningRate: 0.3, earlyStoppingRounds: 10 });
    let last = 0;
    m.fit(d.X, d.y, {
      seed: 1,
      groups: d.groups,
      onProgress: (done) => {
        last = done;
      },
    });
    assert.ok(m.nTrees < 400 && m.nTrees > 0, `kept ${m.nTrees}`);
    assert.equal(last, m.nTrees);
  });

  it("minEstimators is a floor for early stopping (the final fit's, from the folds: src/train/final-trees.ts), not a cap", () => {
    const d = makeSyntheticData({ nRows: 6000, nCols: 20, seed: 6, noise: 2 });
    const params = { nEstimators: 400, learningRate: 0.3, earlyStoppingRounds: 10 };
    const free = new GradientBoostedTrees(params);
    free.fit(d.X, d.y, { seed: 1, groups: d.groups });
    const floor = free.nTrees + 25;
    const floored = new GradientBoostedTrees({ ...params, minEstimators: floor });
    let last = 0;
    floored.fit(d.X, d.y, {
      seed: 1,
      groups: d.groups,
      onProgress: (done) => {
        last = done;
      },
    });
    assert.equal(floored.nTrees, floor);
    assert.equal(last, floor);
    const low = new GradientBoostedTrees({ ...params, minEstimators: 2 });
    low.fit(d.X, d.y, { seed: 1, groups: d.groups });
    assert.equal(low.nTrees, free.nTrees, "a floor below the stopping point changes nothing");
    const capped = new GradientBoostedTrees({ ...params, nEstimators: 10, minEstimators: 50 });
    capped.fit(d.X, d.y, { seed: 1, groups: d.groups });
    assert.equal(capped.nTrees, 10);
  });

  it("falls back to a row holdout when every row has the same group (per-domain models)", () => {
    const d = makeToyData("threshold", 2000, 7);
    const m = new GradientBoostedTrees(FAST);
    m.fit(d.X, d.y, { seed: 1, groups: new Int32Array(2000) });
    assert.ok(m.nTrees > 0);
  });

  it("reports gain importance that ranks the informative features first", () => {
    const d = makeToyData("threshold", 3000, 8);
    const m = new GradientBoostedTrees(FAST);
    m.fit(d.X, d.y, { seed: 1 });
    const imp = m.featureImportance();
    assert.equal(imp.indexOf(Math.max(...imp)), 2);
  });

  it("accepts an array of rows, and NaN everywhere in a column", () => {
    const d = makeToyData("threshold", 500, 9);
    const rows = Array.from({ length: 500 }, (_, r) => {
      const row = d.X.data.slice(r * 5, r * 5 + 5);
      row[4] = NaN;
      return row;
    });
    const m = new GradientBoostedTrees(FAST);
    m.fit(rows, d.y, { seed: 1 });
    assert.ok(rocAuc(d.y, m.predictProba(rows)) > 0.9);
    const sub = selectRows(d.X, [0, 1, 2]);
    assert.equal(m.predictProba(sub).length, 3);
    assert.equal(selectIndices(d.y, [0, 1]).length, 2);
  });

  it("bags: predicts the mean log-odds of boosters fitted from successive seeds; one bag is the plain booster", async () => {
    const d = makeSyntheticData({ nRows: 3000, nCols: 20, seed: 10, noise: 1 });
    const params = { ...FAST, subsample: 0.8, colsample: 0.8 };
    const fit = (extra: Record<string, unknown>, seed: number) => {
      const m = new GradientBoostedTrees({ ...params, ...extra });
      m.fit(d.X, d.y, { seed, groups: d.groups });
      return m;
    };
    const single = [0, 1, 2].map((k) => fit({}, 3 + k * BAG_SEED_STEP));
    const bagged = fit({ bags: 3 }, 3);
    assert.equal(
      bagged.nTrees,
      single.reduce((s, m) => s + m.nTrees, 0),
    );
    const raw = single.map((m) => m.predictRaw(d.X));
    const mean = raw[0]!.map((_, r) => (raw[0]![r]! + raw[1]![r]! + raw[2]![r]!) / 3);
    const got = bagged.predictRaw(d.X);
    for (let r = 0; r < d.y.length; r++)
      assert.ok(Math.abs(got[r]! - mean[r]!) < 1e-4, `row ${r}: ${got[r]} vs ${mean[r]}`);
    assert.equal(
      JSON.stringify(fit({ bags: 1 }, 3).toJSON().trees),
      JSON.stringify(single[0]!.toJSON().trees),
    );
    const back = await loadClassifier(JSON.parse(JSON.stringify(bagged.toJSON())));
    assert.deepEqual(back.predictProba(d.X), bagged.predictProba(d.X));
    assert.throws(() => new GradientBoostedTrees({ bags: 0 }), /bags/);
  });

  it("rejects malformed JSON with a one-line error", async () => {
    await assert.rejects(
      loadClassifier({
        kind: "gbdt",
        version: 1,
        nCols: 3,
        baseScore: 0,
        trees: { feature: [0], roots: [0] },
      }),
      /lack|different lengths|out of range/,
    );
    await assert.rejects(loadClassifier({ kind: "nope" }), /unknown classifier kind/);
  });
});
