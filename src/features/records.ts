/**
 * Record features: whether a node sits in a run of same-template sibling records (product
 * cards, results, posts; src/dom/records.ts) and how large that run is. Listing, collection and
 * product pages carry their content in such runs, and so do menus and footers: the run's size,
 * its share of the page and the record's own text and links let the classifier tell a result
 * grid from a link list. pith's features (Louvan §2.3's Table Pattern looks for the same
 * regularity after classification; these give it to the classifier).
 */
import { findRecords, MAX_RECORD_DEPTH, recordOf } from "../dom/records.ts";
import { def, ratio, type FeatureFamily } from "./registry.ts";

const P = "pith";

export const recordsFamily: FeatureFamily = {
  family: "records",
  defs: [
    def("rec_in_record", `the node or an ancestor (≤ ${MAX_RECORD_DEPTH} levels up) is one of ≥ 3 same-template siblings`, P),
    def("rec_up", "levels from the node up to its record (0 = the node itself; NaN outside records)", P),
    def("rec_run", "number of same-template records in the node's run (NaN outside records)", P),
    def("rec_run_text_share", "share of the page's text in the run's parent (NaN outside records)", P),
    def("rec_run_link_density", "link density of the run's parent (NaN outside records)", P),
    def("rec_record_words", "words of the node's record (NaN outside records)", P),
    def("rec_record_link_density", "link density of the node's record (NaN outside records)", P),
  ],
  fill(f, out) {
    const records = findRecords(f.page, f.tree);
    const [cIn, cUp, cRun, cShare, cRunLd, cWords, cLd] = this.defs.map((d) => out.col(d.name)) as [number, number, number, number, number, number, number];
    const chars = f.stats.structure.chars;
    for (let row = 0; row < f.rows.length; row++) {
      const found = recordOf(f.tree, records, f.rows[row] as number);
      out.set(row, cIn, found ? 1 : 0);
      if (!found) {
        for (const c of [cUp, cRun, cShare, cRunLd, cWords, cLd]) out.set(row, c, NaN);
        continue;
      }
      const rec = found.record;
      const parent = f.tree.parent[rec] as number;
      out.set(row, cUp, found.up);
      out.set(row, cRun, records.run[rec] as number);
      out.set(row, cShare, ratio(chars[parent] as number, f.stats.pageChars));
      out.set(row, cRunLd, ratio(f.stats.anchorChars[parent] as number, chars[parent] as number));
      out.set(row, cWords, f.stats.words[rec] as number);
      out.set(row, cLd, ratio(f.stats.anchorChars[rec] as number, chars[rec] as number));
    }
  },
};
