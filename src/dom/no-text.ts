/**
 * Why a page has no visible text, with what to try. A page whose body is empty but which carries
 * scripts is usually an application shell that a script fills after load (a single-page app, a
 * forum that fetches its posts from an API). Static mode never runs scripts, so the reason says
 * how to: Chromium with JavaScript on (and network, which a local file does not get unless
 * asked). Scripts are counted in static snapshots only: a Chromium snapshot does not record
 * whether its scripts ran. A document whose top element is a feed's or a sitemap's (a URL that
 * was not a page) says so instead, a page that only sends the browser on (`<meta
 * http-equiv="refresh" content="0; url=…">`, which pith does not follow) names where, and a
 * frameset (or, without scripts, a page that only embeds others in iframes) names the frames
 * that hold its content.
 *
 * These are page-level facts, the same for every method: runExtractor (src/extractors.ts) asks
 * pageEmptyReason once before any extractor runs, for `pith extract` and `pith evaluate` alike.
 */
import { nextWordStart } from "./text.ts";
import { silentMask } from "./silent.ts";
import { absoluteUrl, baseUrl } from "./urls.ts";
import type { PageSnapshot, SnapshotNode } from "../types.ts";

/** `<script type>` values that hold code a browser runs (absent or empty: JavaScript). */
const CODE_TYPES = new Set([
  "",
  "module",
  "text/javascript",
  "application/javascript",
  "text/ecmascript",
  "application/ecmascript",
]);

/** Script elements of the page that a browser would run (not JSON-LD, templates or other data). */
export function codeScripts(page: PageSnapshot): number {
  let n = 0;
  for (const node of page.nodes)
    if (
      node.type === 1 &&
      node.tag === "script" &&
      CODE_TYPES.has((node.attrs?.["type"] ?? "").trim().toLowerCase())
    )
      n++;
  return n;
}

/** Top elements of XML documents that are not pages, and what they are. */
const NON_PAGE_ROOTS: ReadonlyMap<string, string> = new Map([
  ["rss", "an RSS feed"],
  ["rdf:rdf", "an RSS 1.0 (RDF) feed"],
  ["feed", "an Atom feed"],
  ["urlset", "a sitemap"],
  ["sitemapindex", "a sitemap index"],
]);

/** What the document is when its first element inside <html> / <body> is a NON_PAGE_ROOTS one, else null. */
export function nonPageDocument(page: PageSnapshot): string | null {
  const wrappers = new Set<number>();
  for (let i = 0; i < page.nodes.length; i++) {
    const node = page.nodes[i] as SnapshotNode;
    if (node.type !== 1 || (node.parent !== -1 && !wrappers.has(node.parent))) continue; // not a top element
    if (node.tag === "html" || node.tag === "body") wrappers.add(i);
    else if (node.tag !== "head") return NON_PAGE_ROOTS.get(node.tag) ?? null;
  }
  return null;
}

/**
 * Why the document is no page to extract from (a feed, a sitemap), or null. Checked before any
 * extractor reads text: a feed's items are text a parser shows (in the <body> it implies), and
 * extracting them would call a feed a page.
 */
export function notAPageReason(page: PageSnapshot): string | null {
  const kind = nonPageDocument(page);
  return kind ? `not an HTML page: the document is ${kind}` : null;
}

/** An inline style that hides an element (a tracking iframe's `display:none`). */
const HIDING_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/**
 * Sources of the page's `tag` elements (frame or iframe) that can show content: visible, not
 * hidden by their own style (the extractor may have revealed hidden elements), with a real URL.
 */
function frameSources(page: PageSnapshot, tag: string): string[] {
  const out: string[] = [];
  for (const node of page.nodes) {
    if (
      node.type !== 1 ||
      node.tag !== tag ||
      !node.visible ||
      HIDING_STYLE.test(node.attrs?.["style"] ?? "")
    )
      continue;
    const src = node.attrs?.["src"]?.trim();
    if (src && !src.startsWith("about:") && !src.startsWith("javascript:")) out.push(src);
  }
  return out;
}

/** How many frames to name in a reason. */
const NAMED_FRAMES = 3;

function framesReason(frames: readonly string[]): string {
  const named = frames.slice(0, NAMED_FRAMES).join(", ") + (frames.length > NAMED_FRAMES ? ", …" : "");
  return (
    `the page has no visible text of its own: its content is in ` +
    `${frames.length} frame${frames.length === 1 ? "" : "s"} (${named}); extract those pages`
  );
}

/** The empty-extraction reason of a page without visible text. */
export function noVisibleTextReason(page: PageSnapshot): string {
  const notAPage = notAPageReason(page);
  if (notAPage) return notAPage;
  const frameset = frameSources(page, "frame");
  if (frameset.length) return framesReason(frameset);
  const refresh = page.meta?.refreshUrl;
  // resolved as the page's links are (its URL, canonical link, <base href>); a saved file's stays as written
  if (refresh)
    return (
      `the page has no visible text: it sends the browser to ${absoluteUrl(refresh, baseUrl(page))} ` +
      `(<meta http-equiv="refresh">); extract that page`
    );
  const scripts = page.mode === "static" ? codeScripts(page) : 0;
  if (scripts > 0)
    return (
      `the page has no visible text, but ${scripts} script${scripts === 1 ? "" : "s"} that may build it: ` +
      `try --mode chromium --js (and --network for a local file)`
    );
  const iframes = frameSources(page, "iframe");
  return iframes.length ? framesReason(iframes) : "the page has no visible text";
}

/**
 * Does the page show a word (dom/text.ts WORD: a letter or digit) in a visible text node outside
 * the elements no extractor reads as content (dom/blocks.ts NON_CONTENT_TAGS: script, form
 * controls, svg, …)? The learned pipeline's own test of an empty page (its word ownership,
 * src/pipeline/own-text.ts), asked here for every method.
 */
export function hasVisibleWords(page: PageSnapshot): boolean {
  const silent = silentMask(page.nodes);
  return page.nodes.some(
    (n, i) => silent[i] === 0 && n.type === 3 && !!n.text && nextWordStart(n.text, 0) >= 0,
  );
}

/**
 * Why no method should extract from the page, or null: the document is no page (a feed, a
 * sitemap), or `view` shows no word. `view` is the snapshot the method reads: the page itself,
 * or the page with its markup-hidden text revealed for a model that reads that text
 * (src/pipeline/hidden-text.ts). The reason is about the page as rendered in both cases.
 */
export function pageEmptyReason(page: PageSnapshot, view: PageSnapshot = page): string | null {
  return notAPageReason(page) ?? (hasVisibleWords(view) ? null : noVisibleTextReason(page));
}
