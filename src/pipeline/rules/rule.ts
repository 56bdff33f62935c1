/** The shape of a rule after the classifiers (the table is index.ts) and what it reads. */
import { eachOnRowPaths, type Tree } from "../../dom/tree.ts";
import type { PageSnapshot, SnapshotNode, TraceEntry } from "../../types.ts";
import type { RunOptions } from "../options.ts";
import type { Ownership } from "../own-text.ts";

/** What a rule reads and the keep mask (one byte per row) it changes in place. */
export interface RuleContext {
  page: PageSnapshot;
  tree: Tree;
  /** Snapshot node of each feature-table row. */
  nodes: Int32Array;
  own: Ownership;
  /** P(main) per row after the classifiers and the context stage. */
  scores: Float32Array;
  keep: Uint8Array;
  /** The routed page type. */
  pageType: string;
  options: RunOptions;
}

export interface Rule {
  /** The rule's name, as its trace entries' `step` says it. */
  readonly name: string;
  appliesTo(ctx: RuleContext): boolean;
  apply(ctx: RuleContext): TraceEntry[];
}

/** What most rules read: the page's rows and the keep mask they change in place. */
export type RuleRows = Pick<RuleContext, "page" | "tree" | "nodes" | "own" | "keep">;

/**
 * Per snapshot node, 1 when `own` holds for it or an ancestor (dom/tree.ts inheritedBits), set only on
 * the kept rows' nodes and their ancestors (0 elsewhere): what a rule reads about its kept rows,
 * without a test on every element of the page.
 */
export function keptInherited(rows: RuleRows, own: (node: SnapshotNode) => boolean): Uint8Array {
  const { page, tree, nodes, keep } = rows;
  const bits = new Uint8Array(tree.n);
  eachOnRowPaths(tree, nodes, keep, (i) => {
    const p = tree.parent[i] as number;
    bits[i] = (p >= 0 && bits[p] === 1) || own(page.nodes[i] as SnapshotNode) ? 1 : 0;
  });
  return bits;
}
