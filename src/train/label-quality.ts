/**
 * Pages whose labels say nothing: the gold is empty, or most of its words are not on the page
 * (a Discourse thread whose posts a script loads, an annotator who wrote the content of another
 * render). Their leaves all come out labeled noise, whatever they hold, so they teach the
 * content classifiers and the context stage that product descriptions and posts are noise. They
 * are left out of the training rows of the content classifiers and the context stage, and of its
 * lexicons (a label-noise filter in the manner of Brodley & Friedl 1999, by a rule rather than a
 * committee); they stay in the evaluation and the threshold tuning, which score what extraction
 * does on them. The segment classifier and the page-type router still see them (their labels are
 * not word shares of the gold text).
 */
import type { PageRecord } from "./page-record.ts";

/** A page trains only when its leaves hold at least this share of its gold words. */
export const MIN_ALIGNED_GOLD_SHARE = 0.5;

const GOLD_IN_LEAVES = new WeakMap<PageRecord, number>();

/**
 * Gold words the alignment found in the page's leaf segments (each leaf's words × its gold
 * share); memoised per record, since threshold tuning asks for it at every grid point.
 */
export function goldWordsInLeaves(rec: PageRecord): number {
  let found = GOLD_IN_LEAVES.get(rec);
  if (found === undefined) {
    found = 0;
    for (let r = 0; r < rec.nodes.length; r++)
      found += (rec.ownWords[r] as number) * (rec.share[r] as number);
    GOLD_IN_LEAVES.set(rec, found);
  }
  return found;
}

/** Share of the page's gold words found in its leaf segments (the alignment's word shares). */
export function alignedGoldShare(rec: PageRecord): number {
  return rec.goldWords > 0 ? Math.min(1, goldWordsInLeaves(rec) / rec.goldWords) : 0;
}

const TRAINABLE = new WeakMap<PageRecord, boolean>();

/** Whether the page's labels can train a classifier (see the header); memoised per record. */
export function trainable(rec: PageRecord): boolean {
  let ok = TRAINABLE.get(rec);
  if (ok === undefined)
    TRAINABLE.set(rec, (ok = rec.goldWords > 0 && alignedGoldShare(rec) >= MIN_ALIGNED_GOLD_SHARE));
  return ok;
}
