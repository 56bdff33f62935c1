/**
 * Refresh redirects of a fetched page: `<meta http-equiv="refresh" content="0; url=/next">` in its
 * markup or a `Refresh: 0; url=/next` header. Sites use them where they cannot send an HTTP
 * redirect (static hosting, moved pages, URL shorteners), and the page a user means is the one
 * they lead to, which a browser shows after the delay. The fetch follows them like redirects
 * (src/io/fetch.ts: the same count, loop check, credentials rule and time limit).
 *
 * Choices (the HTML standard's "shared declarative refresh steps" parse the content; which
 * refreshes to follow is ours):
 * - Only a refresh to another URL, within MAX_REFRESH_DELAY_S: a page that reloads itself every
 *   few minutes (news front pages: `content="300"`) is read as it stands, and so is one that
 *   moves on after a long pause (a slideshow's next slide). Scrapy's MetaRefreshMiddleware
 *   follows up to 100 s; 30 s keeps "you will be redirected in 10 seconds" and leaves the rest.
 * - Only http(s) targets; a refresh elsewhere (javascript:, file:) is not followed and the page
 *   is read as it stands (it has content of its own, unlike an HTTP redirect's empty body).
 * - A `<meta>` inside `<noscript>`, `<script>`, `<template>` or a comment does not count: the
 *   first sends clients without JavaScript to a "please enable JavaScript" page while the markup
 *   itself holds the content, the others are not markup. Scrapy ignores the same.
 * - Only the first REFRESH_SCAN_CHARS characters are read (a refresh belongs in the head; a
 *   10 MB page is not scanned), as UTF-8: the target is a URL, ASCII on the pages that use one.
 */

/** Refreshes with a longer delay are not followed (seconds). */
export const MAX_REFRESH_DELAY_S = 30;
/** How much of a page is searched for a refresh `<meta>` (characters). */
export const REFRESH_SCAN_CHARS = 32_768;

/**
 * Regions whose `<meta>` does not count: comments, and the insides of noscript, script, template and style.
 */
const NOT_MARKUP = /<!--[\s\S]*?(?:-->|$)|<(noscript|script|template|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi;
const META = /<meta\b([^>]*)>/gi;
const ATTRIBUTE = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/** The refresh a page asks for: its delay (s) and target URL as written (null: reload itself). */
export interface Refresh {
  delay: number;
  url: string | null;
}

/**
 * The content of a refresh header or `<meta>` parsed as the HTML standard says: a delay (digits,
 * then digits and dots that are ignored), then optionally `;` or `,`, `url=` and the URL,
 * quoted or not. Null when it is not a refresh (no delay).
 */
export function parseRefresh(content: string): Refresh | null {
  const m = /^[\t\n\f\r ]*(\d+)[\d.]*[\t\n\f\r ]*(?:[;,][\t\n\f\r ]*)?(.*)$/s.exec(content);
  if (!m) return null;
  const delay = Number(m[1]);
  let rest = m[2] as string;
  const named = /^url[\t\n\f\r ]*=[\t\n\f\r ]*/i.exec(rest);
  if (named) rest = rest.slice(named[0].length);
  else if (/^url$/i.test(rest.trim())) return { delay, url: null };
  const quote = rest[0] === '"' || rest[0] === "'" ? rest[0] : null;
  if (quote) {
    const end = rest.indexOf(quote, 1);
    rest = end < 0 ? rest.slice(1) : rest.slice(1, end);
  }
  const url = rest.trim();
  return { delay, url: url === "" ? null : url };
}

/** The content of the page's refresh `<meta>` (the first one outside NOT_MARKUP), or null. */
export function metaRefreshContent(html: string): string | null {
  const head = html.slice(0, REFRESH_SCAN_CHARS).replace(NOT_MARKUP, " ");
  for (const m of head.matchAll(META)) {
    let equiv: string | null = null;
    let content: string | null = null;
    for (const a of (m[1] as string).matchAll(ATTRIBUTE)) {
      const name = (a[1] as string).toLowerCase();
      const value = a[2] ?? a[3] ?? a[4] ?? "";
      if (name === "http-equiv" && equiv === null) equiv = value;
      else if (name === "content" && content === null) content = value;
    }
    if (equiv?.trim().toLowerCase() === "refresh" && content !== null) return decodeEntities(content);
  }
  return null;
}

/** The few character references a refresh URL holds in practice (`&amp;` between query parameters). */
function decodeEntities(s: string): string {
  return s.replace(
    /&(amp|quot|apos|lt|gt|#(\d+)|#x([0-9a-f]+));/gi,
    (all, name: string, dec?: string, hex?: string) => {
      if (dec) return String.fromCodePoint(Math.min(Number(dec), 0x10ffff));
      if (hex) return String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff));
      return { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">" }[name.toLowerCase()] ?? all;
    },
  );
}

/**
 * Where the page's refresh leads, when the fetch should follow it (see the header): an http(s)
 * URL other than the page's own, within MAX_REFRESH_DELAY_S; else null. The `Refresh` header
 * counts before the markup, as in browsers.
 */
export function refreshTarget(header: string | null, html: string, from: URL): URL | null {
  const content = header ?? metaRefreshContent(html);
  const refresh = content === null ? null : parseRefresh(content);
  if (!refresh || refresh.url === null || refresh.delay > MAX_REFRESH_DELAY_S) return null;
  let next: URL;
  try {
    next = new URL(refresh.url, from);
  } catch {
    return null;
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") return null;
  next.username = "";
  next.password = "";
  next.hash = "";
  return next.href === from.href ? null : next;
}
