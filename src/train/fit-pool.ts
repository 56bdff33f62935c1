/**
 * Classifier fits on the training worker pool (pool.ts). A fit is independent of every other
 * fit of its stage (each fold's general, segment and page-type models; the context stage of
 * each fold and the final one), so training submits them together and both cores work. The
 * worker gets copies of the rows, fits the same code with the same seed, and answers with the
 * classifier's JSON, which loads back into an identical model (trees keep float32 thresholds
 * and leaf values in memory and in JSON alike): pooled training writes the same model file
 * as training in one thread (test/fit-pool.test.ts).
 */
import type { Classifier, ClassifierKind } from "../ml/classifier.ts";
import { createClassifier, loadClassifier } from "../ml/kinds.ts";
import { matrixFromData } from "../ml/matrix.ts";
import type { RowSet } from "./matrix.ts";
import type { WorkerPool } from "./pool.ts";

/** What a worker needs to fit one classifier. */
export interface FitPayload {
  kind: ClassifierKind;
  params: Record<string, unknown>;
  seed: number;
  data: Float32Array;
  nRows: number;
  nCols: number;
  y: Uint8Array;
  w: Float32Array;
  groups: Int32Array;
  /** Page per row (FitOptions.sequences). */
  page: Int32Array;
}

/** Fits a classifier in this thread: the worker's "fit" task. */
export async function fitPayload(p: FitPayload): Promise<unknown> {
  const clf = await createClassifier(p.kind, p.params);
  await clf.fit(matrixFromData(p.data, p.nRows, p.nCols), p.y, {
    weights: p.w,
    seed: p.seed,
    groups: p.groups,
    sequences: p.page,
  });
  return clf.toJSON();
}

/** Fits `rows` on a worker of `pool` and loads the result. */
export async function fitOnPool(
  pool: WorkerPool,
  rows: RowSet,
  kind: ClassifierKind,
  params: Record<string, unknown>,
  seed: number,
): Promise<Classifier> {
  const payload: FitPayload = {
    kind,
    params,
    seed,
    data: rows.X.data,
    nRows: rows.X.nRows,
    nCols: rows.X.nCols,
    y: rows.y,
    w: rows.w,
    groups: rows.groups,
    page: rows.page,
  };
  return loadClassifier(await pool.run({ task: "fit", payload }));
}
