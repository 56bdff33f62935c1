/** The shape of a rule after the classifiers (the table is index.ts) and what it reads. */
import type { Tree } from "../../dom/tree.ts";
import type { PageSnapshot, TraceEntry } from "../../types.ts";
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
