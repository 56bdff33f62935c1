/**
 * The shape shared by pith's post-classifier rules (consent.ts, comments.ts): some elements name
 * a box that is never main content (a cookie banner, a comment section); every kept leaf inside
 * such a box is dropped, with a trace entry. A box only counts while it is small (fewer words
 * than the rule's limit), so a page-wide wrapper that happens to carry the name never fires.
 */
import type { Tree } from "../dom/tree.ts";
import { nodePath } from "../dom/path.ts";
import type { PageSnapshot, SnapshotNode, TraceEntry } from "../types.ts";
import type { Ownership } from "./own-text.ts";

export interface BoxRule {
  /** Trace step name, e.g. "consent-rule". */
  step: string;
  /** Trace reason for a dropped leaf. */
  reason: string;
  /** The element names a box. */
  names(node: SnapshotNode): boolean;
  /** A box holds fewer words than this. */
  maxWords(own: Ownership): number;
}

/**
 * Whether a node lies inside a small named box (itself or an ancestor), asked only for kept rows:
 * their ancestor chains are walked once each (memoised per node), so the rule's name test runs on
 * those elements, not on every element of the page (most rows are dropped already).
 */
function insideBox(rule: BoxRule, page: PageSnapshot, tree: Tree, nodes: Int32Array, own: Ownership): (i: number) => boolean {
  const limit = rule.maxWords(own);
  const state = new Uint8Array(tree.n); // 0 not decided, 1 inside a box, 2 not
  const path: number[] = [];
  const isBox = (i: number): boolean => {
    const node = page.nodes[i] as SnapshotNode;
    if (node.type !== 1 || !rule.names(node)) return false;
    const row = own.ownerRow[i] as number;
    return (row >= 0 && nodes[row] === i ? (own.subtreeWords[row] as number) : limit) < limit;
  };
  return (i) => {
    let a = i;
    for (; a >= 0 && state[a] === 0; a = tree.parent[a] as number) path.push(a);
    let inside = a >= 0 && state[a] === 1;
    for (let b = path.pop(); b !== undefined; b = path.pop()) {
      inside ||= isBox(b);
      state[b] = inside ? 1 : 2;
    }
    return state[i] === 1;
  };
}

/** Drops kept rows inside the rule's boxes (in place); returns the trace of what it dropped. */
export function applyBoxRule(rule: BoxRule, page: PageSnapshot, tree: Tree, nodes: Int32Array, own: Ownership, keep: Uint8Array): TraceEntry[] {
  const trace: TraceEntry[] = [];
  const inBox = insideBox(rule, page, tree, nodes, own);
  for (let r = 0; r < nodes.length; r++) {
    const node = nodes[r] as number;
    if (keep[r] !== 1 || !inBox(node)) continue;
    keep[r] = 0;
    if ((own.ownWords[r] as number) > 0) trace.push({ step: rule.step, node, path: nodePath(page, tree, node), action: "drop", reason: rule.reason, text: "" });
  }
  return trace;
}
