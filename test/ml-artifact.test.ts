// Model artifacts (src/ml/artifact.ts): round trip, byte reproducibility, one-line refusals.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import {
  artifactClassifier,
  createArtifact,
  hashFeatureNames,
  loadModel,
  type ModelArtifact,
  type ModelExpectation,
  ModelLoadError,
  saveModel,
} from "../src/ml/artifact.ts";
import { GradientBoostedTrees } from "../src/ml/gbdt.ts";
import { makeToyData } from "../src/ml/synthetic.ts";
import { tempDir } from "./helpers.ts";

const NAMES = ["a", "b", "c", "d", "e"];
const HASH = hashFeatureNames(NAMES);

function trainedArtifact(): {
  art: ModelArtifact;
  model: GradientBoostedTrees;
  X: ReturnType<typeof makeToyData>["X"];
} {
  const d = makeToyData("xor", 1500, 1);
  const model = new GradientBoostedTrees({ nEstimators: 20 });
  model.fit(d.X, d.y, { seed: 1 });
  const art = createArtifact({
    kind: "content",
    featureSchema: { names: NAMES, hash: HASH },
    mode: "static",
    trainingSets: [{ name: "toy", license: "CC0" }],
    hyperParameters: { ...model.params },
    metrics: { auc: 0.99 },
    classifiers: { content: model.toJSON() },
  });
  return { art, model, X: d.X };
}

async function tmpFile(name: string): Promise<string> {
  return path.join(tempDir("pith-ml-"), name);
}

async function loadError(
  file: string,
  expected: ModelExpectation = { schemaHash: HASH, mode: "static" },
): Promise<string> {
  try {
    await loadModel(file, expected);
  } catch (e) {
    assert.ok(e instanceof ModelLoadError);
    assert.ok(!e.message.includes("\n"), "one line");
    return e.message;
  }
  assert.fail("loadModel accepted the file");
}

describe("model artifact", () => {
  it("saves, loads and rebuilds a classifier with identical predictions; bytes are reproducible", async () => {
    const { art, model, X } = trainedArtifact();
    const file = await tmpFile("m.json");
    await saveModel(file, art);
    const loaded = await loadModel(file, { schemaHash: HASH, mode: "static" });
    assert.equal(loaded.format, "pith-model");
    assert.equal(loaded.createdAt, undefined);
    const clf = await artifactClassifier(loaded, "content", file);
    assert.deepEqual(clf.predictProba(X), model.predictProba(X));
    const again = await tmpFile("m2.json");
    await saveModel(again, trainedArtifact().art);
    assert.equal(await readFile(again, "utf8"), await readFile(file, "utf8"));
  });

  it("refuses a schema mismatch, a mode mismatch, corrupt JSON and a foreign format in one line", async () => {
    const { art } = trainedArtifact();
    const file = await tmpFile("m.json");
    await saveModel(file, art);
    assert.match(
      await loadError(file, { schemaHash: "cd34ef567890aa", mode: "static" }),
      /trained on feature schema [0-9a-f]{12}… but this pith computes cd34ef567890…; retrain it with `pith train`/,
    );
    assert.match(
      await loadError(file, { schemaHash: HASH, mode: "chromium" }),
      /trained for static mode but pith is running in chromium mode/,
    );
    const text = await readFile(file, "utf8");
    await writeFile(file, text.slice(0, text.length / 2));
    assert.match(await loadError(file), /is corrupt \(not valid JSON/);
    await writeFile(file, JSON.stringify({ format: "onnx" }));
    assert.match(await loadError(file), /is not a pith model/);
    await writeFile(file, JSON.stringify({ ...art, formatVersion: 99 }));
    assert.match(await loadError(file), /format version 99/);
    await writeFile(file, JSON.stringify({ ...art, featureSchema: { names: NAMES } }));
    assert.match(await loadError(file), /corrupt \(no featureSchema.hash\)/);
    assert.match(await loadError(path.join(path.dirname(file), "missing.json")), /not found/);
  });

  it("refuses a missing or mismatched classifier entry", async () => {
    const { art } = trainedArtifact();
    await assert.rejects(artifactClassifier(art, "segment"), /has no classifier "segment"/);
    const bad = { ...art, featureSchema: { names: ["a"], hash: HASH } };
    await assert.rejects(artifactClassifier(bad, "content"), /reads 5 features, the schema has 1/);
  });
});
