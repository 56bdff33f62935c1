/**
 * The annotation convention a row's label follows. The labeled sets disagree on what main
 * content is (../shared/data/*\/README.md): WCXB keeps what a reader of the page would call its
 * content on every page type, while dragnet, L3S-GN1, Readability's fixtures and utomo-big9 keep
 * an article body and no comments or teasers, CleanEval keeps running text. MODELING-NOTES.md:
 * pooling them made a first prototype timid on mixed pages; "account for the source of a label
 * (a dataset or convention feature, …)".
 *
 * Choice (pith): one column, 1 on rows whose label follows WCXB's convention, 0 on the other
 * sets' rows. A page being extracted has no label, so it always gets CONVENTION_DEFAULT: the
 * model answers "what would a WCXB annotator keep here", having learned page structure from
 * every set. Training sets the column from the page's dataset (src/train/convention.ts).
 */
import { def, type FeatureDef, type FeatureFamily } from "./registry.ts";

export const CONVENTION_FEATURE = "label_convention_wcxb";

/** The convention asked for at extraction time: WCXB's. */
export const CONVENTION_DEFAULT = 1;

const DEFS: FeatureDef[] = [def(CONVENTION_FEATURE, "1 when the row's label follows WCXB's annotation convention (always 1 at extraction)", "modeling-notes")];

export const conventionFamily: FeatureFamily = {
  family: "convention",
  defs: DEFS,
  fill(facts, out) {
    const c = out.col(CONVENTION_FEATURE);
    for (let r = 0; r < facts.rows.length; r++) out.set(r, c, CONVENTION_DEFAULT);
  },
};
