/**
 * Links and image sources in Markdown and HTML output are made absolute when the page's own URL
 * is known, so an extraction shown or stored away from its page still points where the page
 * pointed. The page URL is the one it was fetched from (a URL input, a WARC record, a dataset
 * page), else its `<link rel=canonical>` (a saved page names itself there; pith's per-domain
 * model lookup reads the same two). The base is the document's first `<base href>` resolved
 * against that URL, as a browser reads it, else the URL itself; only http(s) bases count (a local
 * file that names no URL keeps its links as written).
 */
import type { PageSnapshot } from "../types.ts";

/**
 * A URL or a part of one with its percent-escapes read (`caf%C3%A9` → `café`, `s%40cret` →
 * `s@cret`), or as it is when they are not UTF-8 (decodeURIComponent would throw). Shared by the
 * URL features, the fetcher's credentials and --out file names.
 */
export function percentDecoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The URL relative links of `page` resolve against, or null when there is none. */
export function baseUrl(page: PageSnapshot): string | null {
  const own = page.url ?? page.meta?.canonicalUrl ?? null;
  if (!own) return null;
  let base: URL;
  try {
    base = new URL(own);
  } catch {
    return null;
  }
  const tag = page.nodes.find((n) => n.type === 1 && n.tag === "base" && n.attrs?.["href"] !== undefined);
  if (tag) {
    try {
      base = new URL((tag.attrs?.["href"] as string).trim(), base);
    } catch {
      // a <base href> that is no URL is ignored, as browsers do
    }
  }
  return base.protocol === "http:" || base.protocol === "https:" ? base.href : null;
}

/** `url` resolved against `base` (unchanged without a base, or when it does not parse). */
export function absoluteUrl(url: string, base: string | null): string {
  if (!base) return url;
  try {
    return new URL(url.trim(), base).href;
  } catch {
    return url;
  }
}
