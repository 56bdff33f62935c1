/**
 * CNR features (Insa et al., "Using the DOM tree for content extraction", Algorithm 1): the
 * chars-nodes ratio textLength / weight, where text nodes weigh 1 and hold their non-space
 * characters, non-content nodes (script, style, nav, a, img, video, svg, …: CNR_NON_CONTENT_TAGS)
 * weigh 1 and hold nothing, and every other node weighs 1 + its children's weights. Computed
 * bottom-up without recursion in stats.ts; here: the node's CNR, its parent's, and its rank.
 */
import { lowerBound } from "../lower-bound.ts";
import { def, skipRow, ratio, type FeatureFamily } from "./registry.ts";

/**
 * Per value: its rank among `vals` scaled to 0..1, ties sharing the mean of their positions (all
 * values finite). The runs of equal values in a numeric sort of a copy get their rank, and each
 * value finds its run's first position by binary search: the run's positions do not depend on how
 * ties are ordered. A sort of the row indices with a comparator call per comparison took 0.113
 * ms a wcxb-dev page (624 rows), this 0.065 (medians of 11 alternating runs).
 */
export function ranks(vals: Float64Array): Float64Array {
  const m = vals.length;
  const sorted = vals.slice().sort();
  const runRank = new Float64Array(m); // at each run's first position
  for (let k = 0; k < m;) {
    let e = k;
    while (e + 1 < m && sorted[e + 1] === sorted[k]) e++;
    runRank[k] = m > 1 ? (k + e) / 2 / (m - 1) : 1;
    k = e + 1;
  }
  const rank = new Float64Array(m);
  for (let r = 0; r < m; r++) {
    rank[r] = runRank[lowerBound(sorted, vals[r] as number)] as number;
  }
  return rank;
}

export const cnrFamily: FeatureFamily = {
  family: "cnr",
  defs: [
    def("cnr", "chars-nodes ratio of the node (Insa Algorithm 1)", "insa"),
    def("cnr_parent", "chars-nodes ratio of the DOM parent", "insa"),
    def(
      "cnr_rank",
      "rank of the node's CNR among the page's structural nodes, 1 = highest, 0 = lowest",
      "insa",
    ),
    def("cnr_rel_max", "CNR / the page's highest structural-node CNR", "insa"),
    def("cnr_text_chars", "characters counted by CNR (text outside links and non-content nodes)", "insa"),
  ],
  fill(f, out) {
    const { cnr, cnrChars } = f.stats;
    const m = f.rows.length;
    const vals = new Float64Array(m);
    let max = 0;
    for (let r = 0; r < m; r++) {
      vals[r] = cnr[f.rows[r] as number] as number;
      max = Math.max(max, vals[r] as number);
    }
    const rank = ranks(vals);
    const [cC, cP, cR, cM, cT] = ["cnr", "cnr_parent", "cnr_rank", "cnr_rel_max", "cnr_text_chars"].map((n) =>
      out.col(n),
    ) as [number, number, number, number, number];
    for (let r = 0; r < m; r++) {
      if (skipRow(f, r)) continue;
      const i = f.rows[r] as number;
      const p = f.tree.parent[i] as number;
      out.set(r, cC, vals[r] as number);
      out.set(r, cP, p >= 0 ? (cnr[p] as number) : NaN);
      out.set(r, cR, rank[r] as number);
      out.set(r, cM, ratio(vals[r] as number, max));
      out.set(r, cT, cnrChars[i] as number);
    }
  },
};
