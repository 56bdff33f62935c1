/**
 * Page types the router and the per-type models use. wcxb-dev gives real page types
 * (article, service, product, collection, forum, listing, documentation); the other sets give
 * a genre, mapped here: news and blog pages are articles, forum pages are forums, "other" is
 * unknown (not used to train the router, routed like any page at inference).
 */
import type { PageRecord } from "./page-record.ts";

export const PAGE_TYPES = [
  "article",
  "collection",
  "documentation",
  "forum",
  "listing",
  "product",
  "service",
] as const;
export type PageType = (typeof PAGE_TYPES)[number];

const GENRE_TYPE: Record<string, PageType> = { news: "article", blog: "article", forum: "forum" };

/** The page type of a labeled page, or null when the set does not say. */
export function pageTypeOf(rec: Pick<PageRecord, "pageType" | "genre">): PageType | null {
  if ((PAGE_TYPES as readonly string[]).includes(rec.pageType)) return rec.pageType as PageType;
  return GENRE_TYPE[rec.genre] ?? null;
}
