/**
 * Human-readable node paths ("html>body>div#main>p:3"), for JSON output and traces. A node at
 * depth PATH_MAX_PARTS or more gets its last PATH_TAIL_PARTS parts behind "…": a page of 50,000
 * nested blockquotes otherwise wrote a path of 50,000 parts per node and trace entry (gigabytes
 * of JSON, and a heap exhausted at 4 GB).
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { childrenOf, type Tree } from "./tree.ts";

export const PATH_MAX_PARTS = 64;
export const PATH_TAIL_PARTS = 32;

function label(node: SnapshotNode): string {
  const id = node.attrs?.["id"];
  return id ? `${node.tag}#${id}` : node.tag;
}

/**
 * Per node: 1-based position among its parent's same-tag children, and how many there are;
 * filled one parent at a time (`done`), for the parents on the paths asked for. Each parent's
 * children are scanned at most once per tree, so paths cost O(depth) each even under a
 * 100,000-child parent, and a page that asks for a few paths (the duplicate rule's trace) no
 * longer pays for a pass over the whole tree (0.2 ms of a 16 ms wcxb-dev page).
 */
interface SiblingPositions {
  k: Int32Array;
  same: Int32Array;
  done: Uint8Array;
}

const POSITIONS = new WeakMap<Tree, SiblingPositions>();

function siblingPositions(tree: Tree): SiblingPositions {
  let pos = POSITIONS.get(tree);
  if (!pos)
    POSITIONS.set(
      tree,
      (pos = { k: new Int32Array(tree.n), same: new Int32Array(tree.n), done: new Uint8Array(tree.n) }),
    );
  return pos;
}

/** Fills the positions of parent p's children (once). */
function fillChildren(page: PageSnapshot, tree: Tree, pos: SiblingPositions, p: number): void {
  if (pos.done[p] === 1) return;
  pos.done[p] = 1;
  const kids = childrenOf(tree, p);
  const counts = new Map<string, number>();
  for (const c of kids) {
    const tag = (page.nodes[c] as SnapshotNode).tag;
    const n = (counts.get(tag) ?? 0) + 1;
    counts.set(tag, n);
    pos.k[c] = n;
  }
  for (const c of kids) pos.same[c] = counts.get((page.nodes[c] as SnapshotNode).tag) as number;
}

/** Path from the root; `:k` is the 1-based position among same-tag siblings when there are several. */
export function nodePath(page: PageSnapshot, tree: Tree, index: number): string {
  const pos = siblingPositions(tree);
  const parts: string[] = [];
  const cut = (tree.depth[index] as number) >= PATH_MAX_PARTS;
  for (let i = index; i >= 0 && !(cut && parts.length === PATH_TAIL_PARTS); i = tree.parent[i] as number) {
    const node = page.nodes[i] as SnapshotNode;
    let part = label(node);
    const p = tree.parent[i] as number;
    if (p >= 0) fillChildren(page, tree, pos, p);
    if (p >= 0 && node.attrs?.["id"] === undefined && (pos.same[i] as number) > 1)
      part += `:${pos.k[i] as number}`;
    parts.push(part);
  }
  return (cut ? "…>" : "") + parts.reverse().join(">");
}
