/**
 * Fits on the training worker pool (src/train/fit-pool.ts): a classifier fitted on a worker
 * is the one fitted in this thread, a whole training run on two workers writes the same model
 * file as one on a single thread, and a fit that fails rejects alone while the pool goes on.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { serializeModel } from "../src/ml/artifact.ts";
import { makeSyntheticData } from "../src/ml/synthetic.ts";
import { fitOnPool } from "../src/train/fit-pool.ts";
import { fitRows } from "../src/train/fit.ts";
import type { RowSet } from "../src/train/matrix.ts";
import { WorkerPool } from "../src/train/pool.ts";
import { train, type TrainOptions } from "../src/train/train.ts";
import { syntheticSetFixture } from "./helpers.ts";

const set = syntheticSetFixture(
  "pool",
  ["alpha.example", "beta.example", "gamma.example", "delta.example", "epsilon.example", "zeta.example"],
  2,
);

function rowSet(nRows: number, seed: number): RowSet {
  const d = makeSyntheticData({ nRows, nCols: 20, seed });
  const w = Float32Array.from(d.y, (_, i) => 0.5 + (i % 3));
  return {
    X: d.X,
    y: d.y,
    w,
    groups: d.groups,
    sites: [],
    page: new Int32Array(nRows),
    row: new Int32Array(nRows),
  };
}

test("a classifier fitted on a worker equals the one fitted in this thread", async () => {
  const rows = rowSet(3000, 11);
  const config = { kind: "gbdt" as const, params: { nEstimators: 25, maxLeaves: 15 }, seed: 5 };
  const pool = new WorkerPool(2);
  try {
    const [local, pooled] = await Promise.all([fitRows(rows, config), fitRows(rows, { ...config, pool })]);
    assert.deepEqual(pooled.toJSON(), local.toJSON());
    assert.deepEqual(pooled.predictProba(rows.X), local.predictProba(rows.X));
  } finally {
    await pool.close();
  }
});

test("a fit that fails rejects with its error and the pool goes on", async () => {
  const pool = new WorkerPool(1);
  try {
    const bad: RowSet = { ...rowSet(200, 3), y: new Uint8Array(10) };
    await assert.rejects(
      fitOnPool(pool, bad, "gbdt", { nEstimators: 5 }, 1),
      (e: Error) => e.message.length > 0 && !e.message.includes("\n"),
    );
    const good = await fitOnPool(pool, rowSet(500, 4), "gbdt", { nEstimators: 5 }, 1);
    assert.equal(good.predictProba(rowSet(50, 9).X).length, 50);
  } finally {
    await pool.close();
  }
  await assert.rejects(pool.run({ task: "fit", payload: {} }), /closed/);
});

function options(workers: number): TrainOptions {
  return {
    datasets: [set.dir],
    mode: "static",
    kind: "gbdt",
    params: { nEstimators: 15, minSamplesLeaf: 2 },
    seed: 9,
    folds: 3,
    perType: false,
    segment: true,
    context: "always",
    genres: [],
    domain: null,
    name: "pool",
    workers,
  };
}

test("training on two worker threads writes the same model file as training on one thread", async () => {
  const one = await train(options(1));
  const two = await train(options(2));
  assert.ok(
    "context" in one.artifact.classifiers && "segment" in one.artifact.classifiers,
    "the run fits a segment classifier and a context stage",
  );
  assert.equal(serializeModel(two.artifact), serializeModel(one.artifact));
});
