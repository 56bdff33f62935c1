/**
 * The shape shared by pith's post-classifier rules (consent.ts, comments.ts, landmark-rule.ts,
 * reviews.ts): some elements name a box that is never main content (a cookie banner, a comment
 * section, a navigation landmark, a product's customer reviews); every kept leaf inside such a
 * box is dropped, with a trace entry (its path and the first characters of its text). A box only
 * counts while it is small (fewer words than the rule's limit), so a page-wide wrapper that
 * happens to carry the name never fires.
 */
import type { RuleRows } from "./rule.ts";
import { eachOnRowPaths, type Tree } from "../../dom/tree.ts";
import type { PageSnapshot, SnapshotNode, TraceEntry } from "../../types.ts";
import type { Ownership } from "../own-text.ts";
import { traceTarget } from "../trace.ts";

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
 * Marks the kept rows and their ancestors that lie inside a small named box (parents first), so
 * the rule's name test runs on those elements, not on every element of the page (most rows are
 * dropped already).
 */
function boxes(
  rule: BoxRule,
  page: PageSnapshot,
  tree: Tree,
  nodes: Int32Array,
  own: Ownership,
  keep: Uint8Array,
): Uint8Array {
  const inBox = new Uint8Array(tree.n);
  const limit = rule.maxWords(own);
  eachOnRowPaths(tree, nodes, keep, (i) => {
    const p = tree.parent[i] as number;
    if (p >= 0 && inBox[p]) {
      inBox[i] = 1;
      return;
    }
    const node = page.nodes[i] as SnapshotNode;
    if (node.type !== 1 || !rule.names(node)) return;
    const row = own.ownerRow[i] as number;
    const words = row >= 0 && nodes[row] === i ? (own.subtreeWords[row] as number) : limit;
    if (words < limit) inBox[i] = 1;
  });
  return inBox;
}

/** Drops kept rows inside the rule's boxes (in place); returns the trace of what it dropped. */
export function applyBoxRule(rule: BoxRule, rows: RuleRows): TraceEntry[] {
  const { page, tree, nodes, own, keep } = rows;
  const trace: TraceEntry[] = [];
  const inBox = boxes(rule, page, tree, nodes, own, keep); // before the loop below clears keep
  for (let r = 0; r < nodes.length; r++) {
    const node = nodes[r] as number;
    if (keep[r] !== 1 || !inBox[node]) continue;
    keep[r] = 0;
    if ((own.ownWords[r] as number) > 0)
      trace.push({ step: rule.step, ...traceTarget(page, tree, node), action: "drop", reason: rule.reason });
  }
  return trace;
}
