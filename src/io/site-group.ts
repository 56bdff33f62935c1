/**
 * Which pages belong to the same site: the URL's host without "www.", or, for local files
 * without a URL, the directory they sit in. Used to build SiteContext for the site-level
 * methods and features from a batch of inputs.
 */
import { dirname } from "node:path";
import type { PageSnapshot, SiteContext } from "../types.ts";

export function siteKey(page: Pick<PageSnapshot, "url" | "source">): string {
  if (page.url) {
    try {
      return new URL(page.url).hostname.replace(/^www\./, "");
    } catch {
      /* not a URL: fall through */
    }
  }
  return `dir:${dirname(page.source)}`;
}

/** Group snapshots by site; each page's context holds the OTHER pages of its site. */
export function siteContexts(pages: readonly PageSnapshot[]): Map<PageSnapshot, SiteContext> {
  const bySite = new Map<string, PageSnapshot[]>();
  for (const p of pages) {
    const k = siteKey(p);
    const list = bySite.get(k) ?? [];
    list.push(p);
    bySite.set(k, list);
  }
  const out = new Map<PageSnapshot, SiteContext>();
  for (const [domain, list] of bySite)
    for (const p of list) out.set(p, { domain, pages: list.filter((q) => q !== p) });
  return out;
}
