import assert from "node:assert/strict";
import test from "node:test";
import { cnrExtract, computeCnr, mergeBlocks } from "../src/algorithms/cnr.ts";
import { buildTree } from "../src/dom/tree.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { ExtractorContext, PageSnapshot } from "../src/types.ts";
import { deeplyNested, fixtureText, hugePage, pageFromHtml } from "./helpers.ts";

const fox = staticSnapshot(pageFromHtml(fixtureText("cnr/fox.html")));

function byId(page: PageSnapshot, id: string): number {
  const i = page.nodes.findIndex((n) => n.attrs?.["id"] === id);
  assert.ok(i >= 0, `no #${id}`);
  return i;
}

function chosen(page: PageSnapshot, params: ExtractorContext["params"]): number[] {
  return cnrExtract(page, params ? { params } : {}).nodes;
}

test("Algorithm 1 (hand-computed): links weigh 1 and count 0; whitespace is not counted", () => {
  const t = computeCnr(fox, buildTree(fox));
  const at = (id: string) => byId(fox, id);
  assert.deepEqual([t.weight[at("article")], t.textLength[at("article")]], [7, 349]); // div + h1,#t + p,#t + p,#t; 13+300+36
  assert.equal(t.cnr[at("p1")], 150);
  assert.deepEqual([t.weight[at("nav")], t.textLength[at("nav")]], [21, 0]); // ul + 10×(li + a)
  // html + body + nav 21 + article 7 + footer 3 + the newline text node after </html>
  assert.deepEqual([t.weight[0], t.textLength[0]], [34, 369]);
});

test("Algorithm 2: sibling blocks are replaced by their parent, bottom-up to a fixpoint", () => {
  const tree = buildTree(fox);
  const [p1, p2, footer] = [byId(fox, "p1"), byId(fox, "p2"), byId(fox, "footer")];
  const article = byId(fox, "article");
  assert.deepEqual(mergeBlocks(tree, [p1, p2, footer + 1]).blocks, [article, footer + 1]);
  assert.deepEqual(
    mergeBlocks(tree, [p1, p2, article + 1, footer]).blocks,
    [1],
    "article and footer are siblings: both merge into <body>",
  );
  assert.deepEqual(mergeBlocks(tree, [p1, p2], 3).blocks, [p1, p2]);
});

test("CNR picks the article div, not the navigation or the footer", () => {
  // Largest CNR 300 (p1's text), threshold 0.1 × 300 = 30: p2's text (36) and p1 select their
  // <p>, the article (349 / 7 = 49.9) is selected itself; <body> (369 / 32 = 11.5) is not.
  const r = cnrExtract(fox);
  assert.deepEqual(r.nodes, [byId(fox, "article")]);
  assert.match(
    r.text,
    /^Sandusky trial\nThe man identified .* a\.\nHe said he had been in foster care for years\.$/,
  );
  assert.equal(r.trace.at(-1)?.action, "keep");
  assert.match(r.trace.at(-1)?.reason ?? "", /349 chars of 3 selected nodes/);
  // A lower threshold (0.05 × 300 = 15) also selects the footer's <p> (20 chars): a second block, dropped.
  const low = cnrExtract(fox, { params: { top: 0.05 } });
  assert.deepEqual(low.nodes, [byId(fox, "article")]);
  assert.ok(
    low.trace.some((e) => e.action === "drop" && e.text === "Published June 13, 2012"),
    "the footer block is traced as dropped",
  );
});

test("the precision/recall knob moves the chosen block toward the leaves or the root", () => {
  assert.deepEqual(chosen(fox, { bias: "precision" }), [byId(fox, "p1")]);
  assert.deepEqual(chosen(fox, { bias: "recall" }), [1]); // <body>
  assert.deepEqual(chosen(fox, { levels: 2 }), [0]);
  // top = 0.2 (threshold 60): p1 (text 300, CNR 150) alone is selected — a block nearer the leaves.
  assert.deepEqual(chosen(fox, { top: 0.2 }), [byId(fox, "p1")]);
  assert.throws(() => cnrExtract(fox, { params: { bias: "maybe" } }), /bias must be/);
});

test("no text, a single node, or only link text: empty result with a reason", () => {
  for (const html of [
    "",
    "<html><body><div><img src=x></div></body></html>",
    `<html><body><nav><a href="/">Only links</a></nav></body></html>`,
  ]) {
    const r = cnrExtract(staticSnapshot(pageFromHtml(html)));
    assert.deepEqual(r.nodes, []);
    assert.equal(r.text, "");
    assert.ok(r.emptyReason, `empty reason for ${JSON.stringify(html)}`);
  }
  // the page shows "Only links": not a page without visible text (runExtractor's reason) but text CNR does not count
  assert.match(
    cnrExtract(
      staticSnapshot(pageFromHtml(`<html><body><nav><a href="/">Only links</a></nav></body></html>`)),
    ).emptyReason ?? "",
    /^no text outside links, menus and media/,
  );
});

test("10,000-level nesting and 100,000 nodes: no overflow (speed is measured by the benchmarks, not here)", () => {
  const deep = staticSnapshot(pageFromHtml(deeplyNested(10_000)));
  const d = cnrExtract(deep);
  assert.equal(d.text, "deep text at the bottom");
  const big = staticSnapshot(pageFromHtml(hugePage(3_600_000)));
  assert.ok(big.nodes.length > 100_000, `${big.nodes.length} nodes`);
  const b = cnrExtract(big);
  assert.ok(b.text.length > 3_000_000 * 0.5);
});
