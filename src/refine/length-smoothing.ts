/**
 * String-Length Smoothing (SLS) — Louvan, "Extracting the Main Content from HTML Documents",
 * §2.3.2 (after Weninger & Hsu's text-to-tag ratio smoothing, the paper's ref. [7]).
 *
 * The string lengths go into a 1-D array in document order; every structure-changing tag
 * (DIV, TR, TD, TABLE, UL, LI, … = STRUCTURAL_TAGS) adds an empty (0) element. The array is
 * smoothed with a window of radius r (Equation 1: e_k = Σ_{i=k−r}^{k+r} a[i] / (2r+1), cells
 * outside the array count 0) and a string is kept when its smoothed value is ≥ the standard
 * deviation of the string lengths. The paper works per #text node; here the unit is a text block
 * (a line, see blocks.ts), so inline links and bold words do not split a sentence into strings.
 * The paper does not say which array the standard deviation is taken on ("the standard deviation
 * of the string length"; Figure 3 draws it over the smoothed curve): `stdOf` chooses. Defaults
 * measured on the readability set (130 pages, not a reporting set; docs/algorithms.md):
 * smoothing lifts word F1 far above the raw lengths, and r from 1 to 5 scores within 0.02.
 * Linear: a sliding-window sum.
 */
import type { TraceEntry } from "../types.ts";
import { blockEntries, nodesForBlocks, pathNamer, type BlockView, type RefineResult } from "./blocks.ts";

export const SLS_STEP = "sls";

/** Default smoothing radius r (the paper leaves r open; measured, see the header). */
export const SLS_RADIUS = 3;

export interface SlsOptions {
  /** Window radius r ≥ 0 (default SLS_RADIUS). */
  radius: number;
  /** Array whose standard deviation is the threshold: "raw" lengths or "smoothed" values (default). */
  stdOf: "raw" | "smoothed";
}

export const SLS_DEFAULTS: SlsOptions = { radius: SLS_RADIUS, stdOf: "smoothed" };

/** The string-length array: one cell per block, preceded by `gap` empty cells. */
export interface LengthArray {
  values: Float64Array;
  /** Cell of each block. */
  cellOf: Int32Array;
}

export function lengthArray(view: BlockView): LengthArray {
  let size = 0;
  for (const b of view.blocks) size += b.gap + 1;
  const values = new Float64Array(size);
  const cellOf = new Int32Array(view.blocks.length);
  let at = 0;
  view.blocks.forEach((b, k) => {
    at += b.gap;
    values[at] = b.length;
    cellOf[k] = at++;
  });
  return { values, cellOf };
}

/** Equation 1: moving average of radius r (zero padding), by a sliding sum. */
export function smooth(values: Float64Array, radius: number): Float64Array {
  const r = Math.max(0, Math.floor(radius));
  const n = values.length;
  const out = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < Math.min(r, n); i++) sum += values[i] as number;
  for (let k = 0; k < n; k++) {
    if (k + r < n) sum += values[k + r] as number;
    if (k - r - 1 >= 0) sum -= values[k - r - 1] as number;
    out[k] = sum / (2 * r + 1);
  }
  return out;
}

/** Population standard deviation. */
export function standardDeviation(values: Float64Array): number {
  if (!values.length) return 0;
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  let sq = 0;
  for (const v of values) sq += (v - mean) * (v - mean);
  return Math.sqrt(sq / values.length);
}

/** Keep the blocks whose smoothed length reaches the standard-deviation threshold. */
export function lengthSmoothing(view: BlockView, options: Partial<SlsOptions> = {}): RefineResult {
  const opts: SlsOptions = { ...SLS_DEFAULTS, ...options };
  if (!view.blocks.length) return { kept: [], nodes: [], trace: [] };
  const arr = lengthArray(view);
  const smoothed = smooth(arr.values, opts.radius);
  const threshold = standardDeviation(opts.stdOf === "raw" ? arr.values : smoothed);
  const path = pathNamer(view.page, view.tree);
  const kept: number[] = [];
  const trace: TraceEntry[] = [];
  const blockEntry = blockEntries(SLS_STEP, view, path);
  const how = ` (σ of ${opts.stdOf} lengths, r=${opts.radius})`;
  view.blocks.forEach((_, k) => {
    const e = smoothed[arr.cellOf[k] as number] as number;
    const r = e.toFixed(1);
    if (e >= threshold && e > 0) {
      kept.push(k);
      trace.push(blockEntry(k, "keep", `smoothed length ${r} ≥ threshold ${threshold.toFixed(1)}${how}`, e));
    } else
      trace.push(blockEntry(k, "drop", `smoothed length ${r} < threshold ${threshold.toFixed(1)}${how}`, e));
  });
  return { kept, nodes: nodesForBlocks(view, kept), trace };
}
