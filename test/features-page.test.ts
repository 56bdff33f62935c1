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
  assert.deepEqual(pageMeta("<p>plain</p>"), { canonicalUrl: null, ogType: null, schemaTypes: [] });
  assert.equal(pageMeta(`<link rel="canonical" href="/relative">`).canonicalUrl, null);
  assert.equal(pageMeta(`<meta property="og:url" content="https://a.example/x">`).canonicalUrl, "https://a.example/x");
  const broken = `<script type="application/ld+json">{"@type": ["Article", "@type": </script><meta name=og:type`;
  assert.deepEqual(pageMeta(broken).schemaTypes, []);
  assert.equal(pageMeta("\u0000\u0001<meta".repeat(1000)).ogType, null);
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
  const forum = staticSnapshot(pageFromHtml("<html><body><p>Reply text</p></body></html>", "f", "https://forum.example/t/why-is-my-build-slow/12345?page=2"));
  const tf = computeFeatures(forum, buildTree(forum));
  assert.equal(featureValue(tf, 0, "page_url_forum"), 1);
  assert.equal(featureValue(tf, 0, "page_url_numeric_id"), 1);
  assert.equal(featureValue(tf, 0, "page_url_paged"), 1);
  assert.equal(featureValue(tf, 0, "page_url_depth"), 3);
});
