/**
 * HTML output: the chosen subtrees re-serialised from the snapshot (kept attributes only, no
 * scripts or styles, invisible nodes dropped), wrapped in one <article>. Iterative walk.
 *
 * Pages are untrusted and this output is meant to be shown: no event handler or style attribute
 * is kept, a link or source whose URL would run script (`javascript:`, `vbscript:`, a `data:`
 * URL other than an image's source) loses that attribute, and a chosen <html> or <body> gives
 * its content without its own tag (a <body> inside the <article> is not HTML). Links and image
 * sources are absolute when the page URL is known (urls.ts).
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { NON_CONTENT_TAGS } from "../dom/blocks.ts";
import { SHADOW_ROOT_TAG } from "../render/shadow-root.ts";
import type { Tree } from "../dom/tree.ts";
import { escapeAttribute, escapeText, safeUrl } from "./escape.ts";
import { absoluteUrl, baseUrl } from "./urls.ts";

const VOID_TAGS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
/** Attributes worth keeping in clean output. */
const OUTPUT_ATTRIBUTES = ["href", "src", "alt", "colspan", "lang"];

/** Elements whose own tag is left out (their content is kept); a shadow root is no element of HTML. */
const WRAPPER_TAGS = new Set(["html", "body", SHADOW_ROOT_TAG]);

function openTag(node: SnapshotNode, base: string | null): string {
  let s = `<${node.tag}`;
  for (const a of OUTPUT_ATTRIBUTES) {
    const v = node.attrs?.[a];
    if (v === undefined) continue;
    const url = a === "href" || a === "src";
    if (url && !safeUrl(a, v)) continue;
    s += ` ${a}="${escapeAttribute(url ? absoluteUrl(v, base) : v)}"`;
  }
  return s + ">";
}

export function toHtml(page: PageSnapshot, tree: Tree, roots: readonly number[]): string {
  const out: string[] = ["<article>"];
  const closeAt: { end: number; tag: string }[] = [];
  const base = baseUrl(page);
  for (const root of roots) {
    const end = tree.end[root] as number;
    for (let i = root; i < end; i++) {
      while (closeAt.length && (closeAt[closeAt.length - 1] as { end: number }).end <= i) out.push(`</${(closeAt.pop() as { tag: string }).tag}>`);
      const node = page.nodes[i] as SnapshotNode;
      if (!node.visible || (node.type === 1 && NON_CONTENT_TAGS.has(node.tag))) {
        i = (tree.end[i] as number) - 1;
        continue;
      }
      if (node.type === 3) {
        out.push(escapeText(node.text ?? ""));
        continue;
      }
      if (WRAPPER_TAGS.has(node.tag)) continue;
      out.push(openTag(node, base));
      if (!VOID_TAGS.has(node.tag)) closeAt.push({ end: tree.end[i] as number, tag: node.tag });
    }
    while (closeAt.length) out.push(`</${(closeAt.pop() as { tag: string }).tag}>`);
  }
  out.push("</article>");
  return out.join("");
}
