/**
 * The bundled models' binary cache (src/pipeline/model/cache.ts): a model loaded from it has the
 * same classifiers as from its JSON (every probability equal on a page's rows), and a cache is
 * not used once the model file was written again, nor when it is damaged.
 */
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { computeFeatures, featureSchema } from "../src/features/index.ts";
import { checkModel } from "../src/ml/artifact.ts";
import { CHECKED_TREES } from "../src/ml/tree.ts";
import type { Classifier } from "../src/ml/classifier.ts";
import { matrixFromData, type Matrix } from "../src/ml/matrix.ts";
import { modelCachePath, readModelCache, writeModelCache } from "../src/pipeline/model/cache.ts";
import {
  BUNDLED_MODEL_DIR,
  bundledDefaultPath,
  loadPipelineModel,
  pipelineFromArtifact,
  type PipelineModel,
} from "../src/pipeline/model/model.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { pageFromHtml, tempDir } from "./helpers.ts";

function pageRows(): Matrix {
  const html = readFileSync(
    new URL("./pages/article-big9-bbc-technology-2017/source.html", import.meta.url),
    "utf8",
  );
  const page = staticSnapshot(pageFromHtml(html));
  const t = computeFeatures(page, buildTree(page));
  return matrixFromData(t.values, t.nodes.length, t.schema.names.length);
}

/** Every classifier of a pipeline model by name (router ones included). */
function classifiersOf(m: PipelineModel): Map<string, Classifier> {
  const out = new Map<string, Classifier>([["content", m.general.classifier]]);
  for (const [t, c] of m.byType) out.set(`content:${t}`, c.classifier);
  if (m.segment) out.set("segment", m.segment);
  if (m.context) out.set("context", m.context.classifier);
  m.router?.classifiers.forEach((c, k) => out.set(`router:${k}`, c));
  return out;
}

/** `cols` columns per row: the page's, repeated as needed (the context classifier reads more). */
function widen(X: Matrix, cols: number): Matrix {
  const data = new Float32Array(X.nRows * cols);
  for (let r = 0; r < X.nRows; r++)
    for (let c = 0; c < cols; c++) data[r * cols + c] = X.data[r * X.nCols + (c % X.nCols)]!;
  return matrixFromData(data, X.nRows, cols);
}

test("a model loaded from its cache scores every row as the JSON model does", async () => {
  const dir = tempDir("pith-model-cache-");
  const file = join(dir, "default-static.json");
  copyFileSync(bundledDefaultPath("static"), file);
  const cacheFile = join(dir, "default-static.bin");
  await writeModelCache(file, cacheFile);
  const cached = readModelCache(file, cacheFile) as { classifiers: Record<string, { trees: object }> } | null;
  assert.ok(cached !== null, "the cache is read");
  const trees = cached.classifiers["content"]!.trees as Record<symbol, unknown>;
  assert.equal(
    trees[CHECKED_TREES],
    featureSchema().names.length,
    "checked when written, for its columns: not checked again",
  );
  const expected = { schemaHash: featureSchema().hash, mode: "static" as const };
  const fromCache = await pipelineFromArtifact(checkModel(cached, file, expected), file);
  const fromJson = await loadPipelineModel(file, "static"); // not in models/: no cache
  const a = classifiersOf(fromCache);
  const b = classifiersOf(fromJson);
  assert.deepEqual([...a.keys()], [...b.keys()]);
  assert.ok(a.size >= 10, `${a.size} classifiers`);
  const rows = pageRows();
  for (const [name, c] of a) {
    const X = widen(rows, (c.toJSON() as { nCols: number }).nCols);
    assert.deepEqual(c.predictProba(X), b.get(name)!.predictProba(X), name);
    assert.deepEqual(c.toJSON(), b.get(name)!.toJSON(), `${name} serialises the same`);
  }
  // the rest of the artifact (schema, metrics, thresholds, lexicons …) as in the JSON
  const rest = (m: PipelineModel) => ({
    ...m.artifact,
    classifiers: Object.keys(m.artifact.classifiers),
    extra: { ...(m.artifact.extra as object), router: null },
  });
  assert.deepEqual(rest(fromCache), rest(fromJson));
});

test("a cache is not used once its model file is written again, or when it is damaged", async () => {
  const dir = tempDir("pith-model-cache-");
  const file = join(dir, "louvan-static.json");
  const text = readFileSync(join(BUNDLED_MODEL_DIR, "louvan-static.json"), "utf8");
  writeFileSync(file, text);
  const cacheFile = join(dir, "louvan-static.bin");
  await writeModelCache(file, cacheFile);
  assert.notEqual(readModelCache(file, cacheFile), null);
  writeFileSync(file, text); // same bytes, written again
  assert.equal(readModelCache(file, cacheFile), null, "a rewritten model is read from its JSON");
  await writeModelCache(file, cacheFile);
  const later = new Date(Date.now() + 5_000);
  utimesSync(file, later, later);
  assert.equal(readModelCache(file, cacheFile), null, "a touched model is read from its JSON");
  await writeModelCache(file, cacheFile);
  const size = statSync(cacheFile).size;
  truncateSync(cacheFile, size - 100);
  assert.equal(readModelCache(file, cacheFile), null, "a cache cut in its arrays is ignored");
  truncateSync(cacheFile, 1000);
  assert.equal(readModelCache(file, cacheFile), null, "a cache cut in its header is ignored");
});

test("only the models in models/ have a cache path", () => {
  assert.match(modelCachePath(bundledDefaultPath("static")) ?? "", /dist\/models\/default-static\.bin$/);
  assert.equal(modelCachePath("/tmp/some/model.json"), null);
  assert.equal(modelCachePath(join(bundledDefaultPath("static"), "..", "domains", "example.com.json")), null);
});
