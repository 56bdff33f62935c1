/**
 * Word ownership: every visible word of a page belongs to exactly one structural node, its
 * nearest structural ancestor (the node the feature table has a row for). Deciding keep/drop
 * per row then decides every word once, and the kept rows turn back into text through
 * `textOf` with roots (kept rows under no kept row) and exclusions (dropped rows under a
 * kept row). Linear, no recursion: snapshot nodes are pre-order with parents first.
 */
import { silentMask } from "../dom/silent.ts";
import { wordCount } from "../dom/text.ts";
import type { Tree } from "../dom/tree.ts";
import type { PageSnapshot } from "../types.ts";

export interface Ownership {
  /** Row of each snapshot node's owner (itself when it is a row), -1 when none. */
  ownerRow: Int32Array;
  /** Row of the nearest row strictly above each row's node, -1 at the top. */
  parentRow: Int32Array;
  /** Words owned by each row (its own text, not its rows' text). */
  ownWords: Int32Array;
  /** Words under each row's subtree. */
  subtreeWords: Int32Array;
  /** Total visible words of the page. */
  totalWords: number;
  /**
   * Per snapshot node: the words of a text node that is not silent and has text (0 or more), -1 for
   * every other node; for the rules that count words by node (teasers.ts).
   */
  textWords: Int32Array;
}

/**
 * Ownership for the rows `nodes` (structural node indices, document order). `nodeWords`: each
 * visible text node's word count when the feature statistics have counted them already (the same
 * word scanner, the same silent nodes: src/features/stats.ts); else they are counted here.
 */
export function ownership(
  page: PageSnapshot,
  tree: Tree,
  nodes: Int32Array,
  nodeWords?: Int32Array,
): Ownership {
  const n = tree.n;
  const rowOf = new Int32Array(n).fill(-1);
  for (let r = 0; r < nodes.length; r++) rowOf[nodes[r] as number] = r;
  const ownerRow = new Int32Array(n).fill(-1);
  const silent = silentMask(page.nodes);
  const ownWords = new Int32Array(nodes.length);
  const textWords = new Int32Array(n).fill(-1);
  let totalWords = 0;
  for (let i = 0; i < n; i++) {
    const p = tree.parent[i] as number;
    const node = page.nodes[i];
    if (!node) continue;
    const own = rowOf[i] as number;
    ownerRow[i] = own >= 0 ? own : p >= 0 ? (ownerRow[p] as number) : -1;
    if (node.type !== 3 || silent[i] === 1 || !node.text) continue;
    const count = nodeWords ? (nodeWords[i] as number) : wordCount(node.text);
    textWords[i] = count;
    totalWords += count;
    const o = ownerRow[i] as number;
    if (o >= 0) ownWords[o] = (ownWords[o] as number) + count;
  }
  const parentRow = new Int32Array(nodes.length);
  for (let r = 0; r < nodes.length; r++) {
    const p = tree.parent[nodes[r] as number] as number;
    parentRow[r] = p >= 0 ? (ownerRow[p] as number) : -1;
  }
  const subtreeWords = Int32Array.from(ownWords);
  for (let r = nodes.length - 1; r >= 0; r--) {
    const pr = parentRow[r] as number;
    if (pr >= 0) subtreeWords[pr] = (subtreeWords[pr] as number) + (subtreeWords[r] as number);
  }
  return { ownerRow, parentRow, ownWords, subtreeWords, totalWords, textWords };
}

export interface TextPlan {
  /** Kept rows whose parent row is not kept: the roots handed to textOf. */
  roots: number[];
  /** Dropped rows whose parent row is kept: skipped inside the roots. */
  exclude: Set<number>;
}

/** Turns per-row keep decisions into textOf roots and exclusions (snapshot node indices). */
export function textPlan(nodes: Int32Array, own: Ownership, keep: Uint8Array): TextPlan {
  const roots: number[] = [];
  const exclude = new Set<number>();
  for (let r = 0; r < nodes.length; r++) {
    const pr = own.parentRow[r] as number;
    const parentKept = pr >= 0 && keep[pr] === 1;
    if (keep[r] === 1 && !parentKept) roots.push(nodes[r] as number);
    else if (keep[r] !== 1 && parentKept) exclude.add(nodes[r] as number);
  }
  return { roots, exclude };
}
