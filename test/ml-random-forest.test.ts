// ml-random-forest wrapper (src/ml/random-forest.ts): the reference model, on small data.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadClassifier } from "../src/ml/kinds.ts";
import { rocAuc } from "../src/ml/metrics.ts";
import { ML_RF_MAX_ROWS, MlRandomForest } from "../src/ml/random-forest.ts";
import { makeToyData } from "../src/ml/synthetic.ts";

const FAST = { nEstimators: 10, maxFeatures: 1, maxDepth: 10 };

describe("ml-random-forest wrapper", () => {
  it("learns XOR and a missing-value rule; reloads with identical predictions", async () => {
    for (const problem of ["xor", "missing"] as const) {
      const train = makeToyData(problem, 400, 1);
      const test = makeToyData(problem, 400, 2);
      const m = new MlRandomForest(FAST);
      m.fit(train.X, train.y, { seed: 3 });
      const p = m.predictProba(test.X);
      assert.ok(rocAuc(test.y, p) > 0.9, problem);
      const back = await loadClassifier(JSON.parse(JSON.stringify(m.toJSON())));
      assert.deepEqual(back.predictProba(test.X), p);
    }
  });

  it("is deterministic for a seed, and class weights raise minority predictions", () => {
    const d = makeToyData("imbalanced", 400, 5);
    const fit = (opts: { seed: number; classWeight?: "balanced" }) => {
      const m = new MlRandomForest(FAST);
      m.fit(d.X, d.y, opts);
      return m;
    };
    const a = fit({ seed: 1 });
    assert.deepEqual(fit({ seed: 1 }).predictProba(d.X), a.predictProba(d.X));
    const mean = (p: Float32Array) => p.reduce((x, y) => x + y, 0) / p.length;
    assert.ok(
      mean(fit({ seed: 1, classWeight: "balanced" }).predictProba(d.X)) > mean(a.predictProba(d.X)) + 0.1,
    );
  });

  it("serialises to plain data: a model that crossed a thread boundary (structured clone) or a file loads and predicts the same", async () => {
    const train = makeToyData("xor", 300, 1);
    const test = makeToyData("xor", 200, 2);
    const m = new MlRandomForest(FAST);
    m.fit(train.X, train.y, { seed: 3 });
    const json = m.toJSON();
    assert.deepEqual(JSON.parse(JSON.stringify(json)), json, "toJSON is plain JSON");
    const back = await loadClassifier(structuredClone(json)); // what a worker's postMessage does
    assert.deepEqual(back.predictProba(test.X), m.predictProba(test.X));
  });

  it(`refuses more than ${ML_RF_MAX_ROWS} rows in words (its training time is quadratic in rows)`, () => {
    const d = makeToyData("xor", ML_RF_MAX_ROWS + 1, 1);
    assert.throws(
      () => new MlRandomForest(FAST).fit(d.X, d.y),
      (e: Error) => /more than its 1000; use --model rf/.test(e.message),
    );
  });
});
