/**
 * What a pipeline trace entry says about its node: the node, its path and the first characters
 * of its text. Shared by the classifier's trace (run.ts), the refiners (refine.ts) and the rules.
 */
import { nodePath } from "../dom/path.ts";
import { textOf } from "../dom/text.ts";
import type { Tree } from "../dom/tree.ts";
import type { PageSnapshot, TraceEntry } from "../types.ts";

/** Characters of node text shown in a trace entry. */
export const TRACE_TEXT_CHARS = 60;

export function traceTarget(
  page: PageSnapshot,
  tree: Tree,
  node: number,
): Pick<TraceEntry, "node" | "path" | "text"> {
  return {
    node,
    path: nodePath(page, tree, node),
    text: textOf(page, tree, [node], { maxChars: TRACE_TEXT_CHARS }).slice(0, TRACE_TEXT_CHARS),
  };
}
