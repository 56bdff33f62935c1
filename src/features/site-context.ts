/**
 * Site context for dataset pages: pages grouped by their dataset `domain` (DatasetPage.domain);
 * each page's context holds the OTHER pages of its domain (Alarte et al. 2018 and Debnath et al.
 * 2005 need pages of the same site). Pages without a domain, or alone on theirs, get none.
 */
import type { PageSnapshot, SiteContext } from "../types.ts";

export interface SitePage {
  domain: string | null;
  snapshot: PageSnapshot;
}

export function siteContextFor(pages: readonly SitePage[]): Map<PageSnapshot, SiteContext> {
  const byDomain = new Map<string, PageSnapshot[]>();
  for (const p of pages) {
    if (!p.domain) continue;
    const list = byDomain.get(p.domain) ?? [];
    list.push(p.snapshot);
    byDomain.set(p.domain, list);
  }
  const out = new Map<PageSnapshot, SiteContext>();
  for (const [domain, list] of byDomain) {
    if (list.length < 2) continue;
    for (const s of list) out.set(s, { domain, pages: list.filter((q) => q !== s) });
  }
  return out;
}
