/**
 * The one import point for node features in the learned pipeline and its trainer. Interim:
 * until src/features/index.ts lands, a compact feature set built on src/features/stats.ts
 * (own text, link density, CNR, counts, class keywords, and the same for four structural
 * ancestors — the context MODELING-NOTES found most useful). Swapped for the real registry by
 * re-exporting it here; the schema hash keeps models of one set away from the other.
 */
import type { Tree } from "../dom/tree.ts";
import { computeStats, COUNTED, type NodeStats } from "../features/stats.ts";
import { createHash } from "node:crypto";
import type { PageSnapshot, SiteContext, SnapshotNode } from "../types.ts";

export interface FeatureSchema {
  version: number;
  names: string[];
  hash: string;
}

export interface FeatureTable {
  schema: FeatureSchema;
  nodes: Int32Array;
  values: Float32Array;
}

const KEYWORDS: ReadonlyArray<readonly [string, RegExp]> = [
  ["comment", /comment|disqus|reply|respond/], ["nav", /nav|breadcrumb|menu/], ["footer", /footer|copyright/],
  ["header", /header|masthead/], ["sidebar", /sidebar|aside|rail|widget/], ["share", /share|social/],
  ["related", /related|recommend|popular|trending|teaser|more-/], ["ad", /(?:^|[^a-z])(?:ad|ads|advert\w*|sponsor\w*|promo\w*)(?:$|[^a-z])/],
  ["content", /content|article|story|post|entry|body|main|text/],
];
const TAGS = ["#text", "a", "p", "div", "li", "td", "span", "h1", "h2", "h3", "article", "main", "nav", "footer", "header", "aside", "section", "pre", "blockquote"];
const ANCESTORS = 4;
const NODE = ["log_words", "log_chars", "link_density", "stop_ratio", "cnr_log", "digit_ratio", "sent_per_word", "word_share", "position", "depth", "height",
  ...COUNTED.map((c) => `per_word_${c}`)];
const CTX = ["link_density", "cnr_log", "word_share", "log_words", "n_children", ...KEYWORDS.map(([k]) => `kw_${k}`)];

const NAMES = [
  ...NODE.map((n) => `self_${n}`), ...TAGS.map((t) => `tag_${t}`), ...KEYWORDS.map(([k]) => `self_kw_${k}`),
  ...Array.from({ length: ANCESTORS }, (_, a) => CTX.map((c) => `anc${a + 1}_${c}`)).flat(),
];
const SCHEMA: FeatureSchema = { version: 0, names: NAMES, hash: createHash("sha256").update(`interim\n${NAMES.join("\n")}`).digest("hex").slice(0, 16) };

export function featureSchema(): FeatureSchema {
  return SCHEMA;
}

function keywordHits(node: SnapshotNode | undefined): number[] {
  const s = `${node?.attrs?.["id"] ?? ""} ${node?.attrs?.["class"] ?? ""}`.toLowerCase();
  return KEYWORDS.map(([, re]) => (s.trim() && re.test(s) ? 1 : 0));
}

function ctx(stats: NodeStats, tree: Tree, page: PageSnapshot, i: number): number[] {
  if (i < 0) return CTX.map(() => NaN);
  const chars = stats.structure.chars[i] as number;
  const w = stats.words[i] as number;
  const kids = (tree.childStart[i + 1] as number) - (tree.childStart[i] as number);
  return [chars ? (stats.anchorChars[i] as number) / chars : NaN, Math.log1p(stats.cnr[i] as number), stats.pageWords ? w / stats.pageWords : 0, Math.log1p(w), kids, ...keywordHits(page.nodes[i])];
}

function nodeRow(stats: NodeStats, tree: Tree, page: PageSnapshot, i: number): number[] {
  const chars = stats.structure.chars[i] as number;
  const w = stats.words[i] as number;
  const node = page.nodes[i] as SnapshotNode;
  const K = COUNTED.length;
  const own = [
    Math.log1p(w), Math.log1p(chars), chars ? (stats.anchorChars[i] as number) / chars : NaN, w ? (stats.stopwords[i] as number) / w : NaN,
    Math.log1p(stats.cnr[i] as number), chars ? (stats.digits[i] as number) / chars : NaN, w ? (stats.sentenceEnds[i] as number) / w : NaN,
    stats.pageWords ? w / stats.pageWords : 0, stats.pageChars ? (stats.charsBefore[i] as number) / stats.pageChars : 0, tree.depth[i] as number, tree.height[i] as number,
    ...COUNTED.map((_, k) => (stats.counts[i * K + k] as number) / (w + 1)),
  ];
  const tags = TAGS.map((t) => (node.tag === t ? 1 : 0));
  const anc: number[] = [];
  let a = stats.structure.structuralParent[i] as number;
  for (let k = 0; k < ANCESTORS; k++) {
    anc.push(...ctx(stats, tree, page, a));
    if (a >= 0) a = stats.structure.structuralParent[a] as number;
  }
  return [...own, ...tags, ...keywordHits(node), ...anc];
}

/** Feature rows of the page's structural nodes. */
export function computeFeatures(page: PageSnapshot, tree: Tree, options: { site?: SiteContext; lang?: string | undefined } = {}): FeatureTable {
  const stats = computeStats(page, tree, options.lang ?? null);
  const nodes = stats.structure.nodes;
  const nCols = NAMES.length;
  const values = new Float32Array(nodes.length * nCols);
  for (let r = 0; r < nodes.length; r++) values.set(nodeRow(stats, tree, page, nodes[r] as number), r * nCols);
  return { schema: SCHEMA, nodes, values };
}
