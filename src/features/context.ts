/**
 * Context features: the node's surroundings. MODELING-NOTES.md found that ancestor context
 * dominated a prototype's feature importance — CNR (Insa Algorithm 1), link density and share of
 * page text of the parent up to the 4th ancestor — so those come per ancestor level; then the
 * previous/next structural sibling's key features (Louvan: neighbouring segments), sibling
 * repetition (teaser cards), id/class keywords inherited from any ancestor (inside a comment
 * container, …) and the node's position in document order.
 */
import { lowerBound } from "../lower-bound.ts";
import type { SnapshotNode } from "../types.ts";
import { CLASS_KEYWORDS } from "./dom.ts";
import {
  def,
  inheritedAtRows,
  skipRow,
  ratio,
  type ColumnWriter,
  type FeatureDef,
  type FeatureFamily,
  type PageFacts,
} from "./registry.ts";

/** Leaf segments (with words) on each side that make up the neighbour window (MODELING-NOTES). */
export const NEIGHBOR_WINDOW = 3;
/** How many DOM ancestors get their own columns. */
export const ANCESTOR_LEVELS = 4;
/** Keyword families whose presence on any ancestor-or-self gets a column. */
export const INHERITED_KEYWORDS = [
  "comment",
  "nav",
  "menu",
  "header",
  "footer",
  "sidebar",
  "share",
  "related",
  "ad",
  "cookie",
  "post",
  "article",
  "content",
  "main",
  "meta",
  "form",
  "card",
] as const;

function contextDefs(): FeatureDef[] {
  const M = "modeling-notes";
  const d: FeatureDef[] = [
    def("ctx_pos_text", "share of the page's text that comes before the node (0..1)", "louvan"),
    def("ctx_pos_node", "node index / number of nodes (0..1)", "louvan"),
    def("ctx_text_share", "node's share of the page's text characters", M),
  ];
  for (let k = 1; k <= ANCESTOR_LEVELS; k++) {
    d.push(def(`ctx_anc${k}_cnr`, `CNR of the ${k}. DOM ancestor (NaN above the root)`, "insa"));
    d.push(def(`ctx_anc${k}_link_density`, `link density of the ${k}. DOM ancestor`, M));
    d.push(def(`ctx_anc${k}_text_share`, `share of the page's text in the ${k}. DOM ancestor`, M));
  }
  d.push(def("ctx_parent_words", "words of the DOM parent", "louvan"));
  for (const side of ["prev", "next"] as const) {
    d.push(def(`ctx_${side}_exists`, `a ${side} structural sibling exists`, "louvan"));
    d.push(def(`ctx_${side}_words`, `words of the ${side} structural sibling`, "louvan"));
    d.push(def(`ctx_${side}_link_density`, `link density of the ${side} structural sibling`, "louvan"));
    d.push(def(`ctx_${side}_cnr`, `CNR of the ${side} structural sibling`, "insa"));
  }
  d.push(def("ctx_siblings", "number of structural siblings (same structural parent)", "pith"));
  d.push(
    def(
      "ctx_same_tag_siblings",
      "share of structural siblings with the node's tag (repeated cards, list items)",
      "pith",
    ),
  );
  d.push(
    def(
      "ctx_win_words",
      `mean words of the ${NEIGHBOR_WINDOW} leaf segments before and after the node's own`,
      M,
    ),
  );
  d.push(
    def(
      "ctx_win_link_density",
      `link density of the text of the ${NEIGHBOR_WINDOW} leaf segments before and after`,
      M,
    ),
  );
  d.push(
    def(
      "ctx_win_sentence_leaves",
      `share of those neighbouring leaf segments that end sentences (have . ! ?)`,
      M,
    ),
  );
  for (const k of INHERITED_KEYWORDS)
    d.push(def(`ctx_in_${k}`, `the node or an ancestor has the "${k}" id/class keyword`, "pith"));
  return d;
}

function linkDensity(f: PageFacts, i: number): number {
  return ratio(f.stats.anchorChars[i] as number, f.stats.structure.chars[i] as number);
}

/** Columns from `base`: ctx_anc1_cnr, _link_density, _text_share, ctx_anc2_cnr, … (defs order). */
function fillAncestors(f: PageFacts, out: ColumnWriter, row: number, i: number, base: number): void {
  let a = f.tree.parent[i] as number;
  for (let k = 0; k < ANCESTOR_LEVELS; k++) {
    const c = base + 3 * k;
    out.set(row, c, a >= 0 ? (f.stats.cnr[a] as number) : NaN);
    out.set(row, c + 1, a >= 0 ? linkDensity(f, a) : NaN);
    out.set(row, c + 2, a >= 0 ? ratio(f.stats.structure.chars[a] as number, f.stats.pageChars) : NaN);
    if (a >= 0) a = f.tree.parent[a] as number;
  }
}

/** Columns from `c`: ctx_<side>_exists, _words, _link_density, _cnr (defs order). */
function fillSibling(f: PageFacts, out: ColumnWriter, row: number, c: number, sib: number): void {
  out.set(row, c, sib >= 0 ? 1 : 0);
  out.set(row, c + 1, sib >= 0 ? (f.stats.words[sib] as number) : NaN);
  out.set(row, c + 2, sib >= 0 ? linkDensity(f, sib) : NaN);
  out.set(row, c + 3, sib >= 0 ? (f.stats.cnr[sib] as number) : NaN);
}

interface Siblings {
  prev: Int32Array;
  next: Int32Array;
  count: Int32Array;
  sameTag: Int32Array;
}

/** Structural siblings: structural nodes sharing the same nearest structural ancestor. */
function siblings(f: PageFacts): Siblings {
  const m = f.rows.length;
  const sp = f.stats.structure.structuralParent;
  const last = new Int32Array(f.tree.n + 1).fill(-1); // by structural parent + 1
  const groupSize = new Int32Array(f.tree.n + 1);
  const prev = new Int32Array(m).fill(-1);
  const next = new Int32Array(m).fill(-1);
  const nextRow = new Int32Array(m).fill(-1); // the next row of the same structural parent
  const tagIds = new Map<string, number>();
  const tagOf = new Int32Array(m);
  for (let r = 0; r < m; r++) {
    const i = f.rows[r] as number;
    const g = sp[i] as number;
    const tag = (f.page.nodes[i] as SnapshotNode).tag;
    let t = tagIds.get(tag);
    if (t === undefined) tagIds.set(tag, (t = tagIds.size));
    tagOf[r] = t;
    const before = last[g + 1] as number;
    if (before >= 0) {
      prev[r] = f.rows[before] as number;
      next[before] = i;
      nextRow[before] = r;
    }
    last[g + 1] = r;
    groupSize[g + 1] = (groupSize[g + 1] as number) + 1;
  }
  const count = new Int32Array(m);
  for (let r = 0; r < m; r++) count[r] = (groupSize[(sp[f.rows[r] as number] as number) + 1] as number) - 1;
  return { prev, next, count, sameTag: sameTagSiblings(prev, nextRow, tagOf, tagIds.size) };
}

/**
 * Per row: the other rows of its structural parent with its tag. Each parent's rows are counted
 * by tag along their chain (nextRow, from the row without a previous one), then read and reset:
 * linear, where counts by a (parent, tag) number in a Map boxed a double per row. computeFeatures
 * took 0.014-0.036 ms a wcxb-dev page less (three runs of 11-31 alternating rounds).
 */
export function sameTagSiblings(
  prev: Int32Array,
  nextRow: Int32Array,
  tagOf: Int32Array,
  tags: number,
): Int32Array {
  const m = prev.length;
  const sameTag = new Int32Array(m);
  const byTag = new Int32Array(tags);
  for (let head = 0; head < m; head++) {
    if ((prev[head] as number) >= 0) continue;
    for (let r = head; r >= 0; r = nextRow[r] as number) byTag[tagOf[r] as number]! += 1;
    for (let r = head; r >= 0; r = nextRow[r] as number)
      sameTag[r] = (byTag[tagOf[r] as number] as number) - 1;
    for (let r = head; r >= 0; r = nextRow[r] as number) byTag[tagOf[r] as number] = 0;
  }
  return sameTag;
}

/**
 * Neighbour window: the word-bearing leaf segments in document order; a row's window is the
 * NEIGHBOR_WINDOW leaves before its first leaf and after its last one.
 * Prefix sums and binary search: O(n log n).
 */
function fillWindow(f: PageFacts, out: ColumnWriter): void {
  const { rows, stats } = f;
  const leaves: number[] = [];
  const firstLeaf = new Int32Array(rows.length); // index into leaves of the first leaf at/after the row
  const afterLast = new Int32Array(rows.length); // index of the first leaf after the row's subtree
  for (const i of rows) if (stats.structure.leaf[i] === 1 && (stats.words[i] as number) > 0) leaves.push(i);
  const L = leaves.length;
  const pre = {
    words: new Float64Array(L + 1),
    chars: new Float64Array(L + 1),
    anchor: new Float64Array(L + 1),
    sent: new Float64Array(L + 1),
  };
  leaves.forEach((i, k) => {
    pre.words[k + 1] = (pre.words[k] as number) + (stats.words[i] as number);
    pre.chars[k + 1] = (pre.chars[k] as number) + (stats.structure.chars[i] as number);
    pre.anchor[k + 1] = (pre.anchor[k] as number) + (stats.anchorChars[i] as number);
    pre.sent[k + 1] = (pre.sent[k] as number) + ((stats.sentenceEnds[i] as number) > 0 ? 1 : 0);
  });
  for (let r = 0; r < rows.length; r++) {
    if (skipRow(f, r)) continue;
    const i = rows[r] as number;
    firstLeaf[r] = lowerBound(leaves, i);
    afterLast[r] = lowerBound(leaves, f.tree.end[i] as number);
  }
  const [cW, cL, cS] = ["ctx_win_words", "ctx_win_link_density", "ctx_win_sentence_leaves"].map((n) =>
    out.col(n),
  ) as [number, number, number];
  const sum = (arr: Float64Array, lo: number, hi: number, lo2: number, hi2: number): number =>
    (arr[hi] as number) - (arr[lo] as number) + (arr[hi2] as number) - (arr[lo2] as number);
  for (let r = 0; r < rows.length; r++) {
    if (skipRow(f, r)) continue;
    const lo = Math.max(0, (firstLeaf[r] as number) - NEIGHBOR_WINDOW);
    const hi = firstLeaf[r] as number;
    const lo2 = afterLast[r] as number;
    const hi2 = Math.min(L, lo2 + NEIGHBOR_WINDOW);
    const count = hi - lo + hi2 - lo2;
    out.set(r, cW, ratio(sum(pre.words, lo, hi, lo2, hi2), count));
    out.set(r, cL, ratio(sum(pre.anchor, lo, hi, lo2, hi2), sum(pre.chars, lo, hi, lo2, hi2)));
    out.set(r, cS, ratio(sum(pre.sent, lo, hi, lo2, hi2), count));
  }
}

export const contextFamily: FeatureFamily = {
  family: "context",
  defs: contextDefs(),
  fill(f, out) {
    fillWindow(f, out);
    const bits = inheritedAtRows(f, (i) => f.keywordBits[i] as number);
    const sib = siblings(f);
    const kwIndex = INHERITED_KEYWORDS.map((k) => CLASS_KEYWORDS.findIndex(([name]) => name === k));
    const inBase = out.col(`ctx_in_${INHERITED_KEYWORDS[0]}`);
    const n = Math.max(1, f.tree.n);
    const c = {
      posText: out.col("ctx_pos_text"),
      posNode: out.col("ctx_pos_node"),
      share: out.col("ctx_text_share"),
      anc: out.col("ctx_anc1_cnr"),
      parentWords: out.col("ctx_parent_words"),
      prev: out.col("ctx_prev_exists"),
      next: out.col("ctx_next_exists"),
      siblings: out.col("ctx_siblings"),
      sameTag: out.col("ctx_same_tag_siblings"),
    };
    for (let row = 0; row < f.rows.length; row++) {
      if (skipRow(f, row)) continue;
      const i = f.rows[row] as number;
      out.set(row, c.posText, ratio(f.stats.charsBefore[i] as number, f.stats.pageChars));
      out.set(row, c.posNode, i / n);
      out.set(row, c.share, ratio(f.stats.structure.chars[i] as number, f.stats.pageChars));
      fillAncestors(f, out, row, i, c.anc);
      const p = f.tree.parent[i] as number;
      out.set(row, c.parentWords, p >= 0 ? (f.stats.words[p] as number) : NaN);
      fillSibling(f, out, row, c.prev, sib.prev[row] as number);
      fillSibling(f, out, row, c.next, sib.next[row] as number);
      out.set(row, c.siblings, sib.count[row] as number);
      out.set(row, c.sameTag, ratio(sib.sameTag[row] as number, sib.count[row] as number));
      for (let k = 0; k < kwIndex.length; k++)
        out.set(row, inBase + k, ((bits[i] as number) >> (kwIndex[k] as number)) & 1);
    }
  },
};
