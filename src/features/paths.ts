/**
 * Node paths for many nodes at once, in the format of src/dom/path.ts (`html>body>div#main>p:3`),
 * in linear time: same-tag sibling positions come from one pass over every children list, and a
 * path is its parent's path plus one part. (nodePath() scans siblings per call: quadratic for a
 * table row per node on a page with 30,000 children under <body>.) Paths deeper than
 * PATH_MAX_PARTS keep their last PATH_TAIL_PARTS parts behind "…" (a 10,000-level page would
 * otherwise write gigabytes of paths).
 */
import { childrenOf, type Tree } from "../dom/tree.ts";
import type { PageSnapshot, SnapshotNode } from "../types.ts";

import { PATH_MAX_PARTS, PATH_TAIL_PARTS } from "../dom/path.ts";

export { PATH_MAX_PARTS, PATH_TAIL_PARTS };

function parts(page: PageSnapshot, tree: Tree): string[] {
  const part = new Array<string>(tree.n);
  const seen = new Map<string, number>();
  const total = new Map<string, number>();
  const visit = (p: number, kids: ArrayLike<number>): void => {
    total.clear();
    seen.clear();
    for (let k = 0; k < kids.length; k++) {
      const tag = (page.nodes[kids[k] as number] as SnapshotNode).tag;
      total.set(tag, (total.get(tag) ?? 0) + 1);
    }
    for (let k = 0; k < kids.length; k++) {
      const c = kids[k] as number;
      const node = page.nodes[c] as SnapshotNode;
      const id = node.attrs?.["id"];
      const pos = (seen.get(node.tag) ?? 0) + 1;
      seen.set(node.tag, pos);
      const label = id ? `${node.tag}#${id}` : node.tag;
      part[c] = p >= 0 && id === undefined && (total.get(node.tag) as number) > 1 ? `${label}:${pos}` : label;
    }
  };
  const roots: number[] = [];
  for (let i = 0; i < tree.n; i = tree.end[i] as number) roots.push(i);
  visit(-1, roots);
  for (let i = 0; i < tree.n; i++) visit(i, childrenOf(tree, i));
  return part;
}

/** Paths of `nodes` (any order); shared prefixes are computed once. */
export function nodePaths(page: PageSnapshot, tree: Tree, nodes: ArrayLike<number>): string[] {
  const part = parts(page, tree);
  const memo = new Map<number, string>();
  const pathOf = (i: number): string => {
    const chain: number[] = [];
    let a = i;
    while (a >= 0 && !memo.has(a)) {
      chain.push(a);
      a = tree.parent[a] as number;
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      const c = chain[k] as number;
      const p = tree.parent[c] as number;
      memo.set(c, p >= 0 ? `${memo.get(p)}>${part[c]}` : (part[c] as string));
    }
    return memo.get(i) as string;
  };
  const out: string[] = [];
  for (let k = 0; k < nodes.length; k++) {
    const i = nodes[k] as number;
    if ((tree.depth[i] as number) < PATH_MAX_PARTS) out.push(pathOf(i));
    else out.push(tail(tree, part, i));
  }
  return out;
}

function tail(tree: Tree, part: string[], i: number): string {
  const ps: string[] = [];
  for (let a = i; a >= 0 && ps.length < PATH_TAIL_PARTS; a = tree.parent[a] as number)
    ps.push(part[a] as string);
  return `…>${ps.reverse().join(">")}`;
}
