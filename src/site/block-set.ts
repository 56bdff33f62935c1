/**
 * GetBlockSet and block feature vectors, after Debnath, Mitra, Giles, "Automatic Extraction
 * of Informative Blocks from Webpages" (SAC 2005), §1 (definition of a block), §3 and the
 * GetBlockSet routine under Algorithm 1, and §3.2.1 (block features).
 *
 * A block is "a portion of a webpage enclosed within an open-tag and its matching close-tag,
 * where the tags belong to an ordered tag-set T". GetBlockSet starts from the whole page and,
 * for each tag f of T in order, splits every block that contains an f element into the f
 * sub-blocks plus what remains. Applied to a DOM tree until T is exhausted this gives: every
 * element whose tag is in T roots a block, and a block owns the nodes whose nearest block
 * root (inclusive) is that element; the page root owns the rest. One pre-order pass computes
 * it (parents precede children), with no recursion.
 *
 * Features per block (counted over the nodes the block owns, not its nested blocks):
 * terms (word tokens), distinct terms, images, links, scripts, forms/inputs, list items,
 * text tags (h1-h6), style sheets / inline styles, tables.
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { silentMask } from "../dom/silent.ts";
import { words } from "../dom/text.ts";
import type { Tree } from "../dom/tree.ts";

/** The tags the paper names for T (§1: <TR>, <P>, <HR>, <UL>), with TABLE first. */
export const PAPER_TAG_SET = ["table", "tr", "p", "hr", "ul"] as const;
/**
 * Default ordered tag set: the paper's, plus the HTML5 containers that took over the role of
 * layout tables since 2005 (otherwise a modern page is one block).
 */
export const DEFAULT_TAG_SET = [
  "table",
  "tr",
  "div",
  "section",
  "article",
  "main",
  "aside",
  "nav",
  "header",
  "footer",
  "form",
  "ul",
  "ol",
  "dl",
  "p",
  "hr",
  "blockquote",
  "pre",
] as const;

/** Block feature names, in vector order. */
export const BLOCK_FEATURES = [
  "text",
  "images",
  "links",
  "scripts",
  "forms",
  "lists",
  "textTags",
  "styles",
  "tables",
] as const;
export type BlockFeature = (typeof BLOCK_FEATURES)[number];
const F = Object.fromEntries(BLOCK_FEATURES.map((f, i) => [f, i])) as Record<BlockFeature, number>;

export interface BlockSet {
  /** Tag set used (order as given). */
  tags: readonly string[];
  /** Root node of each block, in document order; block 0 is the page root. */
  roots: Int32Array;
  /** Per node, the block that owns it. */
  blockOf: Int32Array;
  /** features[b * BLOCK_FEATURES.length + f]: raw count of feature f in block b. */
  features: Float64Array;
  /** Sorted distinct term ids of each block (ids from a process-wide term table). */
  terms: Int32Array[];
}

const TERM_IDS = new Map<string, number>();

export function termId(term: string): number {
  let id = TERM_IDS.get(term);
  if (id === undefined) {
    id = TERM_IDS.size;
    TERM_IDS.set(term, id);
  }
  return id;
}

const TEXT_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

function countElement(node: SnapshotNode, feats: Float64Array, base: number): void {
  const add = (f: BlockFeature): void => {
    feats[base + F[f]] = (feats[base + F[f]] as number) + 1;
  };
  const tag = node.tag;
  if (tag === "img" || tag === "picture" || tag === "svg") add("images");
  else if (tag === "a" && node.attrs?.["href"] !== undefined) add("links");
  else if (tag === "script" || tag === "noscript") add("scripts");
  else if (tag === "form" || tag === "input" || tag === "select" || tag === "textarea" || tag === "button")
    add("forms");
  else if (tag === "li" || tag === "dt" || tag === "dd") add("lists");
  else if (TEXT_TAGS.has(tag)) add("textTags");
  else if (tag === "style" || tag === "link") add("styles");
  else if (tag === "table") add("tables");
  if (node.attrs?.["style"] !== undefined) add("styles");
}

/** Debnath's GetBlockSet over a snapshot, with per-block features and term sets. */
export function getBlockSet(
  page: PageSnapshot,
  tree: Tree,
  tags: readonly string[] = DEFAULT_TAG_SET,
): BlockSet {
  const tagSet = new Set(tags);
  const n = tree.n;
  const blockOf = new Int32Array(n);
  const roots: number[] = [];
  const silent = silentMask(page.nodes); // no text counted there
  for (let i = 0; i < n; i++) {
    const node = page.nodes[i] as SnapshotNode;
    const p = tree.parent[i] as number;
    if (p < 0 || (node.type === 1 && tagSet.has(node.tag))) {
      blockOf[i] = roots.length;
      roots.push(i);
    } else blockOf[i] = blockOf[p] as number;
  }
  const nf = BLOCK_FEATURES.length;
  const features = new Float64Array(roots.length * nf);
  const termLists: number[][] = roots.map(() => []);
  for (let i = 0; i < n; i++) {
    const node = page.nodes[i] as SnapshotNode;
    const b = blockOf[i] as number;
    if (node.type === 1) countElement(node, features, b * nf);
    else if (silent[i] === 0 && node.text) {
      const ws = words(node.text.toLowerCase());
      features[b * nf + F.text] = (features[b * nf + F.text] as number) + ws.length;
      const list = termLists[b] as number[];
      for (const w of ws) list.push(termId(w));
    }
  }
  const terms = termLists.map((l) => Int32Array.from(new Set(l)).sort());
  return { tags, roots: Int32Array.from(roots), blockOf, features, terms };
}

/** Raw count of one feature in one block. */
export function blockFeature(blocks: BlockSet, b: number, f: BlockFeature): number {
  return blocks.features[b * BLOCK_FEATURES.length + F[f]] as number;
}

/**
 * Block-level tag set for FeatureExtractor: Debnath §3.2 does "not consider a single row or
 * column of a table as a block" but the whole table, so rows, paragraphs and rules do not split.
 */
export const FEATURE_TAG_SET = [
  "table",
  "div",
  "section",
  "article",
  "main",
  "aside",
  "nav",
  "header",
  "footer",
  "form",
  "ul",
  "ol",
  "dl",
] as const;

/** `tags` parameter: "paper", "default", "feature" or a comma-separated tag list. */
export function tagSetParam(value: unknown, fallback: readonly string[]): readonly string[] {
  if (typeof value !== "string" || value === "") return fallback;
  if (value === "paper") return PAPER_TAG_SET;
  if (value === "default") return DEFAULT_TAG_SET;
  if (value === "feature") return FEATURE_TAG_SET;
  return value
    .split(",")
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t.length > 0);
}
