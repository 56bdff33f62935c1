/**
 * Which pages belong to the same site: the URL's host without "www.", or, for local files
 * without a URL, the directory they sit in. Used to build SiteContext for the site-level
 * methods and features from a batch of inputs.
 */
import { dirname } from "node:path";
import type { PageSnapshot, SiteContext } from "../types.ts";

/**
 * Pages of one site a batch (or a labeled set) must hold before the learned pipeline computes
 * the site features and uses its site-aware model: the key page and at least two others, so
 * that a node's occurrence count can tell one sibling's accident from the site's template
 * (Alarte et al. 2018 map a key page into an n-SET of several pages; docs/site.md).
 */
export const SITE_MIN_PAGES = 3;

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

/**
 * Each item's site key and the OTHER items of its site, in input order, for the sites with at
 * least `minPages` items (the others are left out of the map).
 */
export function siteSiblings<T>(
  items: readonly T[],
  key: (item: T) => string,
  minPages = 1,
): Map<T, { domain: string; others: T[] }> {
  const bySite = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = bySite.get(k) ?? [];
    list.push(item);
    bySite.set(k, list);
  }
  const out = new Map<T, { domain: string; others: T[] }>();
  for (const [domain, list] of bySite) {
    if (list.length < minPages) continue;
    for (const item of list) out.set(item, { domain, others: list.filter((q) => q !== item) });
  }
  return out;
}

/**
 * Group snapshots by site; each page's context holds the OTHER pages of its site (only sites
 * with at least `minPages` pages get one).
 */
export function siteContexts(pages: readonly PageSnapshot[], minPages = 1): Map<PageSnapshot, SiteContext> {
  const out = new Map<PageSnapshot, SiteContext>();
  for (const [p, { domain, others }] of siteSiblings(pages, siteKey, minPages))
    out.set(p, { domain, pages: others });
  return out;
}
