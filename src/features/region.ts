/**
 * Region features: where a node sits relative to the page's main heading, whether it lies in a
 * run of repeated look-alike siblings (product cards, teaser lists, comment items), and price
 * cues. Motivation (pith, measured on wcxb-dev): on product, listing and collection pages the
 * content classifier kept menus and filter facets because their leaf statistics look like a
 * product grid's; what separates them is context the other families do not see:
 *  - the main heading: main content starts at (or just before) the page's main heading and
 *    shares a small common ancestor with it; menus come before it, footers after it far away.
 *    The main heading is the visible h1 whose words best match the <title> (first one on a
 *    tie); with no h1, the same among h2s; with neither, the heading columns are NaN.
 *  - repetition: MODELING-NOTES.md ("repeated small link-heavy cards") — the number of element
 *    siblings sharing a node's signature (tag + class tokens, digits dropped), and the largest
 *    such run among its ancestors up to REPEAT_LEVELS up (a node inside the 3rd card of a
 *    24-card grid sees 23).
 *  - prices: currency amounts in the subtree and in the 3rd ancestor's subtree (a product card).
 * Linear time, no recursion: one forward pass (ancestor state), one reverse pass (subtree sums).
 */
import type { SnapshotNode } from "../types.ts";
import { sameSignatureSiblings } from "../dom/records.ts";
import { words } from "../dom/text.ts";
import { def, skipRow, ratio, type FeatureDef, type FeatureFamily, type PageFacts } from "./registry.ts";

/** Ancestor levels searched for the largest repeated-sibling run (card → grid is rarely deeper). */
export const REPEAT_LEVELS = 5;
/** Ancestor whose subtree's prices describe "the card around this node". */
export const PRICE_ANCESTOR = 3;
/** Headings of one tag considered for the main heading (a page of nested headings stays linear). */
export const MAX_HEADING_CANDIDATES = 20;
/** Characters of a heading's text compared with the title. */
const HEADING_TEXT_CHARS = 300;
/**
 * A currency symbol or code next to an amount: $12, 12,99 €, USD 40, 1.299,00 kr. The amount's
 * digits are bounded (25 characters, more than any price): with
 * `\d[\d.,]*` a run of N digits was tried from each
 * of its N starts and read to its end each time, O(N²): a 100,000-digit word took 41 s.
 */
const PRICE =
  /(?:[$€£¥₹₽₩]|\b(?:usd|eur|gbp|cad|aud|chf|kr|zł|rs)\.?)\s?\d[\d.,]{0,24}|\d[\d.,]{0,24}\s?(?:[€£¥₹₽₩]|\b(?:usd|eur|gbp|kr|zł|kč)\b)/giu;

function regionDefs(): FeatureDef[] {
  const P = "pith";
  return [
    def(
      "reg_heading_side",
      "-1 before the page's main heading (h1 matching the title), 0 contains it, 1 after it; NaN without one",
      P,
    ),
    def(
      "reg_heading_lca_share",
      "share of the page's text under the lowest common ancestor of the node and the main heading",
      P,
    ),
    def(
      "reg_heading_lca_up",
      "levels from the node up to its lowest common ancestor with the main heading",
      P,
    ),
    def(
      "reg_heading_gap",
      "page text between the main heading and the node, as a signed share of the page's text",
      P,
    ),
    def(
      "reg_sig_siblings",
      "element siblings with the node's signature (tag + class tokens without digits)",
      "modeling-notes",
    ),
    def("reg_sig_share", "share of the node's element siblings that have its signature", "modeling-notes"),
    def(
      "reg_repeat_max",
      `largest same-signature sibling run of the node or an ancestor up to ${REPEAT_LEVELS} levels`,
      "modeling-notes",
    ),
    def(
      "reg_repeat_level",
      "levels up to the ancestor where that run is (NaN when no run of 3 or more)",
      "modeling-notes",
    ),
    def("reg_prices", "currency amounts in the subtree's text", P),
    def(
      `reg_anc${PRICE_ANCESTOR}_prices`,
      `currency amounts in the ${PRICE_ANCESTOR}. ancestor's subtree`,
      P,
    ),
  ];
}

/** The main heading's node index, or -1: the visible h1 (else h2) whose words best match the title. */
export function mainHeading(f: PageFacts): number {
  const titleWords = new Set(words(f.page.title.toLowerCase()));
  for (const tag of ["h1", "h2"]) {
    let best = -1;
    let bestScore = -1;
    let seen = 0;
    for (let i = 0; i < f.tree.n && seen < MAX_HEADING_CANDIDATES; i++) {
      const node = f.page.nodes[i] as SnapshotNode;
      if (node.tag !== tag || f.stats.structure.content[i] !== 1 || (f.stats.words[i] as number) === 0)
        continue;
      seen++;
      const text = headingText(f, i);
      const ws = words(text.toLowerCase());
      const score = ws.length ? ws.filter((w) => titleWords.has(w)).length / ws.length : 0;
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    if (best >= 0) return best;
  }
  return -1;
}

function headingText(f: PageFacts, i: number): string {
  let s = "";
  for (let k = i; k < (f.tree.end[i] as number) && s.length < HEADING_TEXT_CHARS; k++) {
    const node = f.page.nodes[k] as SnapshotNode;
    if (node.type === 3 && f.stats.structure.content[k] === 1) s += `${node.text ?? ""} `;
  }
  return s;
}

/** Currency amounts per subtree (content text only). */
function subtreePrices(f: PageFacts): Int32Array {
  const { page, tree } = f;
  const prices = new Int32Array(tree.n);
  for (let i = tree.n - 1; i >= 0; i--) {
    const node = page.nodes[i] as SnapshotNode;
    if (node.type === 3 && f.stats.structure.content[i] === 1 && node.text && /\d/.test(node.text)) {
      prices[i] = (prices[i] as number) + countMatches(PRICE, node.text);
    }
    const p = tree.parent[i] as number;
    if (p >= 0) prices[p] = (prices[p] as number) + (prices[i] as number);
  }
  return prices;
}

/**
 * How many matches `text.match(re)` finds (`re` global, never matching ""), without building
 * their array: test() moves lastIndex past each match and back to 0 after the last.
 */
function countMatches(re: RegExp, text: string): number {
  let n = 0;
  re.lastIndex = 0;
  while (re.test(text)) n++;
  return n;
}

/** Lowest common ancestor of every node with `h`: the nearest ancestor-or-self on h's root path. */
function lcaWith(f: PageFacts, h: number): Int32Array {
  const { tree } = f;
  const onPath = new Uint8Array(tree.n);
  for (let a = h; a >= 0; a = tree.parent[a] as number) onPath[a] = 1;
  const lca = new Int32Array(tree.n).fill(-1);
  for (let i = 0; i < tree.n; i++) {
    const p = tree.parent[i] as number;
    lca[i] = onPath[i] === 1 ? i : p >= 0 ? (lca[p] as number) : -1;
  }
  return lca;
}

function ancestor(f: PageFacts, i: number, levels: number): number {
  let a = i;
  for (let k = 0; k < levels && a >= 0; k++) a = f.tree.parent[a] as number;
  return a;
}

export const regionFamily: FeatureFamily = {
  family: "region",
  defs: regionDefs(),
  fill(f, out) {
    const [cSide, cShare, cUp, cGap, cSig, cSigShare, cRep, cRepLevel, cPrice, cAncPrice] = this.defs.map(
      (d) => out.col(d.name),
    ) as [number, number, number, number, number, number, number, number, number, number];
    const { tree, stats } = f;
    const h = mainHeading(f);
    const lca = h >= 0 ? lcaWith(f, h) : null;
    const sig = sameSignatureSiblings(f.page, f.tree);
    const prices = subtreePrices(f);
    for (let row = 0; row < f.rows.length; row++) {
      if (skipRow(f, row)) continue;
      const i = f.rows[row] as number;
      if (h >= 0 && lca) {
        const end = tree.end[i] as number;
        out.set(row, cSide, end <= h ? -1 : i <= h && h < end ? 0 : 1);
        const a = lca[i] as number;
        out.set(row, cShare, a >= 0 ? ratio(stats.structure.chars[a] as number, stats.pageChars) : NaN);
        out.set(row, cUp, a >= 0 ? (tree.depth[i] as number) - (tree.depth[a] as number) : NaN);
        out.set(
          row,
          cGap,
          ratio((stats.charsBefore[i] as number) - (stats.charsBefore[h] as number), stats.pageChars),
        );
      } else {
        out.set(row, cSide, NaN);
        out.set(row, cShare, NaN);
        out.set(row, cUp, NaN);
        out.set(row, cGap, NaN);
      }
      out.set(row, cSig, sig.same[i] as number);
      out.set(row, cSigShare, ratio(sig.same[i] as number, sig.elementSiblings[i] as number));
      let best = 0;
      let level = NaN;
      for (let k = 0, a = i; k <= REPEAT_LEVELS && a >= 0; k++, a = tree.parent[a] as number) {
        if ((sig.same[a] as number) > best) {
          best = sig.same[a] as number;
          level = k;
        }
      }
      out.set(row, cRep, best);
      out.set(row, cRepLevel, best >= 2 ? level : NaN);
      out.set(row, cPrice, prices[i] as number);
      const a = ancestor(f, i, PRICE_ANCESTOR);
      out.set(row, cAncPrice, a >= 0 ? (prices[a] as number) : NaN);
    }
  },
};
