// TensorFlow.js MLP (src/ml/mlp.ts): backend choice, learning, determinism, save/load.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadClassifier } from "../src/ml/kinds.ts";
import { rocAuc } from "../src/ml/metrics.ts";
import { initTfBackend, MlpClassifier } from "../src/ml/mlp.ts";
import { makeToyData } from "../src/ml/synthetic.ts";

const FAST = { hiddenUnits: [16, 8], epochs: 30, batchSize: 64, learningRate: 0.01 };

describe("mlp", () => {
  it("runs on the WASM backend offline (tfjs-node is not installed here)", async () => {
    assert.match(await initTfBackend(), /^(wasm|tensorflow)$/);
  });

  it("learns XOR and a missing-value rule (via missing indicators)", async () => {
    for (const problem of ["xor", "missing"] as const) {
      const train = makeToyData(problem, 2000, 1);
      const test = makeToyData(problem, 1000, 2);
      const m = new MlpClassifier(FAST);
      await m.fit(train.X, train.y, { seed: 3 });
      assert.ok(rocAuc(test.y, m.predictProba(test.X)) > 0.93, problem);
    }
  });

  it("is deterministic for a seed and reloads with identical predictions", async () => {
    const d = makeToyData("threshold", 1000, 4);
    const fit = async (seed: number) => {
      const m = new MlpClassifier({ ...FAST, epochs: 5 });
      await m.fit(d.X, d.y, { seed });
      return m;
    };
    const a = await fit(1);
    const json = JSON.stringify(a.toJSON());
    assert.equal(JSON.stringify((await fit(1)).toJSON()), json);
    assert.notEqual(JSON.stringify((await fit(2)).toJSON()), json);
    const back = await loadClassifier(JSON.parse(json));
    assert.deepEqual(back.predictProba(d.X), a.predictProba(d.X));
  });

  it("class weights move predictions toward the minority class", async () => {
    const d = makeToyData("imbalanced", 2000, 5);
    const mean = (p: Float32Array) => p.reduce((x, y) => x + y, 0) / p.length;
    const plain = new MlpClassifier({ ...FAST, epochs: 10 });
    await plain.fit(d.X, d.y, { seed: 1 });
    const weighted = new MlpClassifier({ ...FAST, epochs: 10 });
    await weighted.fit(d.X, d.y, { seed: 1, classWeight: { 0: 1, 1: 9 } });
    assert.ok(mean(weighted.predictProba(d.X)) > mean(plain.predictProba(d.X)) + 0.1);
  });

  it("rejects a malformed serialisation", async () => {
    await assert.rejects(loadClassifier({ kind: "mlp", version: 1, nCols: 2 }), /malformed/);
  });
});
