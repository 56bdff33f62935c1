/** Region features (src/features/region.ts): main heading, repeated siblings, prices; linear on deep pages. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { computeFeatures, featureValue } from "../src/features/index.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { PageSnapshot } from "../src/types.ts";
import { deeplyNested, pageFromHtml } from "./helpers.ts";

function snap(html: string): PageSnapshot {
  return staticSnapshot(pageFromHtml(html));
}

const SHOP = `<html><head><title>Running shoes | Shop</title></head><body>
<nav id="menu"><ul><li><a href="/a">Men</a></li><li><a href="/b">Women</a></li><li><a href="/c">Kids</a></li></ul></nav>
<main><h1 id="h">Running shoes</h1><div class="grid">
<div class="card c1" id="first"><p>Trail runner one</p><p class="price">$120</p></div>
<div class="card c2"><p>Road runner two</p><p class="price">$99.50</p></div>
<div class="card c3"><p>Track spike three</p><p class="price">€80</p></div>
<div class="card c4"><p>Racer four</p><p class="price">85 EUR</p></div>
</div></main><footer id="foot"><p>Copyright shop</p></footer></body></html>`;

function rowWhere(page: PageSnapshot, nodes: Int32Array, pred: (i: number) => boolean): number {
  const r = [...nodes].findIndex(pred);
  assert.ok(r >= 0, "row not found");
  return r;
}

test("region: heading side and common ancestor, repeated cards, prices", () => {
  const page = snap(SHOP);
  const t = computeFeatures(page, buildTree(page));
  const id = (x: string) => (i: number) => page.nodes[i]!.attrs?.["id"] === x;
  const menu = rowWhere(page, t.nodes, id("menu"));
  const card = rowWhere(page, t.nodes, id("first"));
  const foot = rowWhere(page, t.nodes, id("foot"));
  assert.equal(featureValue(t, menu, "reg_heading_side"), -1);
  assert.equal(featureValue(t, card, "reg_heading_side"), 1);
  assert.equal(featureValue(t, foot, "reg_heading_side"), 1);
  // the card shares <main> with the heading; the footer only <body>
  assert.ok(featureValue(t, card, "reg_heading_lca_share") < featureValue(t, foot, "reg_heading_lca_share"));
  assert.equal(featureValue(t, card, "reg_heading_lca_up"), 2);
  // four cards whose classes differ only by digits: 3 same-signature siblings each
  assert.equal(featureValue(t, card, "reg_sig_siblings"), 3);
  assert.equal(featureValue(t, card, "reg_sig_share"), 1);
  assert.equal(featureValue(t, card, "reg_prices"), 1);
  const grid = rowWhere(page, t.nodes, (i) => page.nodes[i]!.attrs?.["class"] === "grid");
  assert.equal(featureValue(t, grid, "reg_prices"), 4);
  // a paragraph inside a card sees the card run one level up
  const p = rowWhere(
    page,
    t.nodes,
    (i) => page.nodes[i]!.tag === "p" && page.nodes[page.nodes[i]!.parent]!.attrs?.["id"] === "first",
  );
  assert.equal(featureValue(t, p, "reg_repeat_max"), 3);
  assert.equal(featureValue(t, p, "reg_repeat_level"), 1);
});

test("region: no h1/h2 gives NaN heading columns; a 10,000-deep page computes", () => {
  const page = snap("<html><body><div><p>Just a paragraph of text here.</p></div></body></html>");
  const t = computeFeatures(page, buildTree(page));
  for (let r = 0; r < t.nodes.length; r++) assert.ok(Number.isNaN(featureValue(t, r, "reg_heading_side")));
  const deep = snap(deeplyNested(10_000).replace("<body>", "<body><h1>Deep title</h1>"));
  const td = computeFeatures(deep, buildTree(deep));
  assert.ok(td.nodes.length > 0);
});
