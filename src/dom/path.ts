/** Human-readable node paths ("html>body>div#main>p:3"), for JSON output and traces. */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { childrenOf, type Tree } from "./tree.ts";

function label(node: SnapshotNode): string {
  const id = node.attrs?.["id"];
  return id ? `${node.tag}#${id}` : node.tag;
}

/** Per node: 1-based position among its parent's same-tag children, and how many there are. */
interface SiblingPositions {
  k: Int32Array;
  same: Int32Array;
}

/** Computed once per tree (linear), so paths cost O(depth) each even under a 100,000-child parent. */
const POSITIONS = new WeakMap<Tree, SiblingPositions>();

function siblingPositions(page: PageSnapshot, tree: Tree): SiblingPositions {
  const hit = POSITIONS.get(tree);
  if (hit) return hit;
  const k = new Int32Array(tree.n);
  const same = new Int32Array(tree.n);
  const counts = new Map<string, number>();
  for (let p = 0; p < tree.n; p++) {
    const kids = childrenOf(tree, p);
    if (!kids.length) continue;
    counts.clear();
    for (const c of kids) {
      const tag = (page.nodes[c] as SnapshotNode).tag;
      const n = (counts.get(tag) ?? 0) + 1;
      counts.set(tag, n);
      k[c] = n;
    }
    for (const c of kids) same[c] = counts.get((page.nodes[c] as SnapshotNode).tag) as number;
  }
  const out = { k, same };
  POSITIONS.set(tree, out);
  return out;
}

/** Path from the root; `:k` is the 1-based position among same-tag siblings when there are several. */
export function nodePath(page: PageSnapshot, tree: Tree, index: number): string {
  const pos = siblingPositions(page, tree);
  const parts: string[] = [];
  for (let i = index; i >= 0; i = tree.parent[i] as number) {
    const node = page.nodes[i] as SnapshotNode;
    let part = label(node);
    if ((tree.parent[i] as number) >= 0 && node.attrs?.["id"] === undefined && (pos.same[i] as number) > 1) part += `:${pos.k[i] as number}`;
    parts.push(part);
  }
  return parts.reverse().join(">");
}
