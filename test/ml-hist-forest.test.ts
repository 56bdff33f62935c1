// Histogram random forest (src/ml/hist-forest.ts) on toy problems with known structure.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadClassifier } from "../src/ml/kinds.ts";
import { featuresPerNode, HistRandomForest } from "../src/ml/hist-forest.ts";
import { rocAuc } from "../src/ml/metrics.ts";
import { makeSyntheticData, makeToyData, type ToyProblem } from "../src/ml/synthetic.ts";

const FAST = { nEstimators: 30, maxDepth: 12 };

function aucOn(problem: ToyProblem, params: Record<string, unknown> = FAST): number {
  const train = makeToyData(problem, 3000, 1);
  const test = makeToyData(problem, 2000, 2);
  const m = new HistRandomForest(params);
  m.fit(train.X, train.y, { seed: 7 });
  return rocAuc(test.y, m.predictProba(test.X));
}

describe("hist random forest", () => {
  it("learns an XOR interaction, a threshold and a missing-value rule", () => {
    assert.ok(aucOn("xor", { ...FAST, maxFeatures: 1 }) > 0.95, "xor");
    assert.ok(aucOn("threshold") > 0.95, "threshold");
    assert.ok(aucOn("missing") > 0.95, "missing");
  });

  it("entropy works as well as gini; stumps cannot solve XOR", () => {
    assert.ok(aucOn("threshold", { ...FAST, criterion: "entropy" }) > 0.95);
    assert.ok(aucOn("xor", { nEstimators: 10, maxDepth: 1 }) < 0.7);
  });

  it("save → load gives identical predictions; same seed, same model", async () => {
    const d = makeSyntheticData({ nRows: 3000, nCols: 30, seed: 3 });
    const fit = (seed: number) => {
      const m = new HistRandomForest(FAST);
      m.fit(d.X, d.y, { seed });
      return m;
    };
    const m = fit(1);
    const back = await loadClassifier(JSON.parse(JSON.stringify(m.toJSON())));
    assert.deepEqual(back.predictProba(d.X), m.predictProba(d.X));
    assert.equal(JSON.stringify(fit(1).toJSON()), JSON.stringify(m.toJSON()));
    assert.notEqual(JSON.stringify(fit(2).toJSON()), JSON.stringify(m.toJSON()));
  });

  it("class weights move predictions toward the minority class", () => {
    const d = makeToyData("imbalanced", 4000, 5);
    const mean = (p: Float32Array) => p.reduce((a, b) => a + b, 0) / p.length;
    const plain = new HistRandomForest(FAST);
    plain.fit(d.X, d.y, { seed: 1 });
    const balanced = new HistRandomForest(FAST);
    balanced.fit(d.X, d.y, { seed: 1, classWeight: "balanced" });
    assert.ok(mean(balanced.predictProba(d.X)) > mean(plain.predictProba(d.X)) + 0.1);
  });

  it("ranks the informative feature first and rejects a bad criterion", () => {
    const d = makeToyData("threshold", 2000, 8);
    const m = new HistRandomForest({ ...FAST, maxFeatures: 1 });
    m.fit(d.X, d.y, { seed: 1 });
    const imp = m.featureImportance();
    assert.equal(imp.indexOf(Math.max(...imp)), 2);
    assert.throws(() => new HistRandomForest({ criterion: "mse" }), /criterion/);
    assert.equal(featuresPerNode(0, 100), 10);
    assert.equal(featuresPerNode(0.5, 100), 50);
    assert.equal(featuresPerNode(7, 100), 7);
  });
});

describe("rankFeatures", () => {
  it("sorts by gain and gives shares", async () => {
    const { rankFeatures } = await import("../src/ml/classifier.ts");
    const r = rankFeatures([1, 3, 0], ["a", "b", "c"], 2);
    assert.deepEqual(
      r.map((x) => x.name),
      ["b", "a"],
    );
    assert.equal(r[0]!.share, 0.75);
    assert.throws(() => rankFeatures([1], ["a", "b"]), /importances/);
  });
});
