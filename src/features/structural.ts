/**
 * THE rule for which snapshot nodes are structural nodes (candidate segments). Every feature row,
 * every label and every pick of the learned pipeline is one of these nodes.
 *
 * Louvan et al. classify DOM nodes into good segments and then main/noise (louvan, §3 "segment
 * classification"); the issue asks for block-level and sectioning elements plus text-bearing
 * elements with inline children. We make that precise with CSS 2.1's box model (§9.2.1 block-level
 * boxes, §9.2.1.1 anonymous block boxes), so that the structural nodes tile the page's text:
 *
 *   A node is structural when it carries content (visible, not inside a NON_CONTENT_TAGS element,
 *   not <html>) and
 *   (1) it is an element that is block-level (isBlockDisplay: computed display in Chromium mode,
 *       the BLOCK_TAGS table statically; <br>/<hr>/<wbr> excluded: they hold nothing), or
 *   (2) it is an inline element that contains a block-level descendant (block-in-inline, e.g. an
 *       <a> wrapping a teaser card), or
 *   (3) its parent is structural and has a child of kind (1)/(2), and it is an inline element or a
 *       text node with non-space text: CSS wraps such inline runs in anonymous block boxes; we make
 *       each inline child its own segment.
 *
 * Consequence (tested): a structural node either has structural descendants and then owns no text
 * directly (all its words sit in structural descendants), or it is a *leaf segment* whose whole
 * text is its own plus its inline children's. So picking any set of structural nodes and taking
 * `textOf(page, tree, outermost(picked))` can reproduce any union of leaf segments exactly — the
 * oracle (src/evaluate/oracle.ts) and the learned pipeline rely on this.
 *
 * Linear time, no recursion: one reverse pass (bottom-up facts) and one forward pass.
 */
import { NON_CONTENT_TAGS, isBlockDisplay } from "../dom/blocks.ts";
import type { Tree } from "../dom/tree.ts";
import type { PageSnapshot, SnapshotNode } from "../types.ts";

/** Block-level by display but empty by definition: never segments, never make a parent "mixed". */
export const EMPTY_BLOCK_TAGS: ReadonlySet<string> = new Set(["br", "hr", "wbr"]);
/** Never structural: the document root is the whole page (body plays that role). */
export const ROOT_TAGS: ReadonlySet<string> = new Set(["html", "head"]);

export interface Structure {
  /** Snapshot indices of the structural nodes, document order. */
  nodes: Int32Array;
  /** 1 when node i is structural (length n). */
  isStructural: Uint8Array;
  /** 1 when node i carries content: visible and not inside a NON_CONTENT_TAGS element (what textOf reads). */
  content: Uint8Array;
  /** Non-space characters of content text in node i's subtree. */
  chars: Int32Array;
  /** Nearest structural ancestor of node i, excluding i itself (-1 at the top). */
  structuralParent: Int32Array;
  /** 1 when structural node i has no structural descendant with text (its text is its own). */
  leaf: Uint8Array;
}

/** True for the code units JavaScript's \s matches (a char loop: 5× faster than a regex here). */
export function isSpaceCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Number of non-space characters (UTF-16 code units), as Insa's textLength. */
export function nonSpaceLength(s: string): number {
  let k = 0;
  for (let i = 0; i < s.length; i++) if (!isSpaceCode(s.charCodeAt(i))) k++;
  return k;
}

/** content[i]: what textOf would read (same skip rules). */
function contentMask(page: PageSnapshot, tree: Tree): Uint8Array {
  const content = new Uint8Array(tree.n);
  for (let i = 0; i < tree.n; i++) {
    const node = page.nodes[i] as SnapshotNode;
    const p = tree.parent[i] as number;
    const parentOk = p < 0 || content[p] === 1;
    content[i] = parentOk && node.visible && !(node.type === 1 && NON_CONTENT_TAGS.has(node.tag)) ? 1 : 0;
  }
  return content;
}

function isBlockLevel(node: SnapshotNode): boolean {
  return node.type === 1 && !EMPTY_BLOCK_TAGS.has(node.tag) && isBlockDisplay(node.tag, node.style?.display);
}

interface BottomUp {
  chars: Int32Array;
  /** node i is block-level or contains a block-level content descendant */
  containsBlock: Uint8Array;
  /** node i has a content child with containsBlock */
  mixed: Uint8Array;
}

function bottomUp(page: PageSnapshot, tree: Tree, content: Uint8Array): BottomUp {
  const n = tree.n;
  const chars = new Int32Array(n);
  const containsBlock = new Uint8Array(n);
  const mixed = new Uint8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (content[i] !== 1) continue;
    const node = page.nodes[i] as SnapshotNode;
    if (node.type === 3) chars[i] = nonSpaceLength(node.text ?? "");
    else if (isBlockLevel(node)) containsBlock[i] = 1;
    const p = tree.parent[i] as number;
    if (p < 0) continue;
    chars[p] = (chars[p] as number) + (chars[i] as number);
    if (containsBlock[i] === 1) {
      containsBlock[p] = 1;
      mixed[p] = 1;
    }
  }
  return { chars, containsBlock, mixed };
}

/** Full structural analysis of a page (the rule above, plus the facts features and labels reuse). */
export function analyzeStructure(page: PageSnapshot, tree: Tree): Structure {
  const n = tree.n;
  const content = contentMask(page, tree);
  const { chars, containsBlock, mixed } = bottomUp(page, tree, content);
  const isStructural = new Uint8Array(n);
  const structuralParent = new Int32Array(n).fill(-1);
  const list = new Int32Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const p = tree.parent[i] as number;
    if (p >= 0) structuralParent[i] = isStructural[p] === 1 ? p : (structuralParent[p] as number);
    if (content[i] !== 1) continue;
    const node = page.nodes[i] as SnapshotNode;
    if (node.type === 1 && ROOT_TAGS.has(node.tag)) continue;
    const rule12 = node.type === 1 && containsBlock[i] === 1;
    const rule3 = p >= 0 && isStructural[p] === 1 && mixed[p] === 1 && (chars[i] as number) > 0;
    if (rule12 || rule3) {
      isStructural[i] = 1;
      list[m++] = i;
    }
  }
  const nodes = list.slice(0, m);
  const leaf = new Uint8Array(n);
  for (const i of nodes) leaf[i] = 1;
  for (let k = m - 1; k >= 0; k--) {
    const i = nodes[k] as number;
    const sp = structuralParent[i] as number;
    if (sp >= 0 && (chars[i] as number) > 0) leaf[sp] = 0;
  }
  return { nodes, isStructural, content, chars, structuralParent, leaf };
}

/** Snapshot indices of the structural nodes, in document order. */
export function structuralNodes(page: PageSnapshot, tree: Tree): Int32Array {
  return analyzeStructure(page, tree).nodes;
}
