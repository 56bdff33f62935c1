/**
 * The fill refiner: the main region is kept whole. After the records vote (records.ts), find
 * the deepest structural node that holds at least FILL_SHARE of the page's kept words (the
 * region the kept content lives in), and keep every leaf segment inside it whose P(main) is at
 * least FILL_FLOOR, far below the tuned thresholds (0.275-0.4): only leaves the classifier is
 * sure are noise stay out.
 *
 * Why: held out, pith's misses on wcxb-dev's non-article pages sit mostly inside the region it
 * already keeps: link lists of a course page, record fields the records vote leaves out, the
 * second half of a long reference page, short paragraphs between kept ones. The annotators keep
 * the main container's content whole; the classifier, deciding each leaf, drops its link-heavy
 * or short leaves.
 *
 * It gains on listings, collections and documentation and loses on forums and the news sets,
 * and most listing pages are routed to the general model, so as a per-routed-type CV candidate
 * it was level (measured: docs/refiners.md; FILL_SHARE 0.6-0.95 and FILL_FLOOR 0.05-0.2 score
 * alike). It is therefore not a CV candidate; `--param refiner=fill` applies it to every page,
 * for users who know their pages are listings or collections.
 *
 * Choices: a leaf that reached the threshold and was dropped by a rule (consent box, duplicate
 * block) is not brought back; the region is a structural node (own-text.ts rows), so on a page
 * whose kept words are spread over two top-level subtrees no region qualifies and nothing is
 * added. Every added leaf is traced (step "fill").
 */
import type { TraceEntry } from "../types.ts";
import type { Ownership } from "../pipeline/own-text.ts";
import { insideRows } from "./region.ts";

/** The region holds at least this share of the page's kept words. */
export const FILL_SHARE = 0.8;
/** Leaves inside the region are kept from this P(main) up. */
export const FILL_FLOOR = 0.1;

/** The deepest row whose subtree holds ≥ FILL_SHARE of the kept words (-1: none, or nothing kept). */
export function keptRegion(own: Ownership, keep: Uint8Array): number {
  const n = own.ownWords.length;
  const kept = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) {
    if (keep[r] !== 1) continue;
    kept[r] = own.ownWords[r] as number;
    total += kept[r] as number;
  }
  if (total === 0) return -1;
  for (let r = n - 1; r >= 0; r--) {
    const p = own.parentRow[r] as number;
    if (p >= 0) kept[p] = (kept[p] as number) + (kept[r] as number);
  }
  // rows holding the share form one chain from a top-level row down;
  // the last in document order is the deepest
  let region = -1;
  for (let r = 0; r < n; r++) if ((kept[r] as number) >= FILL_SHARE * total) region = r;
  return region;
}

/** Keeps the region's leaves with P(main) ≥ FILL_FLOOR (a new array), with a trace entry for each. */
export function fillMainRegion(
  own: Ownership,
  scores: Float32Array,
  threshold: number,
  keep: Uint8Array,
  describe: (row: number) => Pick<TraceEntry, "node" | "path" | "text">,
  pathOf: (row: number) => string,
): { keep: Uint8Array; trace: TraceEntry[] } {
  const region = keptRegion(own, keep);
  if (region < 0) return { keep, trace: [] };
  const inside = insideRows(own, region);
  const out = keep.slice();
  const added: number[] = [];
  for (let r = 0; r < keep.length; r++) {
    const score = scores[r] as number;
    if (
      keep[r] === 1 ||
      inside[r] !== 1 ||
      (own.ownWords[r] as number) === 0 ||
      score < FILL_FLOOR ||
      score >= threshold
    )
      continue;
    out[r] = 1;
    added.push(r);
  }
  const where = added.length ? pathOf(region) : "";
  const trace = added.map((r): TraceEntry => ({
    step: "fill",
    action: "keep",
    reason:
      `inside the main region ${where} (≥ ${FILL_SHARE * 100}% of the kept words) ` +
      `and P(main)=${(scores[r] as number).toFixed(3)} ≥ ${FILL_FLOOR}`,
    score: scores[r] as number,
    ...describe(r),
  }));
  return { keep: out, trace };
}
