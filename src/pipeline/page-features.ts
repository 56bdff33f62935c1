/**
 * Page-level aggregate features for the page-type router: the word-weighted mean of every
 * node feature over the page's leaf segments, plus page size. Routing needs no labels beyond
 * the page type, so any dataset with page types (wcxb-dev) or genres can train it.
 */
import type { Ownership } from "./own-text.ts";

/** Extra page-level columns appended after the per-feature means. */
export const PAGE_EXTRA = ["log_total_words", "log_rows", "log_leaf_rows", "max_leaf_word_share"] as const;

export function pageFeatureCount(nCols: number): number {
  return nCols + PAGE_EXTRA.length;
}

/** One row of page features from a feature table (row-major values, nCols columns). */
export function pageFeatures(values: Float32Array, nCols: number, own: Ownership): Float32Array {
  const n = own.ownWords.length;
  const out = new Float32Array(pageFeatureCount(nCols));
  const wsum = new Float64Array(nCols);
  const sum = new Float64Array(nCols);
  let leaves = 0;
  let maxWords = 0;
  for (let r = 0; r < n; r++) {
    const w = own.ownWords[r] as number;
    if (w <= 0) continue;
    leaves++;
    if (w > maxWords) maxWords = w;
    const off = r * nCols;
    for (let c = 0; c < nCols; c++) {
      const v = values[off + c] as number;
      if (Number.isNaN(v)) continue;
      sum[c] = (sum[c] as number) + w * v;
      wsum[c] = (wsum[c] as number) + w;
    }
  }
  for (let c = 0; c < nCols; c++) out[c] = (wsum[c] as number) > 0 ? (sum[c] as number) / (wsum[c] as number) : NaN;
  out[nCols] = Math.log1p(own.totalWords);
  out[nCols + 1] = Math.log1p(n);
  out[nCols + 2] = Math.log1p(leaves);
  out[nCols + 3] = own.totalWords > 0 ? maxWords / own.totalWords : 0;
  return out;
}
