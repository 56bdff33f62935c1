/** Page-kind metadata (src/render/page-meta.ts) and features (src/features/page.ts). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { computeFeatures, featureValue } from "../src/features/index.ts";
import { pageMeta } from "../src/render/page-meta.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { pageFromHtml } from "./helpers.ts";

const PRODUCT = `<html><head><title>Trail shoe</title>
<meta property="og:type" content="Product"><link rel="alternate" href="/fr"><link href="https://shop.example/p/trail-shoe-2" rel="canonical">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Product","name":"Trail shoe","offers":{"@type":["Offer"]}},{"@type":"BreadcrumbList"}]}</script>
<script>var x = {"@type": "NotLd"};</script>
</head><body><div itemscope itemtype=https://schema.org/Review lang=en><p>Great shoe for trails.</p></div></body></html>`;

test("pageMeta: og:type, canonical URL, JSON-LD and microdata types (not other scripts)", () => {
  const m = pageMeta(PRODUCT);
  assert.equal(m.ogType, "product");
  assert.equal(m.canonicalUrl, "https://shop.example/p/trail-shoe-2");
  assert.deepEqual(m.schemaTypes, ["Product", "Offer", "BreadcrumbList", "Review"]);
});

test("pageMeta: nothing declared, relative canonical, og:url fallback, garbage", () => {
  const none = {
    description: null,
    author: null,
    published: null,
    modified: null,
    siteName: null,
    image: null,
  };
  assert.deepEqual(
    pageMeta("<p>plain</p>"),
    { canonicalUrl: null, ogType: null, schemaTypes: [] },
    "declared metadata only when asked",
  );
  assert.deepEqual(pageMeta("<p>plain</p>", { declared: true }), {
    canonicalUrl: null,
    ogType: null,
    schemaTypes: [],
    declared: none,
  });
  assert.equal(pageMeta(`<link rel="canonical" href="/relative">`).canonicalUrl, null);
  assert.equal(
    pageMeta(`<meta property="og:url" content="https://a.example/x">`).canonicalUrl,
    "https://a.example/x",
  );
  const broken = `<script type="application/ld+json">{"@type": ["Article", "@type": </script><meta name=og:type`;
  assert.deepEqual(pageMeta(broken).schemaTypes, []);
  assert.equal(pageMeta("\u0000\u0001<meta".repeat(1000)).ogType, null);
});

test("pageMeta declared: Open Graph before <meta name> before JSON-LD, a URL is no author, references and JSON escapes decoded, nothing guessed", () => {
  const head = `<meta name="description" content="Plain &amp; simple"><meta property="og:description" content="  The OG
  summary "><meta property="article:author" content="https://facebook.com/someone"><meta name="author" content="Ana P&eacute;rez">
<meta itemprop="datePublished" content="2024-01-02"><meta property="og:site_name" content="River News"><meta property="og:image" content="/lead.jpg">
<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2023-05-06T07:08:09Z","dateModified":"2023-06-01",
"author":[{"@type":"Person","name":"Caf\u00e9 Writer"}],"publisher":{"@type":"Organization","name":"LD Pub"}}</script>`;
  assert.deepEqual(pageMeta(head, { declared: true }).declared, {
    description: "The OG summary",
    author: "Ana Pérez",
    published: "2024-01-02",
    modified: "2023-06-01",
    siteName: "River News",
    image: "/lead.jpg",
  });
  const ldOnly = `<script type="application/ld+json">{"@type":"BlogPosting","author":{"@type":"Person","name":"Caf\u00e9 \/ Writer"},"datePublished":"2023-05-06","publisher":{"@type":"Organization","name":"LD Pub"},"description":"From LD"}</script>`;
  assert.deepEqual(pageMeta(ldOnly, { declared: true }).declared, {
    description: "From LD",
    author: "Café / Writer",
    published: "2023-05-06",
    modified: null,
    siteName: "LD Pub",
    image: null,
  });
  assert.equal(
    pageMeta(`<meta property="article:author" content="https://facebook.com/x"><p>By Someone, May 3</p>`, {
      declared: true,
    }).declared?.author,
    null,
    "no byline read from text",
  );
  assert.equal(
    pageMeta(`<script type="application/ld+json">{"author": "Solo Name", "datePublished": </script>`, {
      declared: true,
    }).declared?.author,
    "Solo Name",
  );
});

test("pageMeta declared, real-world JSON-LD: @graph, nested objects before the name, several authors, the work's description over a photo's, long values, comments and '>' in values", () => {
  const ld = (o: unknown) => `<script type="application/ld+json">${JSON.stringify(o)}</script>`;
  const graph = ld({
    "@graph": [
      { "@type": "Organization", name: "Org", description: "The organisation" },
      {
        "@type": "NewsArticle",
        headline: "H",
        image: { "@type": "ImageObject", description: "Photo caption" },
        description: "Article summary",
        datePublished: "2024-05-06",
        author: [
          { "@type": "Person", image: { "@type": "ImageObject", url: "u" }, name: "Ann Lee" },
          "Bo Chan",
        ],
        publisher: { "@type": "Organization", logo: { "@type": "ImageObject", url: "l" }, name: "Pub Name" },
      },
    ],
  });
  const d = pageMeta(graph, { declared: true }).declared;
  assert.deepEqual(
    [d?.description, d?.author, d?.siteName, d?.published],
    ["Article summary", "Ann Lee, Bo Chan", "Pub Name", "2024-05-06"],
  );
  const broken = `<script type="application/ld+json">{"author":{"@type":"Person","image":{"@type":"ImageObject","url":"u"},"name":"Nested Author"}, "x": </script>`;
  assert.equal(
    pageMeta(broken, { declared: true }).declared?.author,
    "Nested Author",
    "invalid JSON: the regular expressions step over one nested object",
  );
  const long =
    pageMeta(ld({ "@type": "Article", headline: "h", description: "word ".repeat(400) }), { declared: true })
      .declared?.description ?? "";
  assert.ok(long.length > 900 && long.length <= 1000, `a long description is cut, not lost (${long.length})`);
  const img = `https://cdn.example/i.jpg?${"sig=abc&".repeat(200)}w=800`;
  assert.equal(
    pageMeta(`<meta property="og:image" content="${img}">`, { declared: true }).declared?.image,
    img,
    "a long URL is kept whole",
  );
  assert.equal(
    pageMeta(
      `<!-- <meta name="author" content="Commented Out"> --><meta name="author" content="Real Author">`,
      { declared: true },
    ).declared?.author,
    "Real Author",
  );
  assert.equal(
    pageMeta(`<meta name="description" content="Prices: 5 > 3 and more">`, { declared: true }).declared
      ?.description,
    "Prices: 5 > 3 and more",
  );
  assert.equal(
    pageMeta(`<meta name="description" content="x?a=1&copy=2 &amp; &copy; y">`, { declared: true }).declared
      ?.description,
    "x?a=1&copy=2 & © y",
    "attribute rules: a reference before '=' stays",
  );
});

test("page features: every row carries the page's kind; URL columns from the canonical URL, NaN without any", () => {
  const page = staticSnapshot(pageFromHtml(PRODUCT));
  const t = computeFeatures(page, buildTree(page));
  assert.ok(t.nodes.length > 1);
  for (let r = 0; r < t.nodes.length; r++) {
    assert.equal(featureValue(t, r, "page_schema_product"), 2); // Product + Offer
    assert.equal(featureValue(t, r, "page_og_product"), 1);
    assert.equal(featureValue(t, r, "page_url_product"), 1); // "/p/"
    assert.equal(featureValue(t, r, "page_url_slug_words"), 2); // "trail-shoe-2": "2" is no word
  }
  const bare = staticSnapshot(pageFromHtml("<html><body><p>Just some words here.</p></body></html>"));
  const tb = computeFeatures(bare, buildTree(bare));
  assert.ok(Number.isNaN(featureValue(tb, 0, "page_url_depth")));
  assert.equal(featureValue(tb, 0, "page_schema_types"), 0);
  const forum = staticSnapshot(
    pageFromHtml(
      "<html><body><p>Reply text</p></body></html>",
      "f",
      "https://forum.example/t/why-is-my-build-slow/12345?page=2",
    ),
  );
  const tf = computeFeatures(forum, buildTree(forum));
  assert.equal(featureValue(tf, 0, "page_url_forum"), 1);
  assert.equal(featureValue(tf, 0, "page_url_numeric_id"), 1);
  assert.equal(featureValue(tf, 0, "page_url_paged"), 1);
  assert.equal(featureValue(tf, 0, "page_url_depth"), 3);
});
