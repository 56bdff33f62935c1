/**
 * JSON output: the extraction with the chosen nodes (paths, scores, text), the trace, and the
 * page's declared metadata (language, canonical URL, description, author, dates, site name, lead
 * image: src/render/declared-meta.ts; null where the page does not say).
 */
import type { DeclaredMeta, Extraction, PageSnapshot } from "../types.ts";
import { safeUrl } from "../dom/escape.ts";
import { absoluteUrl, baseUrl } from "../dom/urls.ts";
import { nodePath } from "../dom/path.ts";
import { textOf } from "../dom/text.ts";
import type { Tree } from "../dom/tree.ts";

/** Characters of each chosen node's text kept in the JSON (the full text is in "text"). */
const NODE_TEXT_PREVIEW = 200;
/** Bump when the JSON output shape changes (2: `metadata`). */
export const JSON_OUTPUT_VERSION = 2;

const NO_DECLARED: DeclaredMeta = {
  description: null,
  author: null,
  published: null,
  modified: null,
  siteName: null,
  image: null,
};

function metadata(page: PageSnapshot): object {
  const declared = page.meta?.declared ?? NO_DECLARED;
  const image =
    declared.image && safeUrl("src", declared.image) ? absoluteUrl(declared.image, baseUrl(page)) : null;
  return {
    lang: page.lang?.trim() || null,
    canonicalUrl: page.meta?.canonicalUrl ?? null,
    ...declared,
    image,
  };
}

export function toJson(page: PageSnapshot, tree: Tree, extraction: Extraction): object {
  return {
    version: JSON_OUTPUT_VERSION,
    id: page.id,
    source: page.source,
    url: page.url,
    title: page.title,
    metadata: metadata(page),
    mode: page.mode,
    method: extraction.method,
    model: extraction.model ?? null,
    text: extraction.text,
    emptyReason: extraction.emptyReason ?? null,
    // only on pages whose bytes had something wrong that did not stop them (a truncated gzip)
    ...(page.warnings ? { warnings: page.warnings } : {}),
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
