/**
 * Histogram gradient-boosted trees with logistic loss: pith's main classifier (kind "gbdt").
 * Friedman (2001) gradient boosting with Newton leaf values and L2 regularisation as in
 * XGBoost (Chen & Guestrin, KDD 2016); quantile-binned features, leaf-wise growth,
 * histogram subtraction and learned missing-value directions as in LightGBM (Ke et al.,
 * NeurIPS 2017). Early stopping on a held-out fraction (whole groups when `groups` given).
 * Optionally `bags` boosters from successive seeds, averaged in log-odds (bagging, Breiman
 * 1996): their trees are one ensemble with leaf values divided by the number of bags.
 * Deterministic for a given seed; predictions need no binner (raw float32 thresholds).
 */
import { fitBinEdges, binMatrix, type BinnedData } from "./binning.ts";
import {
  type Classifier,
  type FitOptions,
  type HasFeatureImportance,
  expectKind,
  numParam,
  resolveWeights,
} from "./classifier.ts";
import {
  buildHistogram,
  emptySplit,
  findBestSplit,
  type HistSource,
  newHistogram,
  newHistSource,
  partitionRows,
  type Split,
  type SplitSearch,
  subtractHistogram,
} from "./hist.ts";
import { type Matrix, type MatrixInput, checkShapes, selectIndices, toMatrix } from "./matrix.ts";
import { addTreesRaw } from "./tree-predict.ts";
import { createRng, DEFAULT_SEED, type Rng, sampleWithoutReplacement } from "./prng.ts";
import { groupHoldout } from "./split.ts";
import {
  addLeaf,
  addTreeBinned,
  concatTrees,
  decodeTrees,
  encodeTrees,
  f32,
  type FlatTrees,
  flattenTrees,
  gainImportance,
  type GrownTree,
  newGrownTree,
  setSplit,
} from "./tree.ts";

export interface GbdtParams {
  /** Maximum boosting rounds (trees). Default 300. */
  nEstimators: number;
  /** Shrinkage applied to every leaf value. Default 0.1. */
  learningRate: number;
  /** Maximum leaves per tree (leaf-wise growth, best gain first). Default 31. */
  maxLeaves: number;
  /** Maximum depth of a leaf (root = 0). Default 8. */
  maxDepth: number;
  /** Minimum training rows in a leaf. Default 20. */
  minSamplesLeaf: number;
  /** Minimum hessian sum in a leaf. Default 1e-3. */
  minChildWeight: number;
  /** L2 penalty λ on leaf values. Default 1. */
  l2: number;
  /** Minimum split gain. Default 0. */
  minGain: number;
  /** Fraction of rows drawn (Bernoulli) for each tree. Default 1. */
  subsample: number;
  /** Fraction of features drawn for each tree. Default 1. */
  colsample: number;
  /** Bins per feature, missing bin included (≤ 256). Default 255. */
  maxBins: number;
  /** Rows sampled to learn bin edges. Default 200000. */
  binSampleRows: number;
  /** Fraction of rows (whole groups) held out for early stopping; 0 = none. Default 0.1. */
  validationFraction: number;
  /** Stop after this many rounds without validation log-loss improvement; 0 = never. Default 20. */
  earlyStoppingRounds: number;
  /**
   * Early stopping keeps at least this many trees (fewer only when nEstimators is lower): the
   * floor the final fit takes from the cross-validation's fold models (src/train/final-trees.ts).
   * Default 0.
   */
  minEstimators: number;
  /**
   * Boosters averaged (bagging, Breiman 1996): each draws its own early-stopping holdout, bins
   * and samples from its own seed, and the model predicts their mean log-odds. Default 1.
   */
  bags: number;
}

export const GBDT_DEFAULTS: Readonly<GbdtParams> = {
  nEstimators: 300,
  learningRate: 0.1,
  maxLeaves: 31,
  maxDepth: 8,
  minSamplesLeaf: 20,
  minChildWeight: 1e-3,
  l2: 1,
  minGain: 0,
  subsample: 1,
  colsample: 1,
  maxBins: 255,
  binSampleRows: 200_000,
  validationFraction: 0.1,
  earlyStoppingRounds: 20,
  minEstimators: 0,
  bags: 1,
};

/** Fewer rows than this: no early-stopping holdout (it would be too noisy to help). */
export const MIN_ROWS_FOR_EARLY_STOPPING = 1000;
/** Seed distance between bags. */
export const BAG_SEED_STEP = 1_000_003;
/** Hessian floor, so leaves of nearly pure nodes stay finite. */
const MIN_HESSIAN = 1e-16;
/** The initial log-odds is clipped to ±this. */
const MAX_BASE_SCORE = 10;

export function gbdtParams(params: Record<string, unknown> = {}): GbdtParams {
  const out = { ...GBDT_DEFAULTS };
  for (const key of Object.keys(GBDT_DEFAULTS) as (keyof GbdtParams)[])
    out[key] = numParam(params, key, GBDT_DEFAULTS[key]);
  if (out.maxLeaves < 2 || out.maxDepth < 1 || out.minSamplesLeaf < 1)
    throw new RangeError("gbdt needs maxLeaves ≥ 2, maxDepth ≥ 1, minSamplesLeaf ≥ 1");
  if (!Number.isInteger(out.bags) || out.bags < 1)
    throw new RangeError("gbdt needs a whole number of bags ≥ 1");
  return out;
}

interface Pending {
  node: number;
  start: number;
  end: number;
  depth: number;
  hist: Float64Array | null;
  A: number;
  B: number;
  split: Split | null;
}

/** Grows one leaf-wise tree on binned rows; scratch buffers are reused across trees. */
class LeafWiseGrower {
  readonly rows: Uint32Array;
  private readonly tmp: Uint32Array;
  private readonly src: HistSource;
  private readonly pool: Float64Array[] = [];
  private readonly search: SplitSearch;
  private feats: Int32Array = new Int32Array(0);

  constructor(
    private readonly data: BinnedData,
    private readonly p: GbdtParams,
  ) {
    this.rows = new Uint32Array(data.nRows);
    this.tmp = new Uint32Array(data.nRows);
    this.src = newHistSource(data, this.rows);
    const cons = { minSamplesLeaf: p.minSamplesLeaf, minWeightLeaf: p.minChildWeight, minGain: p.minGain };
    const l2 = p.l2;
    this.search = { data, score: (a, b) => (a * a) / (b + l2), cons };
  }

  private leafValue(A: number, B: number): number {
    return (-this.p.learningRate * A) / (B + this.p.l2);
  }

  private canSplit(count: number, depth: number): boolean {
    return depth < this.p.maxDepth && count >= 2 * this.p.minSamplesLeaf;
  }

  private hist(): Float64Array {
    return this.pool.pop() ?? newHistogram(this.data.nCols);
  }

  private release(h: Float64Array | null): void {
    if (h) this.pool.push(h);
  }

  private bestSplit(e: Pending): Split | null {
    const s = emptySplit();
    const totals = { A: e.A, B: e.B, count: e.end - e.start };
    return findBestSplit(e.hist!, this.search, this.feats, totals, s) ? s : null;
  }

  /** Grows a tree on rows[0, m) (filled by the caller) using the given features. */
  grow(m: number, grad: Float32Array, hess: Float32Array, feats: Int32Array): GrownTree {
    this.feats = feats;
    this.src.a = grad;
    this.src.b = hess;
    const tree = newGrownTree();
    let A = 0;
    let B = 0;
    for (let i = 0; i < m; i++) {
      A += grad[this.rows[i]!]!;
      B += hess[this.rows[i]!]!;
    }
    const root = this.newPending(tree, 0, m, 0, A, B);
    if (this.canSplit(m, 0)) {
      root.hist = this.hist();
      buildHistogram(root.hist, this.src, 0, m, feats);
      root.split = this.bestSplit(root);
    }
    const pending: Pending[] = [root];
    for (let leaves = 1; leaves < this.p.maxLeaves; leaves++) {
      let pick = -1;
      for (let i = 0; i < pending.length; i++) {
        const g = pending[i]!.split?.gain ?? -Infinity;
        if (g > -Infinity && (pick < 0 || g > pending[pick]!.split!.gain)) pick = i;
      }
      if (pick < 0) break;
      const parent = pending.splice(pick, 1)[0]!;
      pending.push(...this.splitLeaf(tree, parent));
    }
    for (const e of pending) this.release(e.hist);
    return tree;
  }

  /** A new leaf of `tree` for rows[start, end) with sums A and B, as a pending node with no split yet. */
  private newPending(
    tree: GrownTree,
    start: number,
    end: number,
    depth: number,
    A: number,
    B: number,
  ): Pending {
    const node = addLeaf(tree, this.leafValue(A, B));
    return { node, start, end, depth, hist: null, A, B, split: null };
  }

  /** Applies parent's split: partitions rows, adds two leaves, derives their histograms and splits. */
  private splitLeaf(tree: GrownTree, parent: Pending): Pending[] {
    const s = parent.split!;
    const mid = partitionRows(this.data, this.rows, parent.start, parent.end, s, this.tmp);
    const depth = parent.depth + 1;
    const left = this.newPending(tree, parent.start, mid, depth, s.leftA, s.leftB);
    const right = this.newPending(tree, mid, parent.end, depth, parent.A - s.leftA, parent.B - s.leftB);
    setSplit(tree, parent.node, s, left.node, right.node);
    const [small, large] = mid - parent.start <= parent.end - mid ? [left, right] : [right, left];
    const splitSmall = this.canSplit(small.end - small.start, small.depth);
    const splitLarge = this.canSplit(large.end - large.start, large.depth);
    if (splitSmall || splitLarge) {
      small.hist = this.hist();
      buildHistogram(small.hist, this.src, small.start, small.end, this.feats);
      if (splitLarge) {
        subtractHistogram(parent.hist!, small.hist, this.data, this.feats);
        large.hist = parent.hist;
        parent.hist = null;
        large.split = this.bestSplit(large);
      }
      if (splitSmall) small.split = this.bestSplit(small);
    }
    this.release(parent.hist);
    for (const c of [small, large]) {
      if (!c.split) {
        this.release(c.hist);
        c.hist = null;
      }
    }
    return [small, large].filter((c) => c.split !== null);
  }
}

interface BoostState {
  trainData: BinnedData;
  valData: BinnedData | null;
  y: Uint8Array;
  w: Float32Array | null;
  yVal: Uint8Array | null;
  wVal: Float32Array | null;
  edges: Float32Array[];
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Weighted mean log-loss of raw scores F. */
function logLoss(F: Float64Array, y: Uint8Array, w: Float32Array | null): number {
  let s = 0;
  let sw = 0;
  for (let i = 0; i < F.length; i++) {
    const wi = w ? w[i]! : 1;
    const f = F[i]!;
    // log(1 + e^-f) for y=1, log(1 + e^f) for y=0, computed stably
    const z = y[i] === 1 ? -f : f;
    s += wi * (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));
    sw += wi;
  }
  return sw > 0 ? s / sw : 0;
}

/** Weighted log-odds of the positive class, clipped. */
function baseScoreOf(y: Uint8Array, w: Float32Array | null): number {
  let pos = 0;
  let tot = 0;
  for (let i = 0; i < y.length; i++) {
    const wi = w ? w[i]! : 1;
    pos += y[i] === 1 ? wi : 0;
    tot += wi;
  }
  const p = Math.min(Math.max(pos / tot, 1e-12), 1 - 1e-12);
  return Math.min(MAX_BASE_SCORE, Math.max(-MAX_BASE_SCORE, Math.log(p / (1 - p))));
}

function computeGradients(
  F: Float64Array,
  y: Uint8Array,
  w: Float32Array | null,
  grad: Float32Array,
  hess: Float32Array,
): void {
  for (let i = 0; i < F.length; i++) {
    const p = sigmoid(F[i]!);
    const wi = w ? w[i]! : 1;
    grad[i] = wi * (p - y[i]!);
    hess[i] = Math.max(wi * p * (1 - p), MIN_HESSIAN);
  }
}

/** Number of distinct values, counting no further than `limit`. */
function countDistinct(a: ArrayLike<number>, limit: number): number {
  const seen = new Set<number>();
  for (let i = 0; i < a.length && seen.size < limit; i++) seen.add(a[i]!);
  return seen.size;
}

/** Bins the data and splits off the early-stopping holdout. */
function prepare(X: Matrix, y: Uint8Array, p: GbdtParams, opts: FitOptions, rng: Rng): BoostState {
  const w = resolveWeights(y, opts);
  const useVal =
    p.earlyStoppingRounds > 0 && p.validationFraction > 0 && X.nRows >= MIN_ROWS_FOR_EARLY_STOPPING;
  // one site only (e.g. a per-domain model): hold out rows instead of groups
  const groups = opts.groups && countDistinct(opts.groups, 2) >= 2 ? opts.groups : undefined;
  const split = useVal ? groupHoldout(X.nRows, p.validationFraction, rng.seed(), groups) : null;
  const trainRows = split ? split.train : Uint32Array.from({ length: X.nRows }, (_, i) => i);
  const edges = fitBinEdges(X, {
    maxBins: p.maxBins,
    sampleRows: p.binSampleRows,
    seed: rng.seed(),
    rows: trainRows,
  });
  return {
    trainData: binMatrix(X, edges, split ? trainRows : undefined, true),
    valData: split ? binMatrix(X, edges, split.test) : null,
    y: split ? selectIndices(y, trainRows) : y,
    w: w && split ? selectIndices(w, trainRows) : w,
    yVal: split ? selectIndices(y, split.test) : null,
    wVal: w && split ? selectIndices(w, split.test) : null,
    edges,
  };
}

/** Fills grower.rows with a Bernoulli row sample; returns its size. */
function sampleRows(rows: Uint32Array, n: number, rate: number, rng: Rng): number {
  if (rate >= 1) {
    for (let i = 0; i < n; i++) rows[i] = i;
    return n;
  }
  let m = 0;
  for (let i = 0; i < n; i++) if (rng.next() < rate) rows[m++] = i;
  return m;
}

/** Runs the boosting rounds; returns the trees up to the best validation round (at least minEstimators). */
function boost(
  s: BoostState,
  p: GbdtParams,
  base: number,
  rng: Rng,
  onProgress?: (done: number, total: number) => void,
): GrownTree[] {
  const n = s.trainData.nRows;
  const nCols = s.trainData.nCols;
  const F = new Float64Array(n).fill(base);
  const Fval = s.valData ? new Float64Array(s.valData.nRows).fill(base) : null;
  const grad = new Float32Array(n);
  const hess = new Float32Array(n);
  const grower = new LeafWiseGrower(s.trainData, p);
  const nFeats = Math.max(1, Math.round(p.colsample * nCols));
  const trees: GrownTree[] = [];
  let best = { loss: Infinity, trees: 0 };
  for (let it = 0; it < p.nEstimators; it++) {
    computeGradients(F, s.y, s.w, grad, hess);
    const m = sampleRows(grower.rows, n, p.subsample, rng);
    const feats = Int32Array.from(sampleWithoutReplacement(nCols, nFeats, rng));
    const tree = grower.grow(m, grad, hess, feats);
    trees.push(tree);
    addTreeBinned(tree, s.trainData, F);
    if (Fval && s.valData && s.yVal) {
      addTreeBinned(tree, s.valData, Fval);
      const loss = logLoss(Fval, s.yVal, s.wVal);
      if (loss < best.loss - 1e-12) best = { loss, trees: trees.length };
      if (trees.length - best.trees >= p.earlyStoppingRounds && trees.length >= p.minEstimators) break;
    } else {
      best = { loss: NaN, trees: trees.length };
    }
    onProgress?.(trees.length, p.nEstimators);
  }
  const kept = Math.max(best.trees, Math.min(p.minEstimators, trees.length));
  onProgress?.(kept, kept);
  return trees.slice(0, kept);
}

export interface GbdtJSON {
  kind: "gbdt";
  version: 1;
  params: GbdtParams;
  nCols: number;
  baseScore: number;
  importance: number[];
  trees: ReturnType<typeof encodeTrees>;
}

/** Gradient-boosted trees (kind "gbdt"). See GBDT_DEFAULTS for the hyper-parameters. */
export class GradientBoostedTrees implements Classifier, HasFeatureImportance {
  readonly kind = "gbdt";
  readonly params: GbdtParams;
  private model: { flat: FlatTrees; nCols: number; baseScore: number; importance: Float64Array } | null =
    null;

  constructor(params: Record<string, unknown> = {}) {
    this.params = gbdtParams(params);
  }

  fit(X: MatrixInput, y: Uint8Array, opts: FitOptions = {}): void {
    const M = toMatrix(X);
    checkShapes(M, y, opts.weights);
    const seed = opts.seed ?? DEFAULT_SEED;
    const K = this.params.bags;
    const parts: FlatTrees[] = [];
    const importance = new Float64Array(M.nCols);
    let baseScore = 0;
    for (let k = 0; k < K; k++) {
      // bag 0 draws from `seed` itself: one bag is exactly the unbagged booster
      const rng = createRng(k === 0 ? seed : seed + BAG_SEED_STEP * k);
      const state = prepare(M, y, this.params, opts, rng);
      const base = baseScoreOf(state.y, state.w);
      const progress =
        opts.onProgress &&
        ((done: number, total: number) =>
          opts.onProgress?.(k * this.params.nEstimators + done, K * this.params.nEstimators));
      const trees = boost(state, this.params, base, rng, progress);
      parts.push(flattenTrees(trees, state.edges));
      const gain = gainImportance(trees, M.nCols);
      for (let c = 0; c < M.nCols; c++) importance[c] = (importance[c] as number) + (gain[c] as number) / K;
      baseScore += base / K;
    }
    this.model = {
      flat: K === 1 ? (parts[0] as FlatTrees) : concatTrees(parts, 1 / K),
      nCols: M.nCols,
      baseScore,
      importance,
    };
  }

  /** Number of trees kept (after early stopping). */
  get nTrees(): number {
    return this.model?.flat.roots.length ?? 0;
  }

  /** Raw log-odds per row. */
  predictRaw(X: MatrixInput): Float64Array {
    const m = this.trained();
    const M = toMatrix(X);
    if (M.nCols !== m.nCols) throw new RangeError(`gbdt was trained on ${m.nCols} features, got ${M.nCols}`);
    const out = new Float64Array(M.nRows).fill(m.baseScore);
    addTreesRaw(m.flat, M, out);
    return out;
  }

  predictProba(X: MatrixInput): Float32Array {
    // a loop, not Float32Array.from(raw, sigmoid): a typed array's `from` with a map function
    // goes through the iterator protocol, 8× slower (0.5 ms on a 3,000-row page)
    const raw = this.predictRaw(X);
    const out = new Float32Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = sigmoid(raw[i]!);
    return out;
  }

  featureImportance(): Float64Array {
    return this.trained().importance.slice();
  }

  toJSON(): GbdtJSON {
    const m = this.trained();
    return {
      kind: "gbdt",
      version: 1,
      params: { ...this.params },
      nCols: m.nCols,
      baseScore: m.baseScore,
      importance: Array.from(m.importance, (v) => f32(Math.fround(v))),
      trees: encodeTrees(m.flat),
    };
  }

  static fromJSON(json: unknown): GradientBoostedTrees {
    const j = expectKind(json, "gbdt") as Partial<GbdtJSON>;
    if (j.version !== 1) throw new Error(`unsupported gbdt version ${String(j.version)}`);
    const nCols = Number(j.nCols);
    if (!Number.isInteger(nCols) || nCols < 1 || typeof j.baseScore !== "number")
      throw new Error("serialised gbdt lacks nCols or baseScore");
    const c = new GradientBoostedTrees((j.params ?? {}) as unknown as Record<string, unknown>);
    const importance = Float64Array.from(
      Array.isArray(j.importance) ? j.importance : new Array<number>(nCols).fill(0),
    );
    c.model = { flat: decodeTrees(j.trees, nCols), nCols, baseScore: j.baseScore, importance };
    return c;
  }

  private trained(): NonNullable<GradientBoostedTrees["model"]> {
    if (!this.model) throw new Error("gbdt is not trained");
    return this.model;
  }
}
