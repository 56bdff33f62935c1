/** Link-target features (src/features/links.ts): where a node's link words point, with and without a page URL. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { computeFeatures, featureValue, type FeatureTable } from "../src/features/index.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { PageSnapshot } from "../src/types.ts";
import { deeplyNested, pageFromHtml } from "./helpers.ts";

const PAGE = `<html><head><title>Trail shoes</title></head><body>
<nav id="menu"><a href="/">Home page</a> <a href="/men">Men shoes</a> <a href="https://shop.example.com/sale?x=1">Big sale</a></nav>
<main><h1>Trail shoes</h1>
<p id="body">Our trail shoe, reviewed by <a href="https://lab.other.org/report/7">an independent lab</a>, grips wet rock.</p>
<ul id="toc"><li><a href="#fit">Fit notes</a></li><li><a href="/shoes/trail">Trail shoes</a></li></ul>
<div id="grid"><div class="card"><p id="card1"><a href="/shoes/road-runner">Road runner two</a> for roads</p></div>
<div class="card"><p><a href="track?c=2">Track spike</a></p></div>
<div class="card"><p><a href="//www.example.com/shoes/racer/">Racer four</a></p></div></div>
<p id="mail"><a href="mailto:a@example.com">Write to us</a> or <a href="javascript:void(0)">chat now</a></p>
</main></body></html>`;

/** Feature tables hold float32. */
function eq(actual: number, expected: number, message?: string): void {
  assert.equal(actual, Math.fround(expected), message);
}

function table(html: string, url: string | null): { page: PageSnapshot; t: FeatureTable; row: (id: string) => number } {
  const page = staticSnapshot(pageFromHtml(html, "links", url));
  const t = computeFeatures(page, buildTree(page));
  const row = (id: string) => {
    const r = [...t.nodes].findIndex((i) => page.nodes[i]!.attrs?.["id"] === id);
    assert.ok(r >= 0, `row #${id} not found`);
    return r;
  };
  return { page, t, row };
}

test("links: words are shared out by target kind against the page's URL", () => {
  const { t, row } = table(PAGE, "https://www.example.com/shoes/trail");
  const menu = row("menu");
  // 6 words: "Home page" and "Men shoes" are section links; "Big sale" is a subdomain of the same site with a query
  eq(featureValue(t, menu, "lnk_section"), 4 / 6);
  eq(featureValue(t, menu, "lnk_external"), 0);
  eq(featureValue(t, menu, "lnk_internal"), 2 / 6);
  const body = row("body");
  eq(featureValue(t, body, "lnk_external"), 3 / 11);
  eq(featureValue(t, body, "lnk_internal"), 0);
  // "#fit" and a link to the page itself are in-page
  eq(featureValue(t, row("toc"), "lnk_in_page"), 1);
  // same depth and first segment as /shoes/trail: relative, root-relative and protocol-relative alike
  eq(featureValue(t, row("grid"), "lnk_same_shape"), 7 / 9);
  eq(featureValue(t, row("card1"), "lnk_same_shape"), 3 / 5);
  // its third ancestor is <main>: 32 words, the 7 same-shaped ones in the grid
  eq(featureValue(t, row("card1"), "lnk_anc3_same_shape"), 7 / 32);
  // mailto: and javascript: links count in no kind
  const mail = row("mail");
  for (const k of ["in_page", "external", "section", "same_shape", "internal"]) eq(featureValue(t, mail, `lnk_${k}`), 0, k);
});

test("links: without a URL, same-shaped is unknown and the dominant absolute host stands for the page's", () => {
  const absolute = PAGE.replace(/href="\//g, 'href="https://example.com/');
  const { t, row } = table(absolute, null);
  assert.ok(Number.isNaN(featureValue(t, row("grid"), "lnk_same_shape")));
  eq(featureValue(t, row("menu"), "lnk_external"), 0);
  eq(featureValue(t, row("body"), "lnk_external"), 3 / 11);
  // mostly relative links and no URL: the page's host is unknown, so every absolute link is external
  const { t: t2, row: row2 } = table(PAGE, null);
  eq(featureValue(t2, row2("menu"), "lnk_external"), 2 / 6);
  // a canonical link gives the URL back
  const canonical = PAGE.replace("<title>", '<link rel="canonical" href="https://example.com/shoes/trail"><title>');
  const { t: t3, row: row3 } = table(canonical, null);
  eq(featureValue(t3, row3("grid"), "lnk_same_shape"), 7 / 9);
});

test("links: a 10,000-deep page computes", () => {
  const deep = staticSnapshot(pageFromHtml(deeplyNested(10_000).replace("<body>", '<body><a href="https://other.org/">out</a>'), "deep", "https://example.com/"));
  const td = computeFeatures(deep, buildTree(deep));
  assert.ok(td.nodes.length > 0);
  assert.ok(featureValue(td, 0, "lnk_external") > 0);
});
