/**
 * Compiled tree inference (src/ml/tree-predict.ts) against a plain node-by-node walk of the flat
 * trees: every tree classifier of every bundled model (content, segment, per-type, context,
 * router), on a regression page's feature rows and on rows drawn from the classifier's own
 * thresholds (ties, missing values, infinities), in batches of every size the layouts treat
 * apart. Sums must be equal to the bit, so probabilities and extractions stay the same.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { computeFeatures } from "../src/features/index.ts";
import { HistRandomForest } from "../src/ml/hist-forest.ts";
import { matrixFromData, type Matrix } from "../src/ml/matrix.ts";
import { createRng } from "../src/ml/prng.ts";
import { decodeTrees, type FlatTrees } from "../src/ml/tree.ts";
import { addTreesRaw, compileComplete, COMPLETE_MAX_DEPTH, PREDICT_LANES } from "../src/ml/tree-predict.ts";
import { BUNDLED_MODEL_DIR } from "../src/pipeline/model/model.ts";
import { staticSnapshot } from "../src/render/static.ts";

/** Depth of the deepest tree (a lone leaf: 0). */
function maxDepth(flat: FlatTrees): number {
  const depth = (n: number): number =>
    flat.feature[n]! < 0 ? 0 : 1 + Math.max(depth(flat.left[n]!), depth(flat.right[n]!));
  return Math.max(...Array.from(flat.roots, depth));
}

/** The reference: each row down each tree from its root, x ≤ threshold left, NaN left iff missingLeft. */
function walkRaw(flat: FlatTrees, X: Matrix): Float64Array {
  const out = new Float64Array(X.nRows);
  for (let r = 0; r < X.nRows; r++) {
    for (const root of flat.roots) {
      let n = root;
      while (flat.feature[n]! >= 0) {
        const v = X.data[r * X.nCols + flat.feature[n]!]!;
        const left = Number.isNaN(v) ? flat.missingLeft[n] === 1 : v <= flat.threshold[n]!;
        n = left ? flat.left[n]! : flat.right[n]!;
      }
      out[r] = out[r]! + flat.value[n]!;
    }
  }
  return out;
}

interface TreeClassifier {
  name: string;
  nCols: number;
  flat: FlatTrees;
}

/** Every "gbdt" classifier of a model file, by its place in the artifact. */
function treeClassifiers(file: string): TreeClassifier[] {
  const art = JSON.parse(readFileSync(file, "utf8")) as {
    classifiers: Record<string, unknown>;
    extra?: { router?: { classifiers: unknown[] } };
  };
  const named = Object.entries(art.classifiers);
  art.extra?.router?.classifiers.forEach((c, k) => named.push([`router ${k}`, c]));
  return named
    .filter(([, c]) => (c as { kind?: string }).kind === "gbdt")
    .map(([name, c]) => {
      const j = c as { nCols: number; trees: unknown };
      return { name, nCols: j.nCols, flat: decodeTrees(j.trees, j.nCols) };
    });
}

/** Rows whose cells are the classifier's thresholds (exact ties included), their neighbours, NaN and ±∞. */
function thresholdRows(flat: FlatTrees, nCols: number, nRows: number, seed: number): Matrix {
  const rng = createRng(seed);
  const byFeature: number[][] = Array.from({ length: nCols }, () => []);
  flat.feature.forEach((f, n) => {
    if (f >= 0) byFeature[f]!.push(flat.threshold[n]!);
  });
  const data = new Float32Array(nRows * nCols);
  for (let i = 0; i < data.length; i++) {
    const ts = byFeature[i % nCols]!;
    const u = rng.next();
    const t = ts.length ? ts[Math.floor(rng.next() * ts.length)]! : 0;
    data[i] =
      u < 0.15 ? NaN : u < 0.18 ? (u < 0.165 ? Infinity : -Infinity) : u < 0.4 ? t : t + (u - 0.7) * 4;
  }
  return matrixFromData(data, nRows, nCols);
}

/** The feature rows of a regression-corpus article (static snapshot), as the pipeline computes them. */
function fixtureRows(): Matrix {
  const html = readFileSync(
    new URL("./pages/article-big9-bbc-technology-2017/source.html", import.meta.url),
    "utf8",
  );
  const page = staticSnapshot({ id: "a", source: "a", url: null, html, encoding: "utf-8", remote: false });
  const t = computeFeatures(page, buildTree(page));
  return matrixFromData(t.values, t.nodes.length, t.schema.names.length);
}

function rowsOf(m: Matrix, from: number, count: number): Matrix {
  const n = Math.min(count, m.nRows - from);
  return matrixFromData(m.data.slice(from * m.nCols, (from + n) * m.nCols), n, m.nCols);
}

function assertSameSums(flat: FlatTrees, X: Matrix, what: string): void {
  const got = new Float64Array(X.nRows).fill(0.25);
  addTreesRaw(flat, X, got);
  const want = walkRaw(flat, X).map((v) => 0.25 + v);
  assert.deepEqual(got, want, what);
}

const MODELS = readdirSync(BUNDLED_MODEL_DIR).filter((f) => f.endsWith(".json"));
const SIZES = [1, PREDICT_LANES - 1, PREDICT_LANES, 3 * PREDICT_LANES + 5, 300];

test("every bundled tree classifier sums the same leaves as a node-by-node walk", () => {
  const page = fixtureRows();
  assert.ok(page.nRows > 100, `the page has ${page.nRows} rows`);
  let checked = 0;
  for (const file of MODELS) {
    for (const c of treeClassifiers(join(BUNDLED_MODEL_DIR, file))) {
      const drawn = thresholdRows(c.flat, c.nCols, 300, checked + 1);
      // packed (the first rows an ensemble walks), then compiled to the complete layout
      for (const layout of ["packed", "complete"]) {
        if (layout === "complete") assert.ok(compileComplete(c.flat), `${c.name} has a complete layout`);
        const what = `${file} ${c.name} (${layout})`;
        if (c.nCols === page.nCols) assertSameSums(c.flat, page, `${what}, page rows`);
        for (const n of SIZES) assertSameSums(c.flat, rowsOf(drawn, 0, n), `${what}, ${n} drawn rows`);
      }
      checked++;
    }
  }
  assert.ok(checked >= 20, `only ${checked} classifiers`);
});

test("an ensemble too deep for the complete layout (a depth-16 forest) still sums every tree", () => {
  const rng = createRng(3);
  const nRows = 2000;
  const nCols = 4;
  const data = Float32Array.from({ length: nRows * nCols }, () => (rng.next() < 0.1 ? NaN : rng.next()));
  const y = Uint8Array.from({ length: nRows }, (_, r) =>
    data[r * nCols]! + data[r * nCols + 1]! > 1 ? 1 : 0,
  );
  const X = matrixFromData(data, nRows, nCols);
  const forest = new HistRandomForest({ nEstimators: 5, minSamplesLeaf: 1 });
  forest.fit(X, y, { seed: 1 });
  const j = forest.toJSON() as { trees: unknown };
  const flat = decodeTrees(j.trees, nCols);
  assert.ok(maxDepth(flat) > COMPLETE_MAX_DEPTH, `the forest is ${maxDepth(flat)} deep`);
  assert.equal(compileComplete(flat), false);
  for (const n of SIZES) assertSameSums(flat, rowsOf(X, 7, n), `${n} rows`);
});
