/**
 * The page as pith saw it, as HTML for the Inspect frame: the snapshot's nodes written back as
 * markup (the kept attributes only: no event handler, no script), every block marked with its
 * snapshot index so the studio can outline and label it, links and non-data images disarmed,
 * and the page's own `<style>` sheets from its HTML. The frame is also sandboxed and served
 * under a Content-Security-Policy that blocks every request (FRAME_CSP): this file
 * keeps the markup quiet, the browser keeps it from reaching out.
 */
import { escapeAttribute, escapeText, isDataUrl } from "../dom/escape.ts";
import type { Tree } from "../dom/tree.ts";
import type { PageSnapshot, SnapshotNode } from "../types.ts";

/**
 * The frame's Content-Security-Policy: nothing loads but inline styles and data: images, and the
 * document is sandboxed without scripts even when opened on its own.
 */
export const FRAME_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox allow-same-origin";

/** Elements left out with their content: they run code, load other documents or redirect. */
const DROPPED_TAGS = new Set([
  "script",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "base",
  "link",
  "meta",
  "portal",
  "template",
  "style",
]);
/** HTML's void elements: no end tag. */
const VOID_TAGS = new Set(["area", "br", "col", "hr", "img", "input", "param", "source", "track", "wbr"]);
/** Tag and attribute names written back; others are left out. */
const NAME = /^[a-z][a-z0-9-]*$/;
/** The attribute a block carries its snapshot index in. */
export const BLOCK_ATTRIBUTE = "data-pith-b";
const STYLE_BLOCK = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
const HIDDEN_MARKUP = /<!--[\s\S]*?-->|<script\b[\s\S]*?<\/script\s*>/gi;

export interface FrameOptions {
  /** Markup put first in <head> (the studio's own styles). */
  head: string;
  /** Blocks: the snapshot indices marked with BLOCK_ATTRIBUTE, with more attributes each. */
  blocks: ReadonlyMap<number, Record<string, string>>;
  /** Text nodes wrapped in `<span class="…">` (gold-html's node labels), with the class. */
  wrapText?: (node: number) => string | null;
}

/** The page's `<style>` sheets, in document order (comments and scripts skipped). */
export function pageStyles(html: string): string {
  const sheets: string[] = [];
  for (const m of html.replace(HIDDEN_MARKUP, "").matchAll(STYLE_BLOCK)) sheets.push(m[1] ?? "");
  // a "<" could end the <style> element it goes back into; CSS reads "\3c " as the same character
  return sheets.join("\n").replace(/</g, "\\3c ");
}

function attributes(node: SnapshotNode, extra: Record<string, string> | undefined): string {
  let out = "";
  for (const [name, value] of Object.entries(node.attrs ?? {})) {
    if (!NAME.test(name)) continue;
    if (name === "href") out += ` data-href="${escapeAttribute(value)}"`;
    else if (name === "src") out += isDataUrl(value) ? ` src="${escapeAttribute(value)}"` : "";
    else out += ` ${name}="${escapeAttribute(value)}"`;
  }
  for (const [name, value] of Object.entries(extra ?? {})) out += ` ${name}="${escapeAttribute(value)}"`;
  return out;
}

/** The snapshot as one HTML document (see the header). */
export function frameHtml(page: PageSnapshot, tree: Tree, options: FrameOptions): string {
  const out: string[] = ["<!DOCTYPE html>"];
  const open: { tag: string; end: number }[] = [];
  let headDone = false;
  for (let i = 0; i < tree.n; i++) {
    while (open.length && (open[open.length - 1] as { end: number }).end <= i)
      out.push(`</${(open.pop() as { tag: string }).tag}>`);
    const node = page.nodes[i] as SnapshotNode;
    if (node.type === 3) {
      const cls = options.wrapText?.(i);
      const text = escapeText(node.text ?? "");
      out.push(cls ? `<span class="${cls}">${text}</span>` : text);
      continue;
    }
    if (DROPPED_TAGS.has(node.tag)) {
      i = (tree.end[i] as number) - 1;
      continue;
    }
    if (!NAME.test(node.tag)) continue; // a prefixed tag (<o:p>): its content without it
    const extra = options.blocks.get(i);
    const marks = extra ? { [BLOCK_ATTRIBUTE]: String(i), ...extra } : undefined;
    out.push(`<${node.tag}${attributes(node, marks)}>`);
    if (node.tag === "head" && !headDone) {
      out.push(options.head);
      headDone = true;
    }
    if (!VOID_TAGS.has(node.tag)) open.push({ tag: node.tag, end: tree.end[i] as number });
    else i = (tree.end[i] as number) - 1;
  }
  while (open.length) out.push(`</${(open.pop() as { tag: string }).tag}>`);
  if (!headDone) out.splice(1, 0, `<head>${options.head}</head>`);
  return out.join("");
}
