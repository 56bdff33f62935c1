/** Output formats for an extraction: text, markdown, html, json. */
import type { Extraction, PageSnapshot } from "../types.ts";
import type { Tree } from "../dom/tree.ts";
import { toHtml } from "./html.ts";
import { toJson } from "./json.ts";
import { toMarkdown } from "./markdown.ts";
import { DEFAULT_OUTPUT, type OutputOptions } from "./options.ts";

export { DEFAULT_OUTPUT, type OutputOptions };

export const FORMATS = ["text", "markdown", "html", "json"] as const;
export type Format = (typeof FORMATS)[number];
export const FORMAT_EXTENSION: Record<Format, string> = {
  text: ".txt",
  markdown: ".md",
  html: ".html",
  json: ".json",
};

export function formatExtraction(
  format: Format,
  snapshot: PageSnapshot,
  tree: Tree,
  extraction: Extraction,
  options: OutputOptions = DEFAULT_OUTPUT,
): string {
  // the extractor's own view when it read one (same nodes, so the same tree)
  const page = extraction.view ?? snapshot;
  switch (format) {
    case "text":
      return extraction.text;
    case "markdown":
      return toMarkdown(page, tree, extraction.nodes, options);
    case "html":
      return toHtml(page, tree, extraction.nodes, options);
    case "json":
      return JSON.stringify(toJson(page, tree, extraction));
  }
}
