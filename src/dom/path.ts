/** Human-readable node paths ("html>body>div#main>p:3"), for JSON output and traces. */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { childrenOf, type Tree } from "./tree.ts";

function label(node: SnapshotNode): string {
  const id = node.attrs?.["id"];
  return id ? `${node.tag}#${id}` : node.tag;
}

/** Path from the root; `:k` is the 1-based position among same-tag siblings when there are several. */
export function nodePath(page: PageSnapshot, tree: Tree, index: number): string {
  const parts: string[] = [];
  for (let i = index; i >= 0; i = tree.parent[i] as number) {
    const node = page.nodes[i] as SnapshotNode;
    let part = label(node);
    const p = tree.parent[i] as number;
    if (p >= 0 && node.attrs?.["id"] === undefined) {
      let k = 0;
      let same = 0;
      for (const c of childrenOf(tree, p)) {
        if ((page.nodes[c] as SnapshotNode).tag !== node.tag) continue;
        same++;
        if (c <= i) k = same;
      }
      if (same > 1) part += `:${k}`;
    }
    parts.push(part);
  }
  return parts.reverse().join(">");
}
