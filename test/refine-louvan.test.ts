import assert from "node:assert/strict";
import test from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { nodesForBlocks, textBlocks } from "../src/refine/blocks.ts";
import { largestBlock } from "../src/refine/largest-block.ts";
import { lengthArray, lengthSmoothing, smooth, standardDeviation } from "../src/refine/length-smoothing.ts";
import { tablePattern } from "../src/refine/table-pattern.ts";
import type { PageSnapshot } from "../src/types.ts";
import { fixtureText, pageFromHtml } from "./helpers.ts";

function load(html: string) {
  const page = staticSnapshot(pageFromHtml(html));
  const tree = buildTree(page);
  return { page, tree, view: textBlocks(page, tree) };
}

function byId(page: PageSnapshot, id: string): number {
  const i = page.nodes.findIndex((n) => n.attrs?.["id"] === id);
  assert.ok(i >= 0, `no #${id}`);
  return i;
}

test("blocks: one per leaf element, runs of inline content split at block children, links measured", () => {
  const { page, view } = load(
    `<html><body><div id="d">Intro <b>bold</b> text<p>Para <a href="/x">link</a>.</p>tail</div><ul><li><a href="/">Home</a></li></ul></body></html>`,
  );
  assert.deepEqual(
    view.blocks.map((b) => b.text),
    ["Intro bold text", "Para link.", "tail", "Home"],
  );
  const d = byId(page, "d");
  assert.deepEqual(
    view.blocks.map((b) => b.container),
    [d, d, d, view.blocks[3]?.container],
  );
  assert.equal(view.blocks[0]?.parts.length, 3, "text, <b>, text");
  assert.deepEqual(
    view.blocks.map((b) => b.linkLength),
    [0, 4, 0, 4],
  );
  // SLS empty cells: div (1) before "Intro", ul + li (2) before "Home".
  assert.deepEqual(
    view.blocks.map((b) => b.gap),
    [1, 0, 0, 2],
  );
});

test("nodesForBlocks: a fully kept element stands for its blocks; partial runs give their parts", () => {
  const { page, tree, view } = load(
    `<html><body><div id="d">Intro <b>bold</b><p>Para.</p></div><p id="o">Other</p></body></html>`,
  );
  assert.deepEqual(nodesForBlocks(view, [0, 1]), [byId(page, "d")]);
  const only = nodesForBlocks(view, [0]);
  assert.equal(textOf(page, tree, only).replace(/\n/g, " "), "Intro bold");
  assert.deepEqual(nodesForBlocks(view, []), []);
});

test("LBS keeps the sibling group with most text: the article, not the menu or footer", () => {
  const { page, tree, view } = load(fixtureText("refine/article.html"));
  const r = largestBlock(view);
  assert.deepEqual(r.nodes, [byId(page, "article")]);
  assert.deepEqual(r.kept, [1, 2, 3, 4, 5, 6]);
  const text = textOf(page, tree, r.nodes);
  assert.ok(
    text.startsWith("First sentence") &&
      text.includes("Photo: AP") &&
      !text.includes("Menu") &&
      !text.includes("Copyright"),
  );
  const dropped = r.trace.filter((t) => t.action === "drop").map((t) => t.text);
  assert.deepEqual(dropped, ["Menu", "Copyright 17"]);
});

test("SLS (hand-computed): array [0,4,0,120,120,9,120,120,120,0,12], σ = 57.78", () => {
  const { view } = load(fixtureText("refine/article.html"));
  const arr = lengthArray(view);
  assert.deepEqual([...arr.values], [0, 4, 0, 120, 120, 9, 120, 120, 120, 0, 12]);
  assert.ok(Math.abs(standardDeviation(arr.values) - 57.78) < 0.01);
  assert.deepEqual([...smooth(new Float64Array([3, 0, 6]), 1)], [1, 3, 2]);
  // r = 1: the short caption between long paragraphs is lifted to 83 and kept; menu (1.3) and footer (4) dropped.
  const r1 = lengthSmoothing(view, { radius: 1, stdOf: "raw" });
  assert.deepEqual(r1.kept, [1, 2, 3, 4, 5, 6]);
  // r = 2: the first paragraph sits next to two empty cells and the menu: (4+0+120+120+9)/5 = 50.6 < σ.
  const r2 = lengthSmoothing(view, { radius: 2, stdOf: "raw" });
  assert.deepEqual(r2.kept, [2, 3, 4, 5, 6]);
  assert.match(r2.trace.find((t) => t.text.startsWith("First"))?.reason ?? "", /50\.6 < threshold 57\.8/);
  // Defaults (r = 3, σ of the smoothed curve = 21.49): on a page this short the window reaches
  // the menu (34.86) and the footer (36.0), so everything is kept.
  assert.deepEqual(lengthSmoothing(view).kept, [0, 1, 2, 3, 4, 5, 6, 7]);
});

test("TP finds the repeated post structure and drops the intro, navigation and thread title", () => {
  const { page, tree, view } = load(fixtureText("refine/forum.html"));
  const r = tablePattern(view);
  const posts = page.nodes.flatMap((n, i) => (n.attrs?.["class"]?.startsWith("post ") ? [i] : []));
  assert.equal(posts.length, 3);
  assert.deepEqual(r.nodes, posts);
  assert.equal(textOf(page, tree, r.nodes).split("\n").length, 6);
  assert.match(r.trace[0]?.reason ?? "", /3 × div\.post\.post-0/);
});

test("TP: a layout row holding the whole thread does not beat the posts (score = text − largest member)", () => {
  // body > 3 × div.row: header (6), content (title 12 + posts 30 + 25 + 20), footer (9).
  // Rows: total 102, largest 87 → score 15. Posts: total 75, largest 30 → score 45.
  const { page, view } = load(`<html><body><div class="row">Header</div><div class="row"><h2>Thread title</h2>
<div class="post">${"a".repeat(30)}</div><div class="post">${"b".repeat(25)}</div><div class="post">${"c".repeat(20)}</div></div>
<div class="row">Footer 17</div></body></html>`);
  const r = tablePattern(view);
  assert.deepEqual(
    r.nodes,
    page.nodes.flatMap((n, i) => (n.attrs?.["class"] === "post" ? [i] : [])),
  );
  assert.match(r.trace[0]?.reason ?? "", /3 × div\.post\[\|\|\], 75 chars \(score 45\)/);
});

test("TP without a repeated structure: fallback all (refiner default) or none", () => {
  const { view } = load(
    `<html><body><div id="a"><p>Only one paragraph of text here.</p></div></body></html>`,
  );
  assert.deepEqual(tablePattern(view).kept, [0]);
  assert.deepEqual(tablePattern(view, { fallback: "none" }).kept, []);
});

test("refiners on an empty view return nothing, without throwing", () => {
  const { view } = load(`<html><body><div></div></body></html>`);
  assert.equal(view.blocks.length, 0);
  for (const r of [largestBlock(view), lengthSmoothing(view), tablePattern(view)])
    assert.deepEqual(r, { kept: [], nodes: [], trace: [] });
});
