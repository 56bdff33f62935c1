/**
 * Site-level features, when other pages of the same site are given (SiteContext), else NaN
 * (missing, not zero):
 * - occurrence count of the node under the equal top-down mapping (Alarte et al. 2018, §2.2,
 *   Algorithm 1) — `occurrenceCounts` from src/site/mapping.ts;
 * - block IBDF (Debnath et al. 2005, §3.1: cosine of block vectors > 0.9 counts as the same
 *   block) of the block owning the node — `nodeIbdf` from src/site/ibdf.ts;
 * - share of the node's words whose text node is mapped in other pages (template text).
 * Cost grows with the number of other pages, so at most SITE_MAX_OTHERS are used (Alarte's
 * n-SET is small too: src/site/nset.ts uses 4).
 */
import { nodeIbdf } from "../site/ibdf.ts";
import { occurrenceCounts } from "../site/mapping.ts";
import type { SnapshotNode } from "../types.ts";
import { def, skipRow, ratio, type FeatureFamily, type PageFacts } from "./registry.ts";

/** Other pages of the site compared with each page (the first ones, in the context's order). */
export const SITE_MAX_OTHERS = 8;

const NAMES = [
  "site_occurrences",
  "site_occurrence_share",
  "site_ibdf",
  "site_template_word_share",
  "site_pages",
] as const;

function templateWordShare(f: PageFacts, counts: Int32Array): Float64Array {
  const n = f.tree.n;
  const templ = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if ((f.page.nodes[i] as SnapshotNode).type === 3 && (counts[i] as number) > 0)
      templ[i] = f.stats.words[i] as number;
    const p = f.tree.parent[i] as number;
    if (p >= 0) templ[p] = (templ[p] as number) + (templ[i] as number);
  }
  return templ;
}

export const siteFamily: FeatureFamily = {
  family: "site",
  defs: [
    def(
      "site_occurrences",
      "other pages of the site in which the node is mapped by the equal top-down mapping (0..n)",
      "alarte",
    ),
    def("site_occurrence_share", "site_occurrences / other pages compared", "alarte"),
    def(
      "site_ibdf",
      "IBDF 1/(1+d) of the node's block, d = other pages holding a block with cosine > 0.9",
      "debnath",
    ),
    def(
      "site_template_word_share",
      "share of the node's words in text nodes mapped in other pages (template text)",
      "alarte",
    ),
    def("site_pages", "number of other pages of the site compared", "alarte"),
  ],
  fill(f, out) {
    const cols = NAMES.map((n) => out.col(n));
    const others = (f.site?.pages ?? []).filter((p) => p !== f.page).slice(0, SITE_MAX_OTHERS);
    if (!others.length) {
      for (let row = 0; row < f.rows.length; row++)
        if (!skipRow(f, row)) for (const c of cols) out.set(row, c, NaN);
      return;
    }
    const counts = occurrenceCounts(f.page, f.tree, others);
    const ibdf = nodeIbdf(f.page, f.tree, others);
    const templ = templateWordShare(f, counts);
    for (let row = 0; row < f.rows.length; row++) {
      if (skipRow(f, row)) continue;
      const i = f.rows[row] as number;
      const v = [
        counts[i] as number,
        (counts[i] as number) / others.length,
        ibdf[i] as number,
        ratio(templ[i] as number, f.stats.words[i] as number),
        others.length,
      ];
      for (let k = 0; k < cols.length; k++) out.set(row, cols[k] as number, v[k] as number);
    }
  },
};
