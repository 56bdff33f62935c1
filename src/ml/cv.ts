/**
 * Site-grouped k-fold cross-validation of any Classifier: out-of-fold P(class 1) for every
 * row (for thresholds, end-to-end word F1 and reports) and per-fold / pooled metrics.
 * Folds come from split.ts, so no site is ever in both a fold's training and test rows.
 */
import type { Classifier, ClassWeight } from "./classifier.ts";
import { type Matrix, selectIndices, selectRows } from "./matrix.ts";
import { type BinaryMetrics, binaryMetrics, DEFAULT_THRESHOLD } from "./metrics.ts";
import { DEFAULT_SEED } from "./prng.ts";
import { groupKFold } from "./split.ts";

/** Folds when the caller does not say. */
export const DEFAULT_FOLDS = 5;

export interface CrossValidateOptions {
  /** Site (or page) id per row; required: random row folds would leak templates. */
  groups: ArrayLike<number>;
  k?: number;
  seed?: number;
  weights?: Float32Array;
  classWeight?: ClassWeight;
  threshold?: number;
  /** Called after each fold with its metrics. */
  onFold?: (fold: number, k: number, metrics: BinaryMetrics) => void;
}

export interface CrossValidation {
  /** Out-of-fold P(class 1) per row. */
  oof: Float32Array;
  folds: BinaryMetrics[];
  /** Metrics of the pooled out-of-fold predictions (weighted when weights were given). */
  overall: BinaryMetrics;
}

export async function crossValidate(
  make: () => Classifier | Promise<Classifier>,
  X: Matrix,
  y: Uint8Array,
  opts: CrossValidateOptions,
): Promise<CrossValidation> {
  const k = opts.k ?? DEFAULT_FOLDS;
  const seed = opts.seed ?? DEFAULT_SEED;
  const threshold = opts.threshold ?? DEFAULT_THRESHOLD;
  const oof = new Float32Array(X.nRows);
  const folds: BinaryMetrics[] = [];
  const splits = groupKFold(opts.groups, k, seed);
  for (let f = 0; f < splits.length; f++) {
    const { train, test } = splits[f]!;
    const clf = await make();
    await clf.fit(selectRows(X, train), selectIndices(y, train), {
      seed: seed + f + 1,
      groups: selectIndices(Int32Array.from(opts.groups), train),
      ...(opts.weights ? { weights: selectIndices(opts.weights, train) } : {}),
      ...(opts.classWeight ? { classWeight: opts.classWeight } : {}),
    });
    const p = clf.predictProba(selectRows(X, test));
    test.forEach((r, i) => {
      oof[r] = p[i]!;
    });
    const wTest = opts.weights ? selectIndices(opts.weights, test) : undefined;
    const m = binaryMetrics(selectIndices(y, test), p, { threshold, ...(wTest ? { weights: wTest } : {}) });
    folds.push(m);
    opts.onFold?.(f + 1, k, m);
  }
  const overall = binaryMetrics(y, oof, { threshold, ...(opts.weights ? { weights: opts.weights } : {}) });
  return { oof, folds, overall };
}
