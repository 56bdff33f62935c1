/**
 * DOM features (Louvan et al., §3.1 "features from DOM properties": inner text, inner HTML,
 * number of images, forms, tables, links, …), plus tag one-hots, ARIA roles/landmarks and id/class
 * keyword indicators (the keyword idea as in Readability's class-weight regexes).
 */
import type { SnapshotNode } from "../types.ts";
import {
  def,
  skipRow,
  ratio,
  type ColumnWriter,
  type FeatureDef,
  type FeatureFamily,
  type PageFacts,
} from "./registry.ts";
import { COUNTED } from "./stats.ts";

/** Tags with their own one-hot column; everything else is dom_tag_other. */
export const ONE_HOT_TAGS = [
  "#text",
  "a",
  "span",
  "div",
  "section",
  "article",
  "main",
  "aside",
  "header",
  "footer",
  "nav",
  "p",
  "ul",
  "ol",
  "li",
  "dl",
  "dd",
  "dt",
  "table",
  "tbody",
  "tr",
  "td",
  "th",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "pre",
  "blockquote",
  "figure",
  "figcaption",
  "form",
  "body",
  "center",
  "font",
  "noscript",
  "address",
  "details",
] as const;

/** ARIA roles with their own column (landmarks first). */
export const ROLES = [
  "main",
  "article",
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "search",
  "region",
  "dialog",
  "menu",
  "list",
  "listitem",
  "feed",
  "comment",
] as const;
const LANDMARK_ROLES: ReadonlySet<string> = new Set([
  "main",
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "search",
  "region",
  "form",
]);
/** Elements with an implicit landmark role (HTML-AAM). */
const LANDMARK_TAGS: ReadonlySet<string> = new Set(["main", "nav", "header", "footer", "aside", "search"]);

/**
 * id/class keyword families. A word matches anywhere in the lower-cased id or class string
 * ("comment-list"), except where marked: `^word` needs a character other than a-z (or the
 * string's start) before it, `word$` one after it (or the string's end), so that "ad" does not
 * match "header" nor "tag" "stage". As regular expressions (keywordPattern): the "ad" family is
 * `(?:^|[^a-z])(?:ad|ads|adv|advert\w*|sponsor\w*|promo\w*|banner)(?:$|[^a-z])|adsense|doubleclick`
 * and "meta" ends in `tags?(?:$|[^a-z])`.
 */
export const CLASS_KEYWORDS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["comment", ["comment", "disqus", "reply", "respond"]],
  ["nav", ["nav", "breadcrumb"]],
  ["menu", ["menu"]],
  ["header", ["header", "masthead", "topbar"]],
  ["footer", ["footer", "copyright", "colophon"]],
  ["sidebar", ["sidebar", "side-bar", "aside", "rail", "widget"]],
  ["share", ["share", "social", "sharing", "follow"]],
  ["related", ["related", "recommend", "more-", "also", "popular", "trending", "teaser"]],
  ["ad", ["^ad$", "^ads$", "^adv$", "^advert", "^sponsor", "^promo", "^banner$", "adsense", "doubleclick"]],
  ["cookie", ["cookie", "consent", "gdpr"]],
  ["post", ["post", "entry"]],
  ["article", ["article", "story"]],
  ["content", ["content"]],
  ["body", ["body"]],
  ["main", ["main"]],
  ["text", ["text", "prose", "copy"]],
  ["meta", ["meta", "byline", "author", "date", "time", "tag$", "tags$"]],
  ["title", ["title", "headline", "heading"]],
  ["caption", ["caption", "credit"]],
  ["form", ["search", "login", "signup", "subscribe", "newsletter", "form"]],
  ["hidden", ["hidden", "hide", "modal", "popup", "overlay"]],
  ["card", ["card", "tile", "item", "thumb"]],
];

/** A family's words as one regular expression, with the markers written out (its documented meaning). */
export function keywordPattern(words: readonly string[]): RegExp {
  const edge = "(?:^|[^a-z])";
  const source = words.map(
    (w) =>
      (w.startsWith("^") ? edge : "") + w.replace(/^\^|\$$/g, "") + (w.endsWith("$") ? "(?:$|[^a-z])" : ""),
  );
  return new RegExp(source.join("|"));
}

function domDefs(): FeatureDef[] {
  const L = "louvan";
  return [
    def("dom_text_chars", "non-space characters of visible content text in the subtree", L),
    def("dom_html_chars", "approximate inner-HTML length (tags, kept attributes, text)", L),
    def("dom_text_html_ratio", "text characters / inner-HTML length", L),
    ...COUNTED.map((k) =>
      def(
        `dom_n_${k}`,
        `number of visible ${k === "heading" ? "h1-h6" : k === "input" ? "input/select/textarea/button" : `<${k}>`}` +
          ` elements in the subtree`,
        L,
      ),
    ),
    def("dom_anchor_ratio", "share of the subtree's text characters inside links (link density)", L),
    def("dom_depth", "depth of the node in the DOM (root = 0)", L),
    def("dom_height", "longest path from the node down to a leaf", L),
    def("dom_subtree_nodes", "number of nodes in the subtree", L),
    def("dom_children", "number of child nodes", L),
    def("dom_block_children", "number of structural children", L),
    ...ONE_HOT_TAGS.map((t) =>
      def(`dom_tag_${t === "#text" ? "text" : t}`, `node is ${t === "#text" ? "a text node" : `<${t}>`}`, L),
    ),
    def("dom_tag_other", "node is an element not in the one-hot tag set", L),
    ...ROLES.map((r) => def(`dom_role_${r}`, `role="${r}"`, L)),
    def("dom_landmark", "ARIA landmark: a landmark role or an element with an implicit landmark role", L),
    def("dom_itemprop_body", "itemprop is articleBody/text/reviewBody (schema.org)", "pith"),
    def("dom_itemtype_article", "itemtype names an Article/BlogPosting/NewsArticle", "pith"),
    ...CLASS_KEYWORDS.map(([k]) => def(`dom_cls_${k}`, `own id/class contains the "${k}" keyword family`, L)),
    def("dom_has_id", "the element has an id", L),
  ];
}

export function idClass(node: SnapshotNode): string {
  const a = node.attrs;
  if (!a) return "";
  const s = `${a["id"] ?? ""} ${a["class"] ?? ""}`.trim();
  return s ? s.toLowerCase() : "";
}

/**
 * The families' words in a trie over a-z and "-" (the only characters they hold), so that one
 * scan of a string finds every family it holds: 22 regular expressions tested one by one cost
 * most of the keyword bits (see docs/features.md).
 */
const TRIE_SYMBOLS = 27;
/** Symbol of a character, -1 for one no word holds. */
function trieSymbol(c: number): number {
  return c >= 97 && c <= 122 ? c - 97 : c === 45 ? 26 : -1;
}

/** Trie: child of node t by symbol y at next[t * TRIE_SYMBOLS + y] (0: none; node 0 is the root). */
interface KeywordTrie {
  next: Int32Array;
  /** Family bit of the word ending at node t (0: none). */
  bit: Int32Array;
  /** 1: the word needs a non-a-z character (or the start) before it; 2: after it (or the end). */
  edges: Uint8Array;
}

function keywordTrie(): KeywordTrie {
  const words = CLASS_KEYWORDS.flatMap(([, ws], k) => ws.map((w) => ({ w, k })));
  const size = 1 + words.reduce((a, { w }) => a + w.length, 0);
  const trie = {
    next: new Int32Array(size * TRIE_SYMBOLS),
    bit: new Int32Array(size),
    edges: new Uint8Array(size),
  };
  let nodes = 1;
  for (const { w, k } of words) {
    const word = w.replace(/^\^|\$$/g, "");
    let t = 0;
    for (let j = 0; j < word.length; j++) {
      const slot = t * TRIE_SYMBOLS + trieSymbol(word.charCodeAt(j));
      if (trie.next[slot] === 0) trie.next[slot] = nodes++;
      t = trie.next[slot] as number;
    }
    trie.bit[t] = 1 << k;
    trie.edges[t] = (w.startsWith("^") ? 1 : 0) | (w.endsWith("$") ? 2 : 0);
  }
  return trie;
}

const TRIE = keywordTrie();

/** Whether position k of s is outside s or holds a character other than a-z. */
function edgeAt(s: string, k: number): boolean {
  if (k < 0 || k >= s.length) return true;
  const c = s.charCodeAt(k);
  return c < 97 || c > 122;
}

/**
 * Family bits of an id or class string: every word found at every position of it lower-cased.
 * Not memoised: a memo by string cost more than this scan (its lookups hash and compare the
 * string, and most strings are new to it).
 */
function keywordBitsOf(raw: string): number {
  const s = raw.toLowerCase();
  const { next, bit, edges } = TRIE;
  let bits = 0;
  for (let k = 0; k < s.length; k++) {
    let t = 0;
    for (let j = k; j < s.length; j++) {
      const y = trieSymbol(s.charCodeAt(j));
      if (y < 0) break;
      t = next[t * TRIE_SYMBOLS + y] as number;
      if (t === 0) break;
      const b = bit[t] as number;
      if (b === 0 || (bits & b) !== 0) continue;
      const e = edges[t] as number;
      if ((e & 1) !== 0 && !edgeAt(s, k - 1)) continue;
      if ((e & 2) !== 0 && !edgeAt(s, j + 1)) continue;
      bits |= b;
    }
  }
  return bits;
}

/** Bit k set when CLASS_KEYWORDS[k] matches the node's own id or class. */
export function keywordBits(node: SnapshotNode): number {
  const a = node.attrs;
  if (!a) return 0;
  const id = a["id"];
  const cls = a["class"];
  return (id ? keywordBitsOf(id) : 0) | (cls ? keywordBitsOf(cls) : 0);
}

const TAG_INDEX = new Map<string, number>(ONE_HOT_TAGS.map((t, k) => [t, k]));
const ROLE_INDEX = new Map<string, number>(ROLES.map((r, k) => [r, k]));
const BODY_PROPS = /^(?:articlebody|text|reviewbody)$/;
const ARTICLE_TYPES = /article|blogposting|newsarticle|report/i;

/** Column indices, resolved once per page. */
/** The scalar columns, resolved once per page into a fixed-shape object (fast property access). */
function domCols(out: ColumnWriter) {
  return {
    textChars: out.col("dom_text_chars"),
    htmlChars: out.col("dom_html_chars"),
    textHtml: out.col("dom_text_html_ratio"),
    counted: out.col(`dom_n_${COUNTED[0]}`),
    anchor: out.col("dom_anchor_ratio"),
    depth: out.col("dom_depth"),
    height: out.col("dom_height"),
    subtree: out.col("dom_subtree_nodes"),
    children: out.col("dom_children"),
    blockChildren: out.col("dom_block_children"),
    tagOther: out.col("dom_tag_other"),
    landmark: out.col("dom_landmark"),
    itemprop: out.col("dom_itemprop_body"),
    itemtype: out.col("dom_itemtype_article"),
    hasId: out.col("dom_has_id"),
  };
}
type Cols = ReturnType<typeof domCols>;

function fillCounts(f: PageFacts, out: ColumnWriter, row: number, i: number, c: Cols): void {
  const s = f.stats;
  const K = COUNTED.length;
  const chars = f.stats.structure.chars[i] as number;
  out.set(row, c.textChars, chars);
  out.set(row, c.htmlChars, s.htmlChars[i] as number);
  out.set(row, c.textHtml, ratio(chars, s.htmlChars[i] as number));
  const base = c.counted; // COUNTED columns are contiguous
  for (let k = 0; k < K; k++) out.set(row, base + k, s.counts[i * K + k] as number);
  out.set(row, c.anchor, ratio(s.anchorChars[i] as number, chars));
}

function fillShape(f: PageFacts, out: ColumnWriter, row: number, i: number, c: Cols): void {
  const { tree } = f;
  out.set(row, c.depth, tree.depth[i] as number);
  out.set(row, c.height, tree.height[i] as number);
  out.set(row, c.subtree, (tree.end[i] as number) - i);
  const from = tree.childStart[i] as number;
  const to = tree.childStart[i + 1] as number;
  let blocks = 0;
  for (let k = from; k < to; k++)
    if (f.stats.structure.isStructural[tree.childList[k] as number] === 1) blocks++;
  out.set(row, c.children, to - from);
  out.set(row, c.blockChildren, blocks);
}

function fillTagRole(
  f: PageFacts,
  out: ColumnWriter,
  row: number,
  i: number,
  base: { tag: number; role: number; cls: number },
  c: Cols,
): void {
  const node = f.page.nodes[i] as SnapshotNode;
  const t = TAG_INDEX.get(node.tag);
  out.set(row, t === undefined ? c.tagOther : base.tag + t, 1);
  const role = node.attrs?.["role"]?.toLowerCase().trim() ?? "";
  const r = ROLE_INDEX.get(role);
  if (r !== undefined) out.set(row, base.role + r, 1);
  out.set(row, c.landmark, LANDMARK_ROLES.has(role) || LANDMARK_TAGS.has(node.tag) ? 1 : 0);
  const itemprop = node.attrs?.["itemprop"];
  const itemtype = node.attrs?.["itemtype"];
  out.set(row, c.itemprop, itemprop !== undefined && BODY_PROPS.test(itemprop.toLowerCase()) ? 1 : 0);
  out.set(row, c.itemtype, itemtype !== undefined && ARTICLE_TYPES.test(itemtype) ? 1 : 0);
  const bits = f.keywordBits[i] as number;
  for (let k = 0; k < CLASS_KEYWORDS.length; k++) out.set(row, base.cls + k, (bits >> k) & 1);
  out.set(row, c.hasId, node.attrs?.["id"] ? 1 : 0);
}

export const domFamily: FeatureFamily = {
  family: "dom",
  defs: domDefs(),
  fill(f, out) {
    const base = {
      tag: out.col("dom_tag_text"),
      role: out.col(`dom_role_${ROLES[0]}`),
      cls: out.col(`dom_cls_${CLASS_KEYWORDS[0]?.[0]}`),
    };
    const c = domCols(out);
    for (let row = 0; row < f.rows.length; row++) {
      if (skipRow(f, row)) continue;
      const i = f.rows[row] as number;
      fillCounts(f, out, row, i, c);
      fillShape(f, out, row, i, c);
      fillTagRole(f, out, row, i, base, c);
    }
  },
};
