/**
 * Site keys for grouping labeled pages: the registrable-looking host (domain without "www."),
 * so that every fold holds out whole sites. Pages without a domain are their own site.
 */
import type { DatasetPage } from "../io/dataset.ts";

export function siteOf(page: Pick<DatasetPage, "dataset" | "id" | "domain" | "url">): string {
  if (page.domain) return page.domain.toLowerCase().replace(/^www\./, "");
  if (page.url) {
    try {
      return new URL(page.url).hostname.replace(/^www\./, "");
    } catch {
      /* not a URL */
    }
  }
  return `page:${page.dataset}/${page.id}`;
}
