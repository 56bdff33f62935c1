/**
 * ml-random-forest (mljs, CART trees, Breiman 2001) behind pith's Classifier interface
 * (kind "ml-rf"): for small per-domain models and as the reference the histogram
 * learners are measured against. Its training time grows with the square of the rows
 * (shared/DEPENDENCIES.md: one tree on 8k rows × 40 features takes ~51 s), so keep it to
 * a few thousand rows.
 *
 * Adaptations: NaN becomes MISSING_SENTINEL (CART cannot sort NaN); sample and class
 * weights are honoured by a seeded weighted resample of the rows (the library has no
 * weights); P(class 1) averages the trees' leaf class distributions (the library's own
 * predictProbability counts votes and mis-adds the first one).
 */
import { RandomForestClassifier } from "ml-random-forest";
import { type Classifier, type FitOptions, expectKind, numParam, resolveWeights } from "./classifier.ts";
import { type Matrix, type MatrixInput, checkShapes, toMatrix } from "./matrix.ts";
import { createRng, DEFAULT_SEED, type Rng } from "./prng.ts";

/**
 * Rows ml-rf trains on at most. Its training time grows with the square of the rows: 50 trees on
 * this many rows take about a minute here (one tree: 3 s at 2,000 rows, 11.5 s at 4,000; 100
 * trees on 2,000 rows 395 s). A larger training set is refused in words; the histogram forest
 * (kind "rf") trains on hundreds of thousands of rows.
 */
export const ML_RF_MAX_ROWS = 1_000;

/** Stand-in for NaN: below any real feature value, so missing values sort first. */
export const MISSING_SENTINEL = -1e30;

export interface MlRfParams {
  /** Trees. Default 50. */
  nEstimators: number;
  /** Share of features each tree sees (drawn once per tree, without replacement). Default 0.7. */
  maxFeatures: number;
  /** Maximum tree depth. Default 20. */
  maxDepth: number;
  /** Minimum rows to split a node (ml-cart minNumSamples). Default 3. */
  minNumSamples: number;
  /**
   * Minimum Gini decrease to split (ml-cart gainThreshold). Default 0, as in scikit-learn:
   * the library's 0.01 left single trees unsplit on our synthetic tables.
   */
  gainThreshold: number;
}

export const ML_RF_DEFAULTS: Readonly<MlRfParams> = {
  nEstimators: 50,
  maxFeatures: 0.7,
  maxDepth: 20,
  minNumSamples: 3,
  gainThreshold: 0,
};

interface CartNode {
  classify(row: number[]): { columns: number; get(r: number, c: number): number };
}
interface ForestInternals {
  estimators: { root: CartNode }[];
  indexes: number[][];
}

function toRows(M: Matrix, rows?: ArrayLike<number>): number[][] {
  const n = rows ? rows.length : M.nRows;
  const out: number[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i]! : i;
    const row = new Array<number>(M.nCols);
    for (let c = 0; c < M.nCols; c++) {
      const v = M.data[r * M.nCols + c]!;
      row[c] = v === v ? v : MISSING_SENTINEL;
    }
    out[i] = row;
  }
  return out;
}

/** n row ids drawn with replacement, with probability proportional to weight (sorted). */
function weightedResample(w: Float32Array, rng: Rng): Uint32Array {
  const n = w.length;
  const cum = new Float64Array(n);
  let s = 0;
  for (let i = 0; i < n; i++) cum[i] = s += Math.max(0, w[i]!);
  const out = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const u = rng.next() * s;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cum[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    out[k] = lo;
  }
  return out.sort();
}

export interface MlRfJSON {
  kind: "ml-rf";
  version: 1;
  params: MlRfParams;
  nCols: number;
  forest: unknown;
}

export class MlRandomForest implements Classifier {
  readonly kind = "ml-rf";
  readonly params: MlRfParams;
  private model: { rf: RandomForestClassifier; nCols: number } | null = null;

  constructor(params: Record<string, unknown> = {}) {
    const p = { ...ML_RF_DEFAULTS };
    for (const k of Object.keys(ML_RF_DEFAULTS) as (keyof MlRfParams)[])
      p[k] = numParam(params, k, ML_RF_DEFAULTS[k]);
    this.params = p;
  }

  fit(X: MatrixInput, y: Uint8Array, opts: FitOptions = {}): void {
    const M = toMatrix(X);
    checkShapes(M, y, opts.weights);
    if (M.nRows > ML_RF_MAX_ROWS)
      throw new RangeError(
        `ml-rf trains in time that grows with the square of the rows: ${M.nRows} rows is more than ` +
          `its ${ML_RF_MAX_ROWS}; use --model rf (a histogram random forest) or fewer pages`,
      );
    const seed = opts.seed ?? DEFAULT_SEED;
    const w = resolveWeights(y, opts);
    const picked = w ? weightedResample(w, createRng(seed)) : undefined;
    const labels = Array.from(picked ?? y, (v, i) => (picked ? y[v]! : y[i]!));
    const rf = new RandomForestClassifier({
      nEstimators: this.params.nEstimators,
      maxFeatures: this.params.maxFeatures,
      replacement: false,
      seed: seed | 0,
      useSampleBagging: true,
      noOOB: true,
      treeOptions: {
        maxDepth: this.params.maxDepth,
        minNumSamples: this.params.minNumSamples,
        gainThreshold: this.params.gainThreshold,
      },
    });
    rf.train(toRows(M, picked), labels);
    opts.onProgress?.(this.params.nEstimators, this.params.nEstimators);
    this.model = { rf, nCols: M.nCols };
  }

  predictProba(X: MatrixInput): Float32Array {
    if (!this.model) throw new Error("ml-rf is not trained");
    const M = toMatrix(X);
    if (M.nCols !== this.model.nCols)
      throw new RangeError(`ml-rf was trained on ${this.model.nCols} features, got ${M.nCols}`);
    const { estimators, indexes } = this.model.rf as unknown as ForestInternals;
    const rows = toRows(M);
    const out = new Float32Array(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      let s = 0;
      for (let t = 0; t < estimators.length; t++) {
        const dist = estimators[t]!.root.classify(indexes[t]!.map((c) => row[c]!));
        s += dist.columns > 1 ? dist.get(0, 1) : 0;
      }
      out[r] = s / estimators.length;
    }
    return out;
  }

  toJSON(): MlRfJSON {
    if (!this.model) throw new Error("ml-rf is not trained");
    return {
      kind: "ml-rf",
      version: 1,
      params: { ...this.params },
      nCols: this.model.nCols,
      // plain data: the library's JSON holds ml-matrix objects, whose class a worker thread's
      // message (structured clone) or a model file would lose
      forest: JSON.parse(JSON.stringify(this.model.rf.toJSON())) as object,
    };
  }

  static fromJSON(json: unknown): MlRandomForest {
    const j = expectKind(json, "ml-rf") as Partial<MlRfJSON>;
    if (j.version !== 1 || !Number.isInteger(j.nCols) || typeof j.forest !== "object" || j.forest === null) {
      throw new Error("serialised ml-rf is malformed");
    }
    const c = new MlRandomForest((j.params ?? {}) as unknown as Record<string, unknown>);
    // JSON round trip: the library keeps references to the model object
    const forest = RandomForestClassifier.load(JSON.parse(JSON.stringify(j.forest)));
    c.model = { rf: forest, nCols: j.nCols! };
    return c;
  }
}
