/**
 * Histogram split finding shared by gbdt.ts and hist-forest.ts (LightGBM, Ke et al. 2017).
 * A histogram holds, per feature and bin, three sums: A, B and a row count. Boosting puts
 * gradient in A and hessian in B; the forest puts weighted positives in A and weight in B.
 * A split criterion is a `score(A, B)` of one side; gain = score(L) + score(R) − score(parent).
 * A split sends value bins ≤ t left and the missing bin left or right (learned).
 */
import { type BinnedData, MAX_BINS, MISSING_BIN } from "./binning.ts";

/** Doubles per bin: sum A, sum B, count. */
export const HIST_STRIDE = 3;
/** Doubles per feature in a histogram buffer. */
export const FEATURE_SLOTS = MAX_BINS * HIST_STRIDE;
/**
 * Nodes holding fewer than this share of the rows are accumulated row by row from the
 * row-major bins (when present): measured ~3× faster below ~2 % density, slower above.
 */
export const ROW_WISE_MAX_DENSITY = 1 / 50;

export type ScoreFn = (a: number, b: number) => number;

export interface SplitConstraints {
  /** Minimum rows on each side. */
  minSamplesLeaf: number;
  /** Minimum sum of B (hessian or weight) on each side. */
  minWeightLeaf: number;
  /** Minimum gain to accept a split. */
  minGain: number;
}

export interface Split {
  feature: number;
  /** Value bins 1..bin go left. */
  bin: number;
  missingLeft: boolean;
  gain: number;
  leftA: number;
  leftB: number;
  leftCount: number;
}

export function emptySplit(): Split {
  return { feature: -1, bin: 0, missingLeft: false, gain: -Infinity, leftA: 0, leftB: 0, leftCount: 0 };
}

export function newHistogram(nCols: number): Float64Array {
  return new Float64Array(nCols * FEATURE_SLOTS);
}

/**
 * What histogram building reads, made once per grower: the binned data, the row order, the
 * per-row sums `a`/`b` (b null = weight 1; set per tree) and scratch for a node's values.
 */
export interface HistSource {
  readonly data: BinnedData;
  readonly rows: Uint32Array;
  a: Float32Array;
  b: Float32Array | null;
  /** The node's `a`/`b` gathered contiguously, one entry per row of the node. */
  readonly scratchA: Float32Array;
  readonly scratchB: Float32Array;
}

/** A HistSource over `data` and `rows` with scratch for every row; the caller sets `a`/`b` per tree. */
export function newHistSource(data: BinnedData, rows: Uint32Array): HistSource {
  const scratchA = new Float32Array(data.nRows);
  const scratchB = new Float32Array(data.nRows);
  return { data, rows, a: new Float32Array(0), b: null, scratchA, scratchB };
}

/**
 * Fills the histogram of src.rows[start, end) for the given features. `src.scratchA`/`scratchB`
 * receive the node's values gathered contiguously. Features go four at a time: one pass over the
 * rows feeds four histograms. With `clear` false the caller guarantees those features' bins are
 * already zero (see zeroHistogram).
 */
export function buildHistogram(
  hist: Float64Array,
  src: HistSource,
  start: number,
  end: number,
  feats: Int32Array,
  clear = true,
): void {
  const { data, rows, a, b, scratchA, scratchB } = src;
  const m = end - start;
  for (let i = 0; i < m; i++) {
    const r = rows[start + i]!;
    scratchA[i] = a[r]!;
    scratchB[i] = b ? b[r]! : 1;
  }
  for (let k = 0; clear && k < feats.length; k++) {
    const base = feats[k]! * FEATURE_SLOTS;
    hist.fill(0, base, base + data.nBins[feats[k]!]! * HIST_STRIDE);
  }
  const rowView = rows.subarray(start, end);
  if (data.rowBins && m < data.nRows * ROW_WISE_MAX_DENSITY) {
    accumulateRows(hist, data.rowBins, src, rowView, feats);
    return;
  }
  let k = 0;
  for (; k + 4 <= feats.length; k += 4) accumulate4(hist, src, rowView, feats, k);
  for (; k < feats.length; k++) accumulate1(hist, src, rowView, feats[k]!);
}

/** Adds `rows` (scratch values in src) to the histograms of `feats`, row by row from `rowBins`. */
function accumulateRows(
  hist: Float64Array,
  rowBins: Uint8Array,
  src: HistSource,
  rows: Uint32Array,
  feats: Int32Array,
): void {
  const nCols = src.data.nCols;
  const sa = src.scratchA;
  const sb = src.scratchB;
  for (let i = 0; i < rows.length; i++) {
    const off = rows[i]! * nCols;
    const x = sa[i]!;
    const y = sb[i]!;
    for (let k = 0; k < feats.length; k++) {
      const f = feats[k]!;
      const o = f * FEATURE_SLOTS + rowBins[off + f]! * HIST_STRIDE;
      hist[o] = hist[o]! + x;
      hist[o + 1] = hist[o + 1]! + y;
      hist[o + 2] = hist[o + 2]! + 1;
    }
  }
}

/** Adds `rows` (scratch values in src) to the histogram of feature `f`, from its bin column. */
function accumulate1(hist: Float64Array, src: HistSource, rows: Uint32Array, f: number): void {
  const { bins, nRows } = src.data;
  const sa = src.scratchA;
  const sb = src.scratchB;
  const base = f * FEATURE_SLOTS;
  const col = f * nRows;
  for (let i = 0; i < rows.length; i++) {
    const o = base + bins[col + rows[i]!]! * HIST_STRIDE;
    hist[o] = hist[o]! + sa[i]!;
    hist[o + 1] = hist[o + 1]! + sb[i]!;
    hist[o + 2] = hist[o + 2]! + 1;
  }
}

/** Adds `rows` to the histograms of feats[k..k+3] in one pass over the rows. */
function accumulate4(
  hist: Float64Array,
  src: HistSource,
  rows: Uint32Array,
  feats: Int32Array,
  k: number,
): void {
  const { bins, nRows } = src.data;
  const sa = src.scratchA;
  const sb = src.scratchB;
  const f0 = feats[k]!,
    f1 = feats[k + 1]!,
    f2 = feats[k + 2]!,
    f3 = feats[k + 3]!;
  const b0 = f0 * FEATURE_SLOTS,
    b1 = f1 * FEATURE_SLOTS,
    b2 = f2 * FEATURE_SLOTS,
    b3 = f3 * FEATURE_SLOTS;
  const c0 = f0 * nRows,
    c1 = f1 * nRows,
    c2 = f2 * nRows,
    c3 = f3 * nRows;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const x = sa[i]!;
    const y = sb[i]!;
    let o = b0 + bins[c0 + r]! * HIST_STRIDE;
    hist[o] = hist[o]! + x;
    hist[o + 1] = hist[o + 1]! + y;
    hist[o + 2] = hist[o + 2]! + 1;
    o = b1 + bins[c1 + r]! * HIST_STRIDE;
    hist[o] = hist[o]! + x;
    hist[o + 1] = hist[o + 1]! + y;
    hist[o + 2] = hist[o + 2]! + 1;
    o = b2 + bins[c2 + r]! * HIST_STRIDE;
    hist[o] = hist[o]! + x;
    hist[o + 1] = hist[o + 1]! + y;
    hist[o + 2] = hist[o + 2]! + 1;
    o = b3 + bins[c3 + r]! * HIST_STRIDE;
    hist[o] = hist[o]! + x;
    hist[o + 1] = hist[o + 1]! + y;
    hist[o + 2] = hist[o + 2]! + 1;
  }
}

/** Zeroes the bins that rows[start, end) touched, or whole features when that is cheaper. */
export function zeroHistogram(
  hist: Float64Array,
  data: BinnedData,
  rows: Uint32Array,
  start: number,
  end: number,
  feats: Int32Array,
): void {
  const { bins, nRows, nCols, rowBins } = data;
  for (let k = 0; k < feats.length; k++) {
    const f = feats[k]!;
    const base = f * FEATURE_SLOTS;
    if (end - start >= data.nBins[f]!) {
      hist.fill(0, base, base + data.nBins[f]! * HIST_STRIDE);
      continue;
    }
    for (let i = start; i < end; i++) {
      const bin = rowBins ? rowBins[rows[i]! * nCols + f]! : bins[f * nRows + rows[i]!]!;
      const o = base + bin * HIST_STRIDE;
      hist[o] = 0;
      hist[o + 1] = 0;
      hist[o + 2] = 0;
    }
  }
}

/** parent −= child for the given features: turns a parent's histogram into its other child's. */
export function subtractHistogram(
  parent: Float64Array,
  child: Float64Array,
  data: BinnedData,
  feats: Int32Array,
): void {
  for (let k = 0; k < feats.length; k++) {
    const f = feats[k]!;
    const base = f * FEATURE_SLOTS;
    const end = base + data.nBins[f]! * HIST_STRIDE;
    for (let o = base; o < end; o++) parent[o] = parent[o]! - child[o]!;
  }
}

/** How a grower scores and constrains splits, made once per grower. */
export interface SplitSearch {
  readonly data: BinnedData;
  readonly score: ScoreFn;
  readonly cons: SplitConstraints;
}

/** A node's totals: sum A, sum B and row count. */
export interface NodeTotals {
  A: number;
  B: number;
  count: number;
}

/** What one feature scan compares against, made once per findBestSplit call. */
interface ScanContext {
  totA: number;
  totB: number;
  totC: number;
  /** score(totA, totB): the parent's side of every gain. */
  parent: number;
  score: ScoreFn;
  cons: SplitConstraints;
}

/**
 * Best split over `feats` of a node with the given totals; writes into `best` when it beats
 * best.gain. Returns true when `best` was updated.
 */
export function findBestSplit(
  hist: Float64Array,
  search: SplitSearch,
  feats: Int32Array,
  node: NodeTotals,
  best: Split,
): boolean {
  const { data, score, cons } = search;
  const parent = score(node.A, node.B);
  const ctx: ScanContext = { totA: node.A, totB: node.B, totC: node.count, parent, score, cons };
  let improved = false;
  for (let k = 0; k < feats.length; k++) {
    const f = feats[k]!;
    const base = f * FEATURE_SLOTS;
    const mC = hist[base + MISSING_BIN * HIST_STRIDE + 2]!;
    const passes = mC > 0 ? 2 : 1;
    for (let pass = 0; pass < passes; pass++) {
      if (scanFeature(hist, base, data.nBins[f]!, pass === 1, ctx, best)) {
        best.feature = f;
        improved = true;
      }
    }
  }
  return improved;
}

/** One left-to-right scan of a feature's value bins with missing on a fixed side. */
function scanFeature(
  hist: Float64Array,
  base: number,
  nb: number,
  missingLeft: boolean,
  ctx: ScanContext,
  best: Split,
): boolean {
  const { totA, totB, totC, parent, score, cons } = ctx;
  let lA = missingLeft ? hist[base]! : 0;
  let lB = missingLeft ? hist[base + 1]! : 0;
  let lC = missingLeft ? hist[base + 2]! : 0;
  const mC = hist[base + 2]!;
  let improved = false;
  for (let t = 1; t < nb; t++) {
    const o = base + t * HIST_STRIDE;
    const c = hist[o + 2]!;
    if (c === 0) continue; // same partition as the previous threshold
    lA += hist[o]!;
    lB += hist[o + 1]!;
    lC += c;
    const rC = totC - lC;
    if (lC < cons.minSamplesLeaf) continue;
    if (rC < cons.minSamplesLeaf) break;
    const rB = totB - lB;
    if (lB < cons.minWeightLeaf || rB < cons.minWeightLeaf) continue;
    const gain = score(lA, lB) + score(totA - lA, rB) - parent;
    if (gain > best.gain && gain > cons.minGain) {
      best.bin = t;
      // no missing rows here: send future missing values to the larger side
      best.missingLeft = mC > 0 ? missingLeft : lC >= rC;
      best.gain = gain;
      best.leftA = lA;
      best.leftB = lB;
      best.leftCount = lC;
      improved = true;
    }
  }
  return improved;
}

/** Stable in-place partition of rows[start, end) by a split; returns the first right index. */
export function partitionRows(
  data: BinnedData,
  rows: Uint32Array,
  start: number,
  end: number,
  split: Split,
  tmp: Uint32Array,
): number {
  const { feature, bin, missingLeft } = split;
  const col = feature * data.nRows;
  const { bins } = data;
  let l = start;
  let r = 0;
  for (let i = start; i < end; i++) {
    const row = rows[i]!;
    const v = bins[col + row]!;
    const left = v === MISSING_BIN ? missingLeft : v <= bin;
    if (left) rows[l++] = row;
    else tmp[r++] = row;
  }
  rows.set(tmp.subarray(0, r), l);
  return l;
}
