/**
 * Index structures over a PageSnapshot, built in linear time without recursion.
 *
 * Snapshot nodes are in pre-order with parents first, so every subtree is the contiguous range
 * [i, end[i]). Everything here exploits that: subtree sizes come from one reverse pass, children
 * lists from one forward pass, depth from the parent's depth.
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";

export interface Tree {
  /** Number of nodes. */
  n: number;
  parent: Int32Array;
  /** Exclusive end of node i's subtree in pre-order. */
  end: Int32Array;
  /** Depth from the root (root = 0). */
  depth: Int32Array;
  /** Height: longest path down to a leaf (leaf = 0). */
  height: Int32Array;
  /** Children of i: childList[childStart[i] .. childStart[i+1]). */
  childStart: Int32Array;
  childList: Int32Array;
}

export function buildTree(page: PageSnapshot): Tree {
  const nodes = page.nodes;
  const n = nodes.length;
  const parent = new Int32Array(n);
  const depth = new Int32Array(n);
  const size = new Int32Array(n).fill(1);
  const height = new Int32Array(n);
  const childCount = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const p = (nodes[i] as { parent: number }).parent;
    parent[i] = p;
    if (p >= 0) {
      depth[i] = (depth[p] as number) + 1;
      childCount[p] = (childCount[p] as number) + 1;
    }
  }
  for (let i = n - 1; i > 0; i--) {
    const p = parent[i] as number;
    if (p < 0) continue;
    size[p] = (size[p] as number) + (size[i] as number);
    const h = (height[i] as number) + 1;
    if (h > (height[p] as number)) height[p] = h;
  }
  const end = new Int32Array(n);
  for (let i = 0; i < n; i++) end[i] = i + (size[i] as number);
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) childStart[i + 1] = (childStart[i] as number) + (childCount[i] as number);
  const fill = childStart.slice(0, n);
  const childList = new Int32Array(Math.max(0, n - 1));
  for (let i = 0; i < n; i++) {
    const p = parent[i] as number;
    if (p < 0) continue;
    const slot = fill[p] as number;
    childList[slot] = i;
    fill[p] = slot + 1;
  }
  return { n, parent, end, depth, height, childStart, childList };
}

/**
 * Per snapshot node, the OR of `own` over the node and its ancestors (parents precede children,
 * so one pass suffices): what the hidden and landmark features read at any depth, and the static
 * renderer's "inside a <pre>".
 */
export function inheritedBits(
  nodes: readonly SnapshotNode[],
  own: (node: SnapshotNode) => number,
): Int32Array {
  const bits = new Int32Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i] as SnapshotNode;
    bits[i] = (n.parent >= 0 ? (bits[n.parent] as number) : 0) | own(n);
  }
  return bits;
}

/**
 * Calls `visit` once on every node of the paths from `rows` (node indices; only those whose
 * `only` entry is 1, all when `only` is null) up to the root, parents before children: what a
 * computation over chosen rows and their ancestors needs, without the rest of the tree.
 * Iterative: each path is collected bottom-up, then visited top-down.
 */
export function eachOnRowPaths(
  tree: Tree,
  rows: ArrayLike<number>,
  only: Uint8Array | null,
  visit: (node: number) => void,
): void {
  const seen = new Uint8Array(tree.n);
  const path: number[] = [];
  for (let r = 0; r < rows.length; r++) {
    if (only !== null && only[r] !== 1) continue;
    for (let a = rows[r] as number; a >= 0 && seen[a] === 0; a = tree.parent[a] as number) {
      seen[a] = 1;
      path.push(a);
    }
    for (let b = path.pop(); b !== undefined; b = path.pop()) visit(b);
  }
}

/** Children of node i (a view, not a copy). */
export function childrenOf(tree: Tree, i: number): Int32Array {
  return tree.childList.subarray(tree.childStart[i] as number, tree.childStart[i + 1] as number);
}

/** True when a is b or an ancestor of b. */
export function contains(tree: Tree, a: number, b: number): boolean {
  return a <= b && b < (tree.end[a] as number);
}

/** Reduce a set of node indices to the ones not inside another chosen node, in document order. */
export function outermost(tree: Tree, chosen: Iterable<number>): number[] {
  const sorted = [...new Set(chosen)].sort((a, b) => a - b);
  const out: number[] = [];
  let coveredUntil = -1;
  for (const i of sorted) {
    if (i < coveredUntil) continue;
    out.push(i);
    coveredUntil = tree.end[i] as number;
  }
  return out;
}
