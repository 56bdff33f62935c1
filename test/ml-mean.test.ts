// The mean of classifiers (src/ml/mean.ts): soft voting of fitted members, stored and reloaded.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GradientBoostedTrees } from "../src/ml/gbdt.ts";
import { HistRandomForest } from "../src/ml/hist-forest.ts";
import { loadClassifier } from "../src/ml/kinds.ts";
import { MeanClassifier } from "../src/ml/mean.ts";
import { rocAuc } from "../src/ml/metrics.ts";
import { makeToyData } from "../src/ml/synthetic.ts";

describe("mean classifier", () => {
  it("scores the mean of its members' P(1), learns when fitted, and reloads identically", async () => {
    const train = makeToyData("threshold", 2000, 1);
    const test = makeToyData("threshold", 1000, 2);
    const members = [
      new GradientBoostedTrees({ nEstimators: 30 }),
      new HistRandomForest({ nEstimators: 10 }),
    ];
    const mean = new MeanClassifier(members);
    await mean.fit(train.X, train.y, { seed: 3 });
    const [a, b] = members.map((m) => m.predictProba(test.X));
    const p = mean.predictProba(test.X);
    for (let i = 0; i < p.length; i++) assert.ok(Math.abs(p[i]! - (a![i]! + b![i]!) / 2) < 1e-6);
    assert.ok(rocAuc(test.y, p) > 0.95);
    const json = JSON.parse(JSON.stringify(mean.toJSON())) as { kind: string; nCols: number };
    assert.equal(json.kind, "mean");
    assert.equal(json.nCols, test.X.nCols);
    const back = await loadClassifier(json);
    assert.deepEqual(back.predictProba(test.X), p);
  });

  it("refuses a stored mean without members with a one-line error", async () => {
    await assert.rejects(
      loadClassifier({ kind: "mean", members: [] }),
      /^Error: expected a serialised "mean"/,
    );
    assert.throws(() => new MeanClassifier([]), /a mean of no classifiers/);
  });
});
