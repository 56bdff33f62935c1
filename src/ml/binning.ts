/**
 * Feature binning for the histogram tree learners (gbdt.ts, hist-forest.ts), after
 * LightGBM (Ke et al., NeurIPS 2017) and scikit-learn's HistGradientBoosting: each column
 * is cut into at most MAX_VALUE_BINS quantile bins learned on a row sample; bin 0 is
 * reserved for missing values (NaN), so trees can learn where missing values go.
 *
 * Bin b ≥ 1 holds the values v with edges[b-2] < v ≤ edges[b-1]; the last edge is +Inf.
 * Edges are float32 data values, so "bin ≤ t" is exactly "v ≤ edges[t-1]" on raw float32
 * input: trained trees store raw thresholds and predict without a binner.
 */
import type { Matrix } from "./matrix.ts";
import { createRng, sampleWithoutReplacement } from "./prng.ts";

/** Bin slots per feature, including the missing bin: bins fit in a Uint8Array. */
export const MAX_BINS = 256;
/** Default number of bins per feature (missing bin included), as LightGBM's max_bin. */
export const DEFAULT_MAX_BINS = 255;
/** Rows sampled to learn bin edges (the rest are only mapped). */
export const DEFAULT_BIN_SAMPLE_ROWS = 200_000;
/** The bin id of a missing (NaN) value. */
export const MISSING_BIN = 0;

/**
 * Binned training data, column-major (bins[f * nRows + r]) for histograms of large
 * nodes, and optionally row-major too (rowBins[r * nCols + f]) for small nodes, whose
 * scattered rows would otherwise cost a cache miss per feature.
 */
export interface BinnedData {
  readonly nRows: number;
  readonly nCols: number;
  readonly bins: Uint8Array;
  readonly rowBins: Uint8Array | null;
  /** Bins used per feature, the missing bin included (so value bins are 1 .. nBins-1). */
  readonly nBins: Uint16Array;
}

/** Learns per-feature bin edges from (a sample of) the given rows. */
export function fitBinEdges(
  X: Matrix,
  opts: { maxBins?: number; sampleRows?: number; seed?: number; rows?: Uint32Array } = {},
): Float32Array[] {
  const maxValueBins = Math.min(MAX_BINS, opts.maxBins ?? DEFAULT_MAX_BINS) - 1;
  if (maxValueBins < 1) throw new RangeError("maxBins must be at least 2");
  const pool = opts.rows ?? Uint32Array.from({ length: X.nRows }, (_, i) => i);
  const limit = opts.sampleRows ?? DEFAULT_BIN_SAMPLE_ROWS;
  const picked =
    pool.length > limit ? sampleWithoutReplacement(pool.length, limit, createRng(opts.seed)) : null;
  const sample = picked ? picked.map((i) => pool[i]!) : pool;
  const values = new Float32Array(sample.length);
  const edges: Float32Array[] = [];
  for (let f = 0; f < X.nCols; f++) {
    let m = 0;
    for (let i = 0; i < sample.length; i++) {
      const v = X.data[sample[i]! * X.nCols + f]!;
      if (v === v) values[m++] = v;
    }
    edges.push(edgesFromSorted(values.subarray(0, m).sort(), maxValueBins));
  }
  return edges;
}

/** Quantile edges over sorted non-missing values; the last edge is +Inf. */
function edgesFromSorted(sorted: Float32Array, maxValueBins: number): Float32Array {
  const distinct: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) distinct.push(sorted[i]!);
    if (distinct.length > maxValueBins) break;
  }
  const out: number[] = [];
  if (distinct.length <= maxValueBins) {
    for (let i = 0; i < distinct.length - 1; i++) out.push(distinct[i]!);
  } else {
    const n = sorted.length;
    for (let q = 1; q < maxValueBins; q++) {
      const v = sorted[Math.min(n - 1, Math.floor((q * n) / maxValueBins) - 1)]!;
      if (out.length === 0 || v > out[out.length - 1]!) out.push(v);
    }
  }
  out.push(Infinity);
  return Float32Array.from(out);
}

/** Bin id of one raw value: 0 for NaN, else 1 + the first edge index with v ≤ edge. */
export function binOf(v: number, e: Float32Array): number {
  if (v !== v) return MISSING_BIN;
  let lo = 0;
  let hi = e.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v <= e[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo + 1;
}

/** Maps the given rows of X (all rows by default) to bins; `withRowMajor` adds the row-major copy. */
export function binMatrix(
  X: Matrix,
  edges: readonly Float32Array[],
  rows?: Uint32Array,
  withRowMajor = false,
): BinnedData {
  const nRows = rows ? rows.length : X.nRows;
  const nCols = X.nCols;
  const bins = new Uint8Array(nRows * nCols);
  const nBins = new Uint16Array(nCols);
  for (let f = 0; f < nCols; f++) {
    const e = edges[f]!;
    nBins[f] = e.length + 1;
    const out = f * nRows;
    for (let i = 0; i < nRows; i++) {
      const r = rows ? rows[i]! : i;
      bins[out + i] = binOf(X.data[r * nCols + f]!, e);
    }
  }
  return { nRows, nCols, bins, nBins, rowBins: withRowMajor ? transposeBins(bins, nRows, nCols) : null };
}

function transposeBins(bins: Uint8Array, nRows: number, nCols: number): Uint8Array {
  const out = new Uint8Array(nRows * nCols);
  for (let f = 0; f < nCols; f++) {
    const col = f * nRows;
    for (let r = 0; r < nRows; r++) out[r * nCols + f] = bins[col + r]!;
  }
  return out;
}
