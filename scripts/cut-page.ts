/**
 * Cuts a saved web page down to a small regression fixture (test/pages/<slug>/source.html) that
 * is still a realistic page of its kind: its main content AND its noise (nav, footer, related
 * links, comments) stay, the bulk goes.
 *
 * - comments, script and style bodies, inline SVG drawing (paths, shapes) are removed; the
 *   elements stay, empty (a JSON-LD script keeps a pruned copy of its data: short fields only);
 * - base64 / data: URIs become "data:,"; attributes are kept only when pith or a reader cares
 *   about them (id, class, href, src, alt, lang, dir, role, itemprop, aria-*, hidden, style, the
 *   <meta>/<link> ones that carry metadata, table spans, datetime);
 * - long runs of like siblings (same tag and class; not inline elements amid running text) are truncated: list items and most elements
 *   to the first 8, table rows to 15, paragraphs to 40, big blocks (forum posts, cards, API
 *   entries over 1.5 KB of markup each) to 6; a member holding far more text than its siblings
 *   (the article among wrapper divs) always stays;
 * - long text nodes are trimmed at a word boundary, and whitespace runs collapse (except in
 *   <pre> and <textarea>);
 * - when the result is still over the target size, the limits tighten and it is cut again.
 *
 * The page is decoded with pith's own decoder (so Shift_JIS or windows-1252 pages come out as
 * UTF-8) and its charset declarations are rewritten to utf-8.
 *
 *   node --import tsx scripts/cut-page.ts PAGE(.html|.html.gz) [--source LABEL] > source.html
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseDocument } from "htmlparser2";
import { getOuterHTML } from "domutils";
import { Comment, Element, Text, type ChildNode, type ParentNode } from "domhandler";
import { decodeHtml } from "../src/io/decode.ts";

export interface CutOptions {
  /** Written in the `<!-- source: ... -->` comment at the top (e.g. "wcxb-dev/wx-0042, cut down"). */
  source?: string;
  /** Size the cutter tries to stay under (bytes of UTF-8). */
  targetBytes?: number;
  /** The charset an HTTP response declared, for the decoder. */
  httpCharset?: string | null;
}

interface Limits {
  items: number;
  rows: number;
  paragraphs: number;
  bigBlocks: number;
  text: number;
  /** Also trim markup that costs bytes but rarely decides: class lists to 2 tokens, title and non-hiding style attributes, long URLs, <meta>/<link> tags that declare nothing pith reads. */
  lean?: boolean;
}

const LEVELS: Limits[] = [
  { items: 8, rows: 15, paragraphs: 40, bigBlocks: 6, text: 1200 },
  { items: 6, rows: 12, paragraphs: 30, bigBlocks: 5, text: 1000 },
  { items: 4, rows: 10, paragraphs: 25, bigBlocks: 4, text: 800 },
  { items: 3, rows: 8, paragraphs: 20, bigBlocks: 3, text: 600 },
  { items: 3, rows: 8, paragraphs: 20, bigBlocks: 3, text: 600, lean: true },
  { items: 3, rows: 6, paragraphs: 15, bigBlocks: 2, text: 500, lean: true },
  { items: 2, rows: 5, paragraphs: 12, bigBlocks: 2, text: 400, lean: true },
];

export const DEFAULT_TARGET_BYTES = 18_000;
/** A fixture larger than this after the tightest cut is refused (scripts/new-test-page.ts). */
export const MAX_FIXTURE_BYTES = 60_000;

const KEEP_ATTRS = new Set([
  "id",
  "class",
  "href",
  "src",
  "alt",
  "lang",
  "dir",
  "role",
  "itemprop",
  "itemscope",
  "itemtype",
  "hidden",
  "style",
  "title",
  "colspan",
  "rowspan",
  "datetime",
  "open",
]);
const HEAD_ATTRS = new Set([
  "name",
  "property",
  "content",
  "http-equiv",
  "charset",
  "rel",
  "type",
  "hreflang",
]);
const SVG_KEEP = new Set(["title", "desc"]);
const PARAGRAPH_TAGS = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "blockquote",
  "pre",
  "figure",
  "dl",
  "dd",
  "dt",
]);
const ROW_TAGS = new Set(["tr"]);
const RAW_KEEP_WS = new Set(["pre", "textarea", "code", "listing", "plaintext", "xmp"]);
/** Class tokens kept per element (utility-class frameworks write dozens). */
const MAX_CLASSES = 4;
/** JSON-LD string values longer than this are dropped (article bodies, long descriptions). */
const LD_MAX_STRING = 300;

function isElement(n: ChildNode): n is Element {
  return n instanceof Element;
}

/** <meta name|property> values pith's metadata reads (src/render/declared-meta.ts), kept by lean cuts. */
const LEAN_META =
  /^(description|author|keywords|date|og:|article:|twitter:(title|description|creator)|citation_|dc\.|parsely-|sailthru\.|byl|pubdate|publish)/i;

/** Whether a lean cut drops this <meta>/<link> tag. */
function leanDrops(el: Element): boolean {
  const name = el.name.toLowerCase();
  if (name === "link") return !/\b(canonical|alternate|author)\b/i.test(el.attribs["rel"] ?? "");
  if (name !== "meta") return false;
  if ("charset" in el.attribs || "http-equiv" in el.attribs) return false;
  return !LEAN_META.test(el.attribs["name"] ?? el.attribs["property"] ?? el.attribs["itemprop"] ?? "");
}

function cleanAttributes(el: Element, lean: boolean): void {
  const name = el.name.toLowerCase();
  const head = name === "meta" || name === "link" || name === "script" || name === "html" || name === "base";
  for (const [k, v] of Object.entries(el.attribs)) {
    const key = k.toLowerCase();
    const keep = KEEP_ATTRS.has(key) || key.startsWith("aria-") || (head && HEAD_ATTRS.has(key));
    if (!keep) {
      delete el.attribs[k];
      continue;
    }
    let value = v;
    if (/^\s*data:/i.test(value)) value = "data:,";
    if (key === "charset") value = "utf-8";
    if (
      key === "content" &&
      /charset\s*=/i.test(value) &&
      (el.attribs["http-equiv"] ?? "").toLowerCase() === "content-type"
    )
      value = "text/html; charset=utf-8";
    if (key === "style" && value.length > 300) value = value.slice(0, 300).replace(/;[^;]*$/, ";");
    if ((key === "href" || key === "src") && value.length > 400) value = value.slice(0, 400);
    if (key === "class")
      value = value
        .trim()
        .split(/\s+/)
        .slice(0, lean ? 2 : MAX_CLASSES)
        .join(" ");
    if (lean && key === "title" && name !== "html") {
      delete el.attribs[k];
      continue;
    }
    if (lean && key === "style" && !/display\s*:\s*none|visibility\s*:\s*hidden/i.test(value)) {
      delete el.attribs[k];
      continue;
    }
    if (lean && (key === "href" || key === "src") && value.length > 120)
      value = value.replace(/[?#].*$/, "").slice(0, 120);
    if (key === "content" && value.length > 600) value = trimText(value, 600);
    el.attribs[k] = value;
  }
}

function pruneLd(value: unknown, depth = 0): unknown {
  if (depth > 6) return undefined;
  if (typeof value === "string") return value.length > LD_MAX_STRING ? undefined : value;
  if (Array.isArray(value))
    return value
      .slice(0, 3)
      .map((v) => pruneLd(v, depth + 1))
      .filter((v) => v !== undefined);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const p = pruneLd(v, depth + 1);
      if (p !== undefined) out[k] = p;
    }
    return out;
  }
  return value;
}

function scriptBody(el: Element): string {
  if ((el.attribs["type"] ?? "").toLowerCase() !== "application/ld+json") return "";
  const text = el.children.map((c) => (c instanceof Text ? c.data : "")).join("");
  try {
    return JSON.stringify(pruneLd(JSON.parse(text))).replace(/<\//g, "<\\/");
  } catch {
    return "";
  }
}

function trimText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return (space > max * 0.6 ? cut.slice(0, space) : cut) + " …";
}

function textLength(n: ChildNode): number {
  if (n instanceof Text) return n.data.trim().length;
  if (!isElement(n)) return 0;
  let total = 0;
  for (const c of n.children) total += textLength(c);
  return total;
}

function setChildren(parent: ParentNode, children: ChildNode[]): void {
  parent.children = children;
  children.forEach((c, i) => {
    c.parent = parent;
    c.prev = children[i - 1] ?? null;
    c.next = children[i + 1] ?? null;
  });
}

function outerSize(n: ChildNode): number {
  return getOuterHTML(n, { encodeEntities: "utf8" }).length;
}

/** The first pass: what goes whatever the size (comments, script/style bodies, SVG drawing, attributes, whitespace). */
function clean(parent: ParentNode, keepWs: boolean, lean: boolean): void {
  const kept: ChildNode[] = [];
  for (const c of parent.children) {
    if (c instanceof Comment) continue;
    if (c.type === "directive" || c.type === "cdata") {
      if (c.type === "directive") kept.push(c);
      continue;
    }
    if (c instanceof Text) {
      if (!keepWs) c.data = c.data.replace(/[ \t\f\r]*\n\s*/g, "\n").replace(/[ \t\f\r]{2,}/g, " ");
      kept.push(c);
      continue;
    }
    if (!isElement(c)) continue;
    const name = c.name.toLowerCase();
    if (lean && leanDrops(c)) continue;
    cleanAttributes(c, lean);
    if (name === "script" || name === "style") {
      const body = name === "script" ? scriptBody(c) : "";
      setChildren(c, body ? [new Text(body)] : []);
      kept.push(c);
      continue;
    }
    if (name === "svg") {
      setChildren(
        c,
        c.children.filter((k) => isElement(k) && SVG_KEEP.has(k.name.toLowerCase())),
      );
      kept.push(c);
      continue;
    }
    if (
      name === "link" &&
      /\b(stylesheet|preload|prefetch|dns-prefetch|preconnect|modulepreload|icon|apple-touch-icon|manifest)\b/i.test(
        c.attribs["rel"] ?? "",
      )
    )
      continue;
    clean(c, keepWs || RAW_KEEP_WS.has(name), lean);
    kept.push(c);
  }
  setChildren(parent, kept);
}

function signature(el: Element): string {
  return `${el.name.toLowerCase()}.${(el.attribs["class"] ?? "").trim().split(/\s+/)[0] ?? ""}`;
}

/** Truncates runs of like siblings and long text nodes, under `limits`. */
function shrink(parent: ParentNode, limits: Limits, inRaw: boolean): void {
  const groups = new Map<string, Element[]>();
  // running text with inline elements (a paragraph's links, a sentence's code spans) is no run of items
  const ownText = parent.children.reduce((n, c) => n + (c instanceof Text ? c.data.trim().length : 0), 0);
  if (ownText <= 20)
    for (const c of parent.children) {
      if (isElement(c)) {
        const s = signature(c);
        const g = groups.get(s);
        if (g) g.push(c);
        else groups.set(s, [c]);
      }
    }
  const drop = new Set<ChildNode>();
  for (const [sig, els] of groups) {
    const tag = sig.slice(0, sig.indexOf("."));
    if (
      tag === "head" ||
      tag === "body" ||
      tag === "html" ||
      tag === "meta" ||
      tag === "link" ||
      tag === "script" ||
      tag === "style" ||
      tag === "tbody"
    )
      continue;
    let limit = ROW_TAGS.has(tag) ? limits.rows : PARAGRAPH_TAGS.has(tag) ? limits.paragraphs : limits.items;
    if (els.length > limits.bigBlocks && tag !== "p") {
      const sizes = els.slice(0, 8).map(outerSize);
      if (sizes.reduce((a, b) => a + b, 0) / sizes.length > 1500) limit = Math.min(limit, limits.bigBlocks);
    }
    if (els.length <= limit) continue;
    // only typical members of the run go: one holding far more text than its like siblings (the
    // article among classless wrapper divs) is no repeated item
    const lengths = els.map((el) => textLength(el));
    const median = [...lengths].sort((a, b) => a - b)[Math.floor(lengths.length / 2)] ?? 0;
    els.forEach((el, i) => {
      if (i >= limit && (lengths[i] ?? 0) <= Math.max(2 * median, 200)) drop.add(el);
    });
  }
  const kept: ChildNode[] = [];
  let lastDropped = false;
  for (const c of parent.children) {
    if (drop.has(c)) {
      lastDropped = true;
      continue;
    }
    // whitespace between two dropped siblings goes with them
    if (lastDropped && c instanceof Text && !c.data.trim()) continue;
    lastDropped = false;
    kept.push(c);
  }
  setChildren(parent, kept);
  for (const c of parent.children) {
    if (c instanceof Text) {
      if (!inRaw && c.data.length > limits.text) c.data = trimText(c.data, limits.text);
    } else if (isElement(c)) {
      const name = c.name.toLowerCase();
      if (name !== "script" && name !== "style") shrink(c, limits, inRaw || RAW_KEEP_WS.has(name));
    }
  }
}

/** A page (already decoded) cut down to a fixture. */
export function cutHtml(html: string, options: CutOptions = {}): string {
  const target = options.targetBytes ?? DEFAULT_TARGET_BYTES;
  let out = "";
  for (const limits of LEVELS) {
    const doc = parseDocument(html, { decodeEntities: true });
    clean(doc, false, limits.lean ?? false);
    shrink(doc, limits, false);
    const body = getOuterHTML(doc.children, { encodeEntities: "utf8" })
      .replace(/\n{3,}/g, "\n\n")
      .trim();
    out = `${options.source ? `<!-- source: ${options.source} -->\n` : ""}${body}\n`;
    if (Buffer.byteLength(out) <= target) break;
  }
  return out;
}

/** Page bytes (.html or gzipped) cut down to a fixture. */
export function cutPage(bytes: Uint8Array, options: CutOptions = {}): string {
  return cutHtml(decodeHtml(bytes, options.httpCharset ?? null).html, options);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  if (!args.length || args.includes("--help") || args.includes("-h")) {
    process.stdout.write(
      "Usage: node --import tsx scripts/cut-page.ts PAGE(.html|.html.gz) [--source LABEL] [--target BYTES]\nWrites the cut-down page on stdout.\n",
    );
    process.exit(args.length ? 0 : 2);
  }
  const at = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const source = at("--source");
  const target = at("--target");
  const file = args.find(
    (a, i) => !a.startsWith("--") && !["--source", "--target"].includes(args[i - 1] ?? ""),
  ) as string;
  process.stdout.write(
    cutPage(readFileSync(file), {
      ...(source ? { source } : {}),
      ...(target ? { targetBytes: Number(target) } : {}),
    }),
  );
}
