/**
 * The block view Louvan's refiners work on (Louvan, "Extracting the Main Content from HTML
 * Documents", §2.3): the text of some snapshot subtrees cut into text blocks, each with the
 * structural facts LBS (§2.3.1: depth level, siblings), SLS (§2.3.2: structure-changing tags
 * between strings) and TP (§2.3.3: repeated structure) need.
 *
 * A block is the inline content of one element: a "leaf" element (no block-level descendants)
 * is one block; inside an element that mixes inline content and block children, each maximal
 * run of inline children (text nodes, inline elements) between block children is one block.
 * Every visible text character under the roots belongs to exactly one block, and building the
 * view is one iterative pass, linear in the subtree sizes.
 *
 * Refiners return block positions (`kept`) and the snapshot nodes that cover exactly the kept
 * blocks (`nodes`, see `nodesForBlocks`), plus a trace entry per block.
 */
import { isBlockDisplay } from "../dom/blocks.ts";
import { silencesSubtree } from "../dom/silent.ts";
import { textOf } from "../dom/text.ts";
import { childrenOf, type Tree } from "../dom/tree.ts";
import type { PageSnapshot, SnapshotNode, TraceEntry } from "../types.ts";

/**
 * Tags counted as "HTML tags that modify the structure" for SLS's empty array elements
 * (§2.3.2 names DIV, TR, TD, TABLE, UL, LI; the rest are their HTML5/list/table siblings).
 */
export const STRUCTURAL_TAGS: ReadonlySet<string> = new Set([
  "div",
  "tr",
  "td",
  "th",
  "table",
  "ul",
  "ol",
  "li",
  "dl",
  "section",
  "article",
  "header",
  "footer",
  "nav",
  "aside",
  "main",
  "form",
]);

/** Characters of block text shown in trace entries. */
export const TRACE_TEXT_CHARS = 80;
/** Trace paths keep this many trailing steps ("…>div>p:3"), so deep pages stay linear. */
export const TRACE_PATH_STEPS = 8;

export interface TextBlock {
  /** The element whose inline content this block is (a text node only when a root is one). */
  node: number;
  /**
   * Roots of the subtrees that make up the block, in document order: [node] for a leaf element,
   * else the run of inline children.
   */
  parts: number[];
  /** DOM parent of the parts: the block's sibling group for LBS. */
  container: number;
  /** Whitespace-collapsed text. */
  text: string;
  /** Text length in characters (of `text`). */
  length: number;
  /** Characters of `text` inside links (<a>). */
  linkLength: number;
  /** Tree depth of `node`. */
  depth: number;
  /** Structural tags (STRUCTURAL_TAGS) opened since the previous block of the view: SLS's empty elements. */
  gap: number;
}

/** Blocks of some subtrees of one page, with the page and its tree for structural questions. */
export interface BlockView {
  page: PageSnapshot;
  tree: Tree;
  /** Subtrees the blocks were cut from (outermost, document order). */
  roots: number[];
  /** Blocks in document order. */
  blocks: TextBlock[];
}

/** What every refiner returns. */
export interface RefineResult {
  /** Positions in `view.blocks` of the kept blocks, ascending. */
  kept: number[];
  /** Snapshot nodes covering exactly the kept blocks (outermost, document order). */
  nodes: number[];
  /** One entry per decision (block kept or dropped, group chosen). */
  trace: TraceEntry[];
}

/** hasBlock[i]: i's subtree (i excluded, skipped subtrees excluded) holds a block-level element. */
function blockDescendants(page: PageSnapshot, tree: Tree, roots: readonly number[]): Uint8Array {
  const has = new Uint8Array(tree.n);
  for (const root of roots) {
    for (let i = (tree.end[root] as number) - 1; i > root; i--) {
      const node = page.nodes[i] as SnapshotNode;
      if (silencesSubtree(node)) continue;
      const p = tree.parent[i] as number;
      if (has[i] || (node.type === 1 && isBlockDisplay(node.tag, node.style?.display))) has[p] = 1;
    }
  }
  return has;
}

interface Builder {
  view: BlockView;
  hasBlock: Uint8Array;
  gap: number;
  run: number[];
}

function emit(b: Builder, node: number, parts: number[]): void {
  const { page, tree } = b.view;
  const text = textOf(page, tree, parts).replace(/\n/g, " ");
  if (!text) return;
  let linkLength = 0;
  for (const part of parts) {
    const end = tree.end[part] as number;
    for (let i = part; i < end; i++) {
      const nd = page.nodes[i] as SnapshotNode;
      if (nd.type === 1 && nd.tag === "a") {
        linkLength += textOf(page, tree, [i]).length;
        i = (tree.end[i] as number) - 1;
      }
    }
  }
  const container = tree.parent[parts[0] as number] as number;
  b.view.blocks.push({
    node,
    parts,
    container,
    text,
    length: text.length,
    linkLength,
    depth: tree.depth[node] as number,
    gap: b.gap,
  });
  b.gap = 0;
}

function flushRun(b: Builder, owner: number): void {
  if (b.run.length) emit(b, owner, b.run);
  b.run = [];
}

/** Scan the children of non-leaf elements with an explicit stack (document order). */
function scan(b: Builder, root: number): void {
  const { page, tree } = b.view;
  const stack: { el: number; k: number }[] = [{ el: root, k: 0 }];
  while (stack.length) {
    const frame = stack[stack.length - 1] as { el: number; k: number };
    const kids = childrenOf(tree, frame.el);
    if (frame.k >= kids.length) {
      flushRun(b, frame.el);
      stack.pop();
      continue;
    }
    const c = kids[frame.k++] as number;
    const node = page.nodes[c] as SnapshotNode;
    if (silencesSubtree(node)) continue;
    const block = node.type === 1 && isBlockDisplay(node.tag, node.style?.display);
    if (!block && !b.hasBlock[c]) {
      b.run.push(c);
      continue;
    }
    flushRun(b, frame.el);
    if (STRUCTURAL_TAGS.has(node.tag)) b.gap++;
    if (b.hasBlock[c]) stack.push({ el: c, k: 0 });
    else emit(b, c, [c]);
  }
}

/** Cut the text under `roots` (default: the whole page) into blocks. Linear, iterative. */
export function textBlocks(
  page: PageSnapshot,
  tree: Tree,
  roots: readonly number[] = tree.n ? [0] : [],
): BlockView {
  const outer = [...roots]
    .sort((a, b) => a - b)
    .filter((r, k, a) => k === 0 || r >= (tree.end[a[k - 1] as number] as number));
  const view: BlockView = { page, tree, roots: outer, blocks: [] };
  const b: Builder = { view, hasBlock: blockDescendants(page, tree, outer), gap: 0, run: [] };
  for (const root of outer) {
    const node = page.nodes[root] as SnapshotNode;
    if (silencesSubtree(node)) continue;
    if (STRUCTURAL_TAGS.has(node.tag)) b.gap++;
    if (b.hasBlock[root]) scan(b, root);
    else emit(b, root, [root]);
  }
  return view;
}

/** Node that stands for a block in subtree sums: the single part, or the owner of a run. */
export function anchorOf(block: TextBlock): number {
  return block.parts.length === 1 ? (block.parts[0] as number) : block.node;
}

/**
 * Snapshot nodes covering exactly the given blocks: the outermost nodes inside the view's roots
 * whose every block is kept (so a fully kept article becomes its <div>), plus the parts of kept
 * blocks no such node covers. Linear: subtree sums by prefix sums over pre-order.
 */
export function nodesForBlocks(view: BlockView, kept: readonly number[]): number[] {
  const { tree, blocks } = view;
  const total = new Float64Array(tree.n + 1);
  const keptAt = new Float64Array(tree.n + 1);
  const isKept = new Uint8Array(blocks.length);
  for (const k of kept) isKept[k] = 1;
  blocks.forEach((blk, k) => {
    const a = anchorOf(blk) + 1;
    total[a] = (total[a] as number) + blk.length;
    if (isKept[k]) keptAt[a] = (keptAt[a] as number) + blk.length;
  });
  for (let i = 1; i <= tree.n; i++) {
    total[i] = (total[i] as number) + (total[i - 1] as number);
    keptAt[i] = (keptAt[i] as number) + (keptAt[i - 1] as number);
  }
  const sum = (arr: Float64Array, i: number): number =>
    (arr[tree.end[i] as number] as number) - (arr[i] as number);
  const out: number[] = [];
  for (const root of view.roots) {
    const end = tree.end[root] as number;
    for (let i = root; i < end; i++) {
      const t = sum(total, i);
      if (t === 0) {
        i = (tree.end[i] as number) - 1;
        continue;
      }
      if (sum(keptAt, i) === t) {
        out.push(i);
        i = (tree.end[i] as number) - 1;
      }
    }
  }
  const covered = (x: number): boolean => {
    let lo = 0;
    let hi = out.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const o = out[mid] as number;
      if (o > x) hi = mid - 1;
      else if (x < (tree.end[o] as number)) return true;
      else lo = mid + 1;
    }
    return false;
  };
  const extra: number[] = [];
  for (const k of kept) {
    const blk = blocks[k] as TextBlock;
    if (!covered(anchorOf(blk))) extra.push(...blk.parts);
  }
  return extra.length ? [...out, ...extra].sort((a, b) => a - b) : out;
}

/** Short node paths for traces: sibling positions computed once, at most TRACE_PATH_STEPS steps. */
export function pathNamer(page: PageSnapshot, tree: Tree): (i: number) => string {
  const pos = new Int32Array(tree.n);
  const many = new Uint8Array(tree.n);
  const groups = new Map<string, { count: number; first: number }>();
  for (let i = 1; i < tree.n; i++) {
    const node = page.nodes[i] as SnapshotNode;
    if (node.attrs?.["id"] !== undefined) continue;
    const key = `${tree.parent[i]}\u0000${node.tag}`;
    const g = groups.get(key);
    if (!g) {
      groups.set(key, { count: 1, first: i });
      pos[i] = 1;
      continue;
    }
    pos[i] = ++g.count;
    many[i] = 1;
    many[g.first] = 1;
  }
  return (index: number): string => {
    const parts: string[] = [];
    let i = index;
    for (; i >= 0 && parts.length < TRACE_PATH_STEPS; i = tree.parent[i] as number) {
      const node = page.nodes[i] as SnapshotNode;
      const id = node.attrs?.["id"];
      parts.push(id ? `${node.tag}#${id}` : many[i] ? `${node.tag}:${pos[i]}` : node.tag);
    }
    if (i >= 0) parts.push("…");
    return parts.reverse().join(">");
  };
}

/** Makes a trace entry about block k of a view. */
export type BlockEntry = (k: number, action: "keep" | "drop", reason: string, score?: number) => TraceEntry;

/** The trace entries of `step` about the blocks of `view` (`path`: a node's trace path, pathNamer). */
export function blockEntries(step: string, view: BlockView, path: (i: number) => string): BlockEntry {
  return (k, action, reason, score) => {
    const blk = view.blocks[k] as TextBlock;
    const entry: TraceEntry = {
      step,
      node: blk.node,
      path: path(blk.node),
      action,
      reason,
      text: blk.text.slice(0, TRACE_TEXT_CHARS),
    };
    if (score !== undefined) entry.score = score;
    return entry;
  };
}
