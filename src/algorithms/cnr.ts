/**
 * `cnr` — Insa, Silva, Tamarit et al., "Using the DOM Tree for Content Extraction" (chars-nodes
 * ratio), Polibits 2012.
 *
 *   §IV Def. 4.1 + Algorithm 1  CNR(n) = chars / weight over n's subtree; text nodes weigh 1 and
 *        count their characters without whitespace; "nonContentNode"s (img, nav, a, script,
 *        video, svg, … = CNR_NON_CONTENT_TAGS, plus nodes the renderer marked invisible) weigh 1,
 *        count 0 and hide their subtree. One reverse pre-order pass, no recursion.
 *   §IV step (ii) "we select those nodes with a higher CNR": nodes with CNR ≥ `top` × the page's
 *        largest CNR (the paper leaves the threshold to its tool's settings; CNR_TOP_FRACTION is
 *        our default, measured on the readability and l3s-gn1 sets,
 *        docs/algorithms.md). A selected text node
 *        stands for its parent element: Algorithm 2 merges siblings, and a paragraph's text node
 *        has none.
 *   Algorithm 2  (1) drop selected nodes inside other selected nodes; (2)–(3) while a node has
 *        ≥ 2 (`minSiblings`) children in the set, replace them by it — done bottom-up in one
 *        reverse pre-order pass, so it is linear.
 *   §IV step (iii) the block with most text (Algorithm 1's textLength) is the main content.
 *   §V   the knob: "making Algorithm 2 more restrictive (blocks closer to the leaves, 100 %
 *        precision) or more relaxed (closer to the root, 100 % recall)". Param `levels` moves the
 *        chosen block k ancestors up (k > 0) or k steps down into its child with most text
 *        (k < 0); `bias` = precision | balanced | recall is levels −1 | 0 | +1. `minSiblings` > 2
 *        makes Algorithm 2 itself more restrictive.
 */
import { NON_CONTENT_TAGS } from "../dom/blocks.ts";
import { textOf } from "../dom/text.ts";
import { buildTree, childrenOf, outermost, type Tree } from "../dom/tree.ts";
import { registerExtractor } from "../extractors.ts";
import { pathNamer, TRACE_TEXT_CHARS } from "../refine/blocks.ts";
import type { Extraction, ExtractorContext, PageSnapshot, SnapshotNode, TraceEntry } from "../types.ts";

export const METHOD = "cnr";
/** Default selection threshold: nodes whose CNR reaches this fraction of the page's largest CNR. */
export const CNR_TOP_FRACTION = 0.1;
/** Algorithm 2: children in the block set a node needs to replace them (the paper's "two brothers"). */
export const CNR_MIN_SIBLINGS = 2;
/** Levels the chosen block moves for bias=precision (−) and bias=recall (+). */
export const CNR_BIAS_LEVELS = 1;
/**
 * "nodes without text (e.g. img), nodes mainly used for menus (e.g. nav and a) and irrelevant
 * nodes (e.g. script, video and svg)". <noscript> is not one: the static renderer keeps its
 * content because Discourse forums put the whole thread there (as non-content, 26 of wcxb-dev's
 * 112 forum pages came out empty instead of 9).
 */
export const CNR_NON_CONTENT_TAGS: ReadonlySet<string> = new Set([
  ...NON_CONTENT_TAGS,
  "img",
  "picture",
  "video",
  "audio",
  "source",
  "track",
  "map",
  "area",
  "nav",
  "a",
  "menu",
  "br",
  "hr",
  "wbr",
]);
const NON_SPACE = /\S/gu;

/** Algorithm 1's three attributes, per node. */
export interface CnrTable {
  weight: Int32Array;
  textLength: Float64Array;
  cnr: Float64Array;
  nonContent: Uint8Array;
}

export interface CnrOptions {
  top: number;
  minSiblings: number;
  levels: number;
}

export function isNonContent(node: SnapshotNode): boolean {
  return !node.visible || (node.type === 1 && CNR_NON_CONTENT_TAGS.has(node.tag));
}

/** Algorithm 1, iteratively: children are finished before their parent in reverse pre-order. */
export function computeCnr(page: PageSnapshot, tree: Tree): CnrTable {
  const n = tree.n;
  const weight = new Int32Array(n);
  const textLength = new Float64Array(n);
  const cnr = new Float64Array(n);
  const nonContent = new Uint8Array(n);
  const accWeight = new Int32Array(n);
  const accText = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    const node = page.nodes[i] as SnapshotNode;
    if (isNonContent(node)) {
      nonContent[i] = 1;
      weight[i] = 1;
    } else if (node.type === 3) {
      weight[i] = 1;
      textLength[i] = (node.text ?? "").match(NON_SPACE)?.length ?? 0;
    } else {
      weight[i] = 1 + (accWeight[i] as number);
      textLength[i] = accText[i] as number;
    }
    cnr[i] = (textLength[i] as number) / (weight[i] as number);
    const p = tree.parent[i] as number;
    if (p >= 0) {
      accWeight[p] = (accWeight[p] as number) + (weight[i] as number);
      accText[p] = (accText[p] as number) + (textLength[i] as number);
    }
  }
  return { weight, textLength, cnr, nonContent };
}

/** Step (ii): nodes with CNR ≥ top × max (text nodes stand for their parent element). */
export function selectTopRated(page: PageSnapshot, tree: Tree, table: CnrTable, top: number): number[] {
  let max = 0;
  for (const v of table.cnr) if (v > max) max = v;
  if (max <= 0) return [];
  const threshold = top * max;
  const chosen = new Set<number>();
  for (let i = 0; i < tree.n; i++) {
    if ((table.cnr[i] as number) < threshold || (table.cnr[i] as number) <= 0) continue;
    const p = tree.parent[i] as number;
    chosen.add((page.nodes[i] as SnapshotNode).type === 3 && p >= 0 ? p : i);
  }
  return [...chosen].sort((a, b) => a - b);
}

export interface MergeResult {
  /** Final block set (document order). */
  blocks: number[];
  /** Each merge: the parent and the sibling blocks it replaced. */
  merges: { parent: number; children: number[] }[];
}

/** Algorithm 2: outermost selected nodes, then sibling blocks replaced by their parent, bottom-up. */
export function mergeBlocks(
  tree: Tree,
  selected: readonly number[],
  minSiblings = CNR_MIN_SIBLINGS,
): MergeResult {
  const inSet = new Uint8Array(tree.n);
  for (const i of outermost(tree, selected)) inSet[i] = 1;
  const merges: MergeResult["merges"] = [];
  const need = Math.max(1, Math.floor(minSiblings));
  for (let i = tree.n - 1; i >= 0; i--) {
    let count = 0;
    for (const c of childrenOf(tree, i)) count += inSet[c] as number;
    if (count < need) continue;
    const children: number[] = [];
    for (const c of childrenOf(tree, i)) {
      if (!inSet[c]) continue;
      inSet[c] = 0;
      children.push(c);
    }
    inSet[i] = 1;
    merges.push({ parent: i, children });
  }
  const blocks: number[] = [];
  for (let i = 0; i < tree.n; i++) if (inSet[i]) blocks.push(i);
  return { blocks, merges: merges.reverse() };
}

/** Step (iii): the block with most text (first in document order on ties). */
export function mostText(blocks: readonly number[], table: CnrTable): number {
  let best = -1;
  for (const b of blocks)
    if (best < 0 || (table.textLength[b] as number) > (table.textLength[best] as number)) best = b;
  return best;
}

/**
 * §V knob: k > 0 climbs k ancestors (recall), k < 0 descends k times
 * into the child with most text (precision).
 */
export function moveBlock(tree: Tree, table: CnrTable, block: number, levels: number): number {
  let b = block;
  for (let k = 0; k < levels && (tree.parent[b] as number) >= 0; k++) b = tree.parent[b] as number;
  for (let k = 0; k < -levels; k++) {
    let next = -1;
    for (const c of childrenOf(tree, b)) {
      if ((table.textLength[c] as number) <= 0) continue;
      if (next < 0 || (table.textLength[c] as number) > (table.textLength[next] as number)) next = c;
    }
    if (next < 0) break;
    b = next;
  }
  return b;
}

/** Params: top (fraction), minSiblings, levels, bias (precision | balanced | recall). */
export function cnrOptions(context: ExtractorContext = {}): CnrOptions {
  const p = context.params ?? {};
  const bias = String(p["bias"] ?? "balanced");
  if (!["precision", "balanced", "recall"].includes(bias))
    throw new Error(`cnr: bias must be precision, balanced or recall, got "${bias}"`);
  const biasLevels = bias === "precision" ? -CNR_BIAS_LEVELS : bias === "recall" ? CNR_BIAS_LEVELS : 0;
  const num = (key: string, dflt: number): number => {
    const v = p[key] === undefined ? dflt : Number(p[key]);
    if (!Number.isFinite(v)) throw new Error(`cnr: param ${key} must be a number, got "${String(p[key])}"`);
    return v;
  };
  return {
    top: num("top", CNR_TOP_FRACTION),
    minSiblings: num("minSiblings", CNR_MIN_SIBLINGS),
    levels: Math.trunc(num("levels", biasLevels)),
  };
}

/**
 * First characters of a subtree's text, looking at no more than PREVIEW_NODES nodes (keeps traces linear).
 */
const PREVIEW_NODES = 200;
function preview(page: PageSnapshot, tree: Tree, root: number): string {
  let out = "";
  const end = Math.min(tree.end[root] as number, root + PREVIEW_NODES);
  for (let i = root; i < end && out.length < TRACE_TEXT_CHARS; i++) {
    const node = page.nodes[i] as SnapshotNode;
    if (node.type === 3 && node.visible) out += node.text ?? "";
  }
  return out.replace(/\s+/g, " ").trim();
}

function empty(reason: string, model: string): Extraction {
  return { method: METHOD, text: "", nodes: [], model, trace: [], emptyReason: reason };
}

function entry(
  path: string,
  node: number,
  action: "keep" | "drop",
  reason: string,
  text: string,
  score?: number,
): TraceEntry {
  const e: TraceEntry = { step: METHOD, node, path, action, reason, text: text.slice(0, TRACE_TEXT_CHARS) };
  if (score !== undefined) e.score = score;
  return e;
}

/** The whole method on one page. */
export function cnrExtract(page: PageSnapshot, context: ExtractorContext = {}): Extraction {
  const opts = cnrOptions(context);
  const model = `cnr top=${opts.top} minSiblings=${opts.minSiblings} levels=${opts.levels}`;
  if (page.nodes.length <= 1) return empty("page has a single node", model);
  const tree = buildTree(page);
  const table = computeCnr(page, tree);
  if ((table.textLength[0] as number) <= 0)
    return empty(
      "no text outside links, menus and media, which CNR leaves out (CNR_NON_CONTENT_TAGS)",
      model,
    );
  const selected = selectTopRated(page, tree, table, opts.top);
  const merged = mergeBlocks(tree, selected, opts.minSiblings);
  const best = mostText(merged.blocks, table);
  if (best < 0) return empty("no node reached the CNR selection threshold", model);
  const chosen = moveBlock(tree, table, best, opts.levels);
  const path = pathNamer(page, tree);
  const text = textOf(page, tree, [chosen], { preformatted: true });
  const trace: TraceEntry[] = [];
  for (const m of merged.merges)
    trace.push(
      entry(
        path(m.parent),
        m.parent,
        "keep",
        `Algorithm 2: ${m.children.length} sibling blocks merged into their parent`,
        "",
        table.cnr[m.parent],
      ),
    );
  for (const b of merged.blocks) {
    if (b === best) continue;
    trace.push(
      entry(
        path(b),
        b,
        "drop",
        `block has ${table.textLength[b]} chars < ${table.textLength[best]} of the main block`,
        preview(page, tree, b),
        table.textLength[b],
      ),
    );
  }
  const moved =
    chosen === best
      ? ""
      : ` (moved ${opts.levels > 0 ? "up" : "down"} from ${path(best)}, levels=${opts.levels})`;
  trace.push(
    entry(
      path(chosen),
      chosen,
      "keep",
      `block with most text: ${table.textLength[best]} chars of ${selected.length} selected nodes${moved}`,
      text,
      table.cnr[chosen],
    ),
  );
  return { method: METHOD, text, nodes: [chosen], scores: [table.cnr[chosen] as number], model, trace };
}

registerExtractor({
  name: METHOD,
  description:
    "chars-nodes ratio blocks (Insa et al. 2012); params top, minSiblings, levels, bias=precision|balanced|recall",
  extract: cnrExtract,
});
