/**
 * The main-region refiner: main content is mostly one subtree. Each leaf segment votes with
 * its words times its margin over the threshold, gain = words · (P(main) − threshold); the
 * region is the structural node whose subtree has the largest total gain (a maximum-weight
 * subtree, one reverse pass). Kept leaves outside the region are dropped unless the classifier
 * is sure of them (P(main) ≥ OUTSIDE_KEEP). Leaves inside keep their own decision.
 *
 * Why (pith, wcxb-dev): on listing, collection and product pages the classifier keeps scattered
 * menu entries, filter facets and footer links whose leaf statistics resemble product-card
 * text; the main grid or description is one large positive subtree, the scattered keeps sit
 * outside it. MODELING-NOTES.md found "keep the densest run" helped listings and collections
 * but cost articles, so whether a page type uses it is a model setting chosen by
 * cross-validation, like Louvan's refiners (src/refine/index.ts).
 */
import type { TraceEntry } from "../types.ts";
import type { Ownership } from "../pipeline/own-text.ts";

/** Kept leaves outside the region survive at this P(main) or above. */
export const OUTSIDE_KEEP = 0.9;

/** Row whose subtree has the largest words-weighted margin over the threshold (-1: none positive). */
export function bestRegion(own: Ownership, scores: Float32Array, threshold: number): number {
  const n = own.ownWords.length;
  const gain = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const w = own.ownWords[r] as number;
    if (w > 0) gain[r] = w * ((scores[r] as number) - threshold);
  }
  for (let r = n - 1; r >= 0; r--) {
    const p = own.parentRow[r] as number;
    if (p >= 0) gain[p] = (gain[p] as number) + (gain[r] as number);
  }
  let best = -1;
  let bestGain = 0;
  for (let r = 0; r < n; r++) {
    if ((gain[r] as number) > bestGain) {
      best = r;
      bestGain = gain[r] as number;
    }
  }
  return best;
}

/** Rows inside row `root`'s subtree (rows are in document order, subtrees contiguous). */
export function insideRows(own: Ownership, root: number): Uint8Array {
  const n = own.ownWords.length;
  const inside = new Uint8Array(n);
  inside[root] = 1;
  for (let r = root + 1; r < n; r++) {
    const p = own.parentRow[r] as number;
    if (p < 0 || inside[p] !== 1) break;
    inside[r] = 1;
  }
  return inside;
}

export interface RegionResult {
  keep: Uint8Array;
  region: number;
  dropped: number[];
  trace: TraceEntry[];
}

/**
 * Applies the refiner to per-row keep decisions; `describe` renders a
 * dropped row for the trace, `pathOf` names the region.
 */
export function keepMainRegion(
  own: Ownership,
  scores: Float32Array,
  threshold: number,
  keep: Uint8Array,
  describe: (row: number) => Pick<TraceEntry, "node" | "path" | "text">,
  pathOf: (row: number) => string,
): RegionResult {
  const region = bestRegion(own, scores, threshold);
  if (region < 0) return { keep, region, dropped: [], trace: [] };
  const inside = insideRows(own, region);
  const out = Uint8Array.from(keep);
  const dropped: number[] = [];
  for (let r = 0; r < keep.length; r++) {
    if (keep[r] !== 1 || inside[r] === 1 || (scores[r] as number) >= OUTSIDE_KEEP) continue;
    out[r] = 0;
    dropped.push(r);
  }
  const where = dropped.length ? pathOf(region) : "";
  const trace = dropped.map((r): TraceEntry => ({
    step: "main-region",
    action: "drop",
    reason: `outside the main region ${where} and P(main)=${(scores[r] as number).toFixed(3)} < ${OUTSIDE_KEEP}`,
    score: scores[r] as number,
    ...describe(r),
  }));
  return { keep: out, region, dropped, trace };
}
