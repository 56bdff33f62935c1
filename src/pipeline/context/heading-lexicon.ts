/**
 * The heading lexicon: what the words of a leaf's section heading say about it. "You may also
 * like", "Related products", "Leave a reply", "Recently viewed", "Subscribe to our newsletter"
 * name noise sections on sites whose class names say nothing (hashed CSS modules, utility
 * classes); "Description", "Ingredients", "Directions" name content. Learned from labels like
 * the class-token lexicon (class-lexicon.ts), whose fit and features it reuses.
 *
 * Choices (none of the four papers has it):
 * - A leaf's heading is the last visible h1–h6 that starts before it in document order, or the
 *   heading it is in. No scope rule: a footer after the article's last h2 gets that h2, and the
 *   footer's own features tell it apart. (Scoping a heading to its parent's subtree, and adding
 *   the enclosing higher-level heading's words, were both measured worse: docs/classifiers.md.)
 * - Tokens: the heading's first HEADING_WORDS words, lower-cased letter/digit runs, without
 *   all-digit ones, prefixed "h:"; a leaf before any heading gets NO_HEADING.
 * - Weights and features as the class lexicon's (page frequencies, smoothed log-odds, tokens on
 *   ≥ MIN_LEXICON_PAGES pages; mean, minimum, maximum weight and number of known tokens), plus a
 *   site rule: tokens on ≥ MIN_HEADING_SITES distinct sites.
 * Label check before building it (static, wcxb-dev, dragnet, harvest-forums, cleaneval; lexicon
 * fitted on half the sites, the heading mean alone scored on the other half): word-weighted AUC
 * 0.71-0.73 on wcxb-dev (collection 0.61-0.80, product 0.61-0.72), dragnet 0.65-0.78.
 */
import type { Tree } from "../../dom/tree.ts";
import type { PageSnapshot } from "../../types.ts";
import { vocabulary, type RowTokens } from "./class-lexicon.ts";

/** Words of a heading that become tokens. */
export const HEADING_WORDS = 6;
/** The token of a leaf with no heading before it. */
export const NO_HEADING = "h:-";
/**
 * Tokens seen on fewer distinct training sites are dropped. Headlines are headings too, and a
 * news site's topic words ("gop", "olympics") recur on dozens of its pages, enough for the page
 * rule, and say nothing about another site. Held out, the site rule keeps about a third of the
 * page rule's tokens at the same word F1 (measured: docs/classifiers.md).
 */
export const MIN_HEADING_SITES = 10;

export const HEADING_LEXICON_FEATURES: readonly string[] = [
  "lex_head_mean",
  "lex_head_min",
  "lex_head_max",
  "lex_head_known",
];

const HEADING_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
const WORD = /[\p{L}\p{N}]+/gu;
const DIGITS = /^\d+$/;

/** The "h:" tokens of a heading's text (first HEADING_WORDS words, distinct). */
function headingTokens(text: string): string[] {
  const out = new Set<string>();
  let words = 0;
  for (const m of text.toLowerCase().matchAll(WORD)) {
    if (words++ >= HEADING_WORDS) break;
    if (!DIGITS.test(m[0])) out.add(`h:${m[0]}`);
  }
  return [...out];
}

/**
 * Heading tokens of each row that owns words (other rows get none). One pass in document order
 * (snapshot nodes are pre-order) records the last heading started before each node and the
 * visible text inside each heading.
 */
export function rowHeadingTokens(
  page: PageSnapshot,
  tree: Tree,
  nodes: Int32Array,
  ownWords: Int32Array,
): RowTokens {
  const n = page.nodes.length;
  const governing = new Int32Array(n).fill(-1);
  const text = new Map<number, string>();
  let last = -1;
  for (let i = 0; i < n; i++) {
    const node = page.nodes[i];
    if (!node) continue;
    if (node.type === 1) {
      if (node.visible && HEADING_TAGS.has(node.tag)) {
        last = i;
        text.set(i, "");
      }
    } else if (last >= 0 && i < (tree.end[last] as number) && node.type === 3 && node.visible && node.text) {
      text.set(last, `${text.get(last) as string} ${node.text}`);
    }
    governing[i] = last;
  }
  const { vocab, idOf } = vocabulary();
  const ofHeading = new Map<number, number[]>();
  const start = new Int32Array(nodes.length + 1);
  const ids: number[] = [];
  for (let r = 0; r < nodes.length; r++) {
    start[r] = ids.length;
    if ((ownWords[r] as number) === 0) continue;
    const h = governing[nodes[r] as number] as number;
    let at = ofHeading.get(h);
    if (!at) ofHeading.set(h, (at = (h < 0 ? [NO_HEADING] : headingTokens(text.get(h) as string)).map(idOf)));
    for (const id of at) ids.push(id);
  }
  start[nodes.length] = ids.length;
  return { vocab, start, ids: Int32Array.from(ids) };
}
