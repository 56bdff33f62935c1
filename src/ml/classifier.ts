/**
 * pith's classifier contract: binary classifiers over a dense feature Matrix (see
 * matrix.ts) that output P(class 1), serialise to plain JSON, and reload by kind.
 *
 * Kinds: "gbdt" (gbdt.ts, the default model), "rf" (hist-forest.ts, histogram random
 * forest), "ml-rf" (random-forest.ts, ml-random-forest wrapper for small models and as a
 * reference), "mlp" (mlp.ts, TensorFlow.js), "seq" (seq.ts, a TensorFlow.js 1-D convolution over
 * a page's leaf blocks in document order: it reads `sequences`, the others ignore it). Modules
 * are imported lazily so that loading a tree model never pulls in TensorFlow.js.
 */
import type { MatrixInput } from "./matrix.ts";

export type ClassWeight = "balanced" | { 0: number; 1: number };

export interface FitOptions {
  /** Per-row sample weights (default 1). */
  weights?: Float32Array;
  /** Per-class weights multiplied into the sample weights; "balanced" = n / (2 · n_class). */
  classWeight?: ClassWeight;
  /** Seed for every random choice of the fit (default prng.DEFAULT_SEED). */
  seed?: number;
  /**
   * Group id per row (e.g. site). Learners that hold out a validation set (early
   * stopping) hold out whole groups, so validation rows never share a site with training rows.
   */
  groups?: ArrayLike<number>;
  /**
   * Page id per row, rows of one page contiguous and in document order: a sequence model reads
   * each page as one sequence (default: all rows one sequence). Row classifiers ignore it.
   */
  sequences?: ArrayLike<number>;
  /** Called after each unit of work (tree, epoch); `total` may shrink on early stop. */
  onProgress?: (done: number, total: number) => void;
}

export interface PredictOptions {
  /** As FitOptions.sequences: page id per row (default: all rows are one page). */
  sequences?: ArrayLike<number>;
}

export interface Classifier {
  readonly kind: string;
  fit(X: MatrixInput, y: Uint8Array, opts?: FitOptions): void | Promise<void>;
  /** P(class 1) per row. */
  predictProba(X: MatrixInput, opts?: PredictOptions): Float32Array;
  /** Plain JSON (with a `kind` field) that loadClassifier turns back into an identical model. */
  toJSON(): unknown;
}

/** Classifiers that can rank features (tree ensembles: total split gain per column). */
export interface HasFeatureImportance {
  featureImportance(): Float64Array;
}

export const CLASSIFIER_KINDS = ["gbdt", "rf", "ml-rf", "mlp", "seq"] as const;
export type ClassifierKind = (typeof CLASSIFIER_KINDS)[number];

/**
 * Effective per-row weights: sample weights × class weights. Returns null when every
 * weight would be 1 (learners then skip the multiply).
 */
export function resolveWeights(y: Uint8Array, opts: FitOptions = {}): Float32Array | null {
  const { weights, classWeight } = opts;
  if (!weights && !classWeight) return null;
  let w0 = 1;
  let w1 = 1;
  if (classWeight === "balanced") {
    let n1 = 0;
    for (let i = 0; i < y.length; i++) n1 += y[i] === 1 ? 1 : 0;
    const n0 = y.length - n1;
    w0 = n0 > 0 ? y.length / (2 * n0) : 1;
    w1 = n1 > 0 ? y.length / (2 * n1) : 1;
  } else if (classWeight) {
    w0 = classWeight[0];
    w1 = classWeight[1];
  }
  const out = new Float32Array(y.length);
  for (let i = 0; i < y.length; i++) out[i] = (weights ? weights[i]! : 1) * (y[i] === 1 ? w1 : w0);
  return out;
}

/** Reads a numeric hyper-parameter, falling back to its default; throws on a wrong type. */
export function numParam(params: Record<string, unknown>, name: string, def: number): number {
  const v = params[name];
  if (v === undefined) return def;
  if (typeof v !== "number" || Number.isNaN(v))
    throw new TypeError(`hyper-parameter ${name} must be a number, got ${JSON.stringify(v)}`);
  return v;
}

/** Throws a one-line error unless `json` is an object of the given kind. */
export function expectKind(json: unknown, kind: string): Record<string, unknown> {
  if (typeof json !== "object" || json === null || (json as { kind?: unknown }).kind !== kind) {
    throw new Error(`expected a serialised "${kind}" classifier`);
  }
  return json as Record<string, unknown>;
}

/** Features by decreasing importance with their share of the total, for model cards and reports. */
export function rankFeatures(
  importance: ArrayLike<number>,
  names: readonly string[],
  top = Infinity,
): { name: string; gain: number; share: number }[] {
  if (importance.length !== names.length)
    throw new RangeError(`${importance.length} importances for ${names.length} feature names`);
  let total = 0;
  for (let i = 0; i < importance.length; i++) total += importance[i]!;
  return names
    .map((name, i) => ({ name, gain: importance[i]!, share: total > 0 ? importance[i]! / total : 0 }))
    .sort((a, b) => b.gain - a.gain || (a.name < b.name ? -1 : 1))
    .slice(0, top);
}
