/** JSON output: the extraction with the chosen nodes (paths, scores, text) and the trace. */
import type { Extraction, PageSnapshot } from "../types.ts";
import { nodePath } from "../dom/path.ts";
import { textOf } from "../dom/text.ts";
import type { Tree } from "../dom/tree.ts";

/** Characters of each chosen node's text kept in the JSON (the full text is in "text"). */
const NODE_TEXT_PREVIEW = 200;
/** Bump when the JSON output shape changes. */
export const JSON_OUTPUT_VERSION = 1;

export function toJson(page: PageSnapshot, tree: Tree, extraction: Extraction): object {
  return {
    version: JSON_OUTPUT_VERSION,
    id: page.id,
    source: page.source,
    url: page.url,
    title: page.title,
    mode: page.mode,
    method: extraction.method,
    model: extraction.model ?? null,
    text: extraction.text,
    emptyReason: extraction.emptyReason ?? null,
    nodes: extraction.nodes.map((n, k) => ({
      index: n,
      path: nodePath(page, tree, n),
      tag: page.nodes[n]?.tag ?? null,
      score: extraction.scores?.[k] ?? null,
      text: textOf(page, tree, [n]).slice(0, NODE_TEXT_PREVIEW),
    })),
    trace: extraction.trace,
  };
}
