/**
 * Page-kind features: what the page says it is (Open Graph type, schema.org types from JSON-LD
 * and microdata, src/render/page-meta.ts) and what its URL path looks like (/product/…,
 * /category/…, /forum/…, /docs/…, /2024/05/…). The same value on every row of a page: the
 * page-type router reads them through its per-page means, and each content model can condition
 * its node decisions on the kind of page (a link list is the content of a listing and the noise
 * of an article).
 *
 * Motivation (pith, measured): the router that picks a page-type model saw only aggregates of
 * node features and sent 42 of wcxb-dev's 98 listing pages and 36 of its 92 product pages to
 * the general model (models/default-static.cv.txt, "routing"). Page-kind markup is an explicit
 * signal for that decision.
 *
 * Choices: the URL is the snapshot's own (dataset index, fetched URL), else the canonical URL the
 * page declares (local files), else the URL columns are NaN. Path segments are matched whole
 * against the token tables below (lower-cased, split on "/", "-" and "_" too, so
 * "/product-category/shoes" counts as product and collection). The tables are generic web
 * conventions, not tuned to any dataset's sites.
 */
import type { PageSnapshot } from "../types.ts";
import { percentDecoded } from "../dom/urls.ts";
import { def, skipRow, type FeatureDef, type FeatureFamily, type PageFacts } from "./registry.ts";

/** schema.org types grouped by the page kind they declare. */
export const SCHEMA_KINDS: Record<string, readonly string[]> = {
  article: [
    "Article",
    "NewsArticle",
    "BlogPosting",
    "Blog",
    "Report",
    "ScholarlyArticle",
    "LiveBlogPosting",
    "OpinionNewsArticle",
    "AnalysisNewsArticle",
    "ReportageNewsArticle",
    "Recipe",
  ],
  product: [
    "Product",
    "ProductGroup",
    "IndividualProduct",
    "ProductModel",
    "Offer",
    "AggregateOffer",
    "Vehicle",
    "Car",
    "SoftwareApplication",
    "Book",
  ],
  collection: ["CollectionPage", "ItemList", "OfferCatalog", "SearchResultsPage", "ListItem"],
  forum: ["DiscussionForumPosting", "QAPage", "Question", "Answer", "SocialMediaPosting", "Comment"],
  docs: ["TechArticle", "APIReference", "SoftwareSourceCode", "HowTo", "Course"],
  service: [
    "Service",
    "LocalBusiness",
    "ProfessionalService",
    "Organization",
    "Corporation",
    "FAQPage",
    "ContactPage",
    "AboutPage",
    "Event",
  ],
  breadcrumb: ["BreadcrumbList"],
};

/** og:type values grouped (anything else present counts as "other"). */
export const OG_KINDS: Record<string, readonly string[]> = {
  article: ["article", "blog", "news", "article:article"],
  product: ["product", "og:product", "product.item", "product.group"],
  website: ["website", "webpage"],
};

/** URL path tokens grouped by the page kind they suggest. */
export const URL_KINDS: Record<string, readonly string[]> = {
  product: ["product", "products", "p", "dp", "item", "items", "sku", "buy", "shop", "store"],
  collection: [
    "category",
    "categories",
    "collection",
    "collections",
    "c",
    "cat",
    "tag",
    "tags",
    "topics",
    "archive",
    "archives",
    "search",
    "browse",
    "brand",
    "brands",
    "catalog",
    "catalogue",
    "list",
    "listing",
    "listings",
    "department",
  ],
  forum: [
    "forum",
    "forums",
    "thread",
    "threads",
    "t",
    "topic",
    "discussion",
    "discussions",
    "community",
    "questions",
    "question",
    "q",
    "answers",
    "viewtopic",
    "showthread",
    "board",
    "boards",
    "r",
  ],
  docs: [
    "docs",
    "doc",
    "documentation",
    "api",
    "reference",
    "guide",
    "guides",
    "manual",
    "wiki",
    "help",
    "kb",
    "learn",
    "tutorial",
    "tutorials",
    "howto",
    "faq",
    "support",
  ],
  article: [
    "blog",
    "blogs",
    "news",
    "article",
    "articles",
    "story",
    "stories",
    "post",
    "posts",
    "press",
    "insights",
    "opinion",
  ],
  service: [
    "services",
    "service",
    "solutions",
    "pricing",
    "about",
    "contact",
    "company",
    "features",
    "careers",
    "industries",
  ],
};

const PREFIX = "page_";
const YEAR_MONTH = /\/(?:19|20)\d\d\/(?:0?[1-9]|1[0-2])(?:\/|$)/;
const PAGINATION = /(?:[?&](?:page|p|pg|start|offset)=\d+)|\/page\/\d+/i;
const LONG_NUMBER = /^\d{4,}$/;

function kindDefs(): FeatureDef[] {
  const P = "pith";
  return [
    ...Object.keys(SCHEMA_KINDS).map((k) =>
      def(
        `${PREFIX}schema_${k}`,
        `schema.org types of kind ${k} declared (JSON-LD @type, microdata itemtype)`,
        P,
      ),
    ),
    def(`${PREFIX}schema_types`, "distinct schema.org types declared", P),
    ...Object.keys(OG_KINDS).map((k) => def(`${PREFIX}og_${k}`, `og:type is ${k}-like (1/0)`, P)),
    def(`${PREFIX}og_other`, "og:type present but none of the known kinds (1/0)", P),
    ...Object.keys(URL_KINDS).map((k) =>
      def(`${PREFIX}url_${k}`, `URL path segments that are ${k} tokens (NaN without a URL)`, P),
    ),
    def(`${PREFIX}url_depth`, "URL path segments (NaN without a URL)", P),
    def(`${PREFIX}url_date`, "URL path has a /YYYY/MM/ date (NaN without a URL)", P),
    def(`${PREFIX}url_paged`, "URL names a page number (?page=2, /page/2) (NaN without a URL)", P),
    def(`${PREFIX}url_slug_words`, "words in the last path segment's slug (NaN without a URL)", P),
    def(`${PREFIX}url_numeric_id`, "URL path has a segment of 4+ digits (NaN without a URL)", P),
    def(`${PREFIX}url_query`, "URL has a query string (NaN without a URL)", P),
  ];
}

/** The URL the URL columns describe (see the header), or null. */
export function pageUrl(page: PageSnapshot): URL | null {
  for (const raw of [page.url, page.meta?.canonicalUrl]) {
    if (!raw) continue;
    try {
      return new URL(raw);
    } catch {
      /* try the next */
    }
  }
  return null;
}

/** Values of the page-kind columns, by name (NaN where unknown). */
export function pageKindValues(page: PageSnapshot): Map<string, number> {
  const out = new Map<string, number>();
  const types = page.meta?.schemaTypes ?? [];
  for (const [k, names] of Object.entries(SCHEMA_KINDS))
    out.set(`${PREFIX}schema_${k}`, page.meta ? types.filter((t) => names.includes(t)).length : NaN);
  out.set(`${PREFIX}schema_types`, page.meta ? types.length : NaN);
  const og = page.meta?.ogType ?? null;
  let known = false;
  for (const [k, values] of Object.entries(OG_KINDS)) {
    const hit = og !== null && values.includes(og);
    known ||= hit;
    out.set(`${PREFIX}og_${k}`, page.meta ? (hit ? 1 : 0) : NaN);
  }
  out.set(`${PREFIX}og_other`, page.meta ? (og !== null && !known ? 1 : 0) : NaN);
  const url = pageUrl(page);
  const path = url ? percentDecoded(url.pathname).toLowerCase() : "";
  const segments = path.split("/").filter(Boolean);
  const tokens = segments.flatMap((s) => {
    const parts = s.split(/[-_.]/);
    return parts.length > 1 ? [s, ...parts] : [s];
  });
  for (const [k, names] of Object.entries(URL_KINDS))
    out.set(`${PREFIX}url_${k}`, url ? tokens.filter((t) => names.includes(t)).length : NaN);
  const last = segments[segments.length - 1] ?? "";
  out.set(`${PREFIX}url_depth`, url ? segments.length : NaN);
  out.set(`${PREFIX}url_date`, url ? (YEAR_MONTH.test(path) ? 1 : 0) : NaN);
  out.set(`${PREFIX}url_paged`, url ? (PAGINATION.test(url.pathname + url.search) ? 1 : 0) : NaN);
  out.set(
    `${PREFIX}url_slug_words`,
    url
      ? last
          .replace(/\.[a-z0-9]{1,5}$/, "")
          .split(/[-_+]/)
          .filter((w) => /[a-z]/.test(w)).length
      : NaN,
  );
  out.set(`${PREFIX}url_numeric_id`, url ? (segments.some((s) => LONG_NUMBER.test(s)) ? 1 : 0) : NaN);
  out.set(`${PREFIX}url_query`, url ? (url.search.length > 1 ? 1 : 0) : NaN);
  return out;
}

export const pageFamily: FeatureFamily = {
  family: "page",
  defs: kindDefs(),
  fill(facts: PageFacts, out) {
    const values = pageKindValues(facts.page);
    for (const [name, v] of values) {
      const c = out.col(name);
      for (let r = 0; r < facts.rows.length; r++) if (!skipRow(facts, r)) out.set(r, c, v);
    }
  },
};
