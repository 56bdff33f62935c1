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

/**
 * One row of page features from a feature table (row-major values, nCols columns). A column's
 * weight is the leaves' words less those of the leaves where it is NaN: words are integers, so
 * the difference is exact and equals a per-cell sum, with one add a cell less (about 15 % faster
 * on a wcxb-dev page; test/page-features.test.ts checks the result bit for bit against the
 * per-cell sum).
 */
export function pageFeatures(
  values: Float32Array,
  nCols: number,
  own: Pick<Ownership, "ownWords" | "totalWords">,
): Float32Array {
  const n = own.ownWords.length;
  const out = new Float32Array(pageFeatureCount(nCols));
  const sum = new Float64Array(nCols);
  const nanWords = new Float64Array(nCols);
  let leaves = 0;
  let leafWords = 0;
  let maxWords = 0;
  for (let r = 0; r < n; r++) {
    const w = own.ownWords[r] as number;
    if (w <= 0) continue;
    leaves++;
    leafWords += w;
    if (w > maxWords) maxWords = w;
    const off = r * nCols;
    for (let c = 0; c < nCols; c++) {
      const v = values[off + c] as number;
      if (v !== v)
        nanWords[c] = (nanWords[c] as number) + w; // NaN
      else sum[c] = (sum[c] as number) + w * v;
    }
  }
  for (let c = 0; c < nCols; c++) {
    const wsum = leafWords - (nanWords[c] as number);
    out[c] = wsum > 0 ? (sum[c] as number) / wsum : NaN;
  }
  out[nCols] = Math.log1p(own.totalWords);
  out[nCols + 1] = Math.log1p(n);
  out[nCols + 2] = Math.log1p(leaves);
  out[nCols + 3] = own.totalWords > 0 ? maxWords / own.totalWords : 0;
  return out;
}
