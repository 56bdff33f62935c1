/** Equal top-down mapping and occurrence counters (Alarte et al. 2018, Algorithm 1) on hand-computed trees. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { staticSnapshot } from "../src/render/static.ts";
import { buildTree } from "../src/dom/tree.ts";
import { equalTopDownMapping, occurrenceCounts } from "../src/site/mapping.ts";
import { pageFromHtml } from "./helpers.ts";

const snap = (body: string, id: string) =>
  staticSnapshot(pageFromHtml(`<html><body>${body}</body></html>`, id));

// A: 0 html, 1 body, 2 div#nav, 3 a, 4 "Home", 5 a, 6 "News", 7 div.post, 8 p, 9 "alpha", 10 p, 11 "beta"
const A = snap(
  `<div id="nav"><a href="/">Home</a><a href="/n">News</a></div><div class="post"><p>alpha</p><p>beta</p></div>`,
  "A",
);
// B: same template, other link text, paragraphs "beta" and "gamma"
const B = snap(
  `<div id="nav"><a href="/">Home</a><a href="/s">Sport</a></div><div class="post"><p>beta</p><p>gamma</p></div>`,
  "B",
);
// C: nav shared, the post container is a <section>
const C = snap(`<div id="nav"><a href="/">Home</a></div><section class="post"><p>alpha</p></section>`, "C");

test("ETDM maps equal nodes top-down: tag, attributes and own text", () => {
  assert.deepEqual([...equalTopDownMapping(A, B)], [0, 1, 2, 3, 4, -1, -1, 7, -1, -1, 8, 9]);
  assert.deepEqual([...equalTopDownMapping(A, C)], [0, 1, 2, 3, 4, -1, -1, -1, -1, -1, -1, -1]);
});

test("occurrence counts = number of other pages where each node is mapped", () => {
  assert.deepEqual([...occurrenceCounts(A, buildTree(A), [B, C])], [2, 2, 2, 2, 2, 0, 0, 1, 0, 0, 1, 1]);
  assert.deepEqual([...occurrenceCounts(A, buildTree(A), [])], new Array(12).fill(0));
  // the page itself in the list is skipped
  assert.deepEqual([...occurrenceCounts(A, buildTree(A), [A, B])], [1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 1, 1]);
});

test("equal siblings map one-to-one in document order", () => {
  const x = snap(`<ul><li>x</li><li>x</li></ul>`, "x"); // 0 html 1 body 2 ul 3 li 4 x 5 li 6 x
  const y = snap(`<ul><li>x</li></ul>`, "y");
  assert.deepEqual([...equalTopDownMapping(x, y)], [0, 1, 2, 3, 4, -1, -1]);
});

test("a node is never mapped below an unmapped parent (top-down)", () => {
  const x = snap(`<div class="a"><p>same</p></div>`, "x");
  const y = snap(`<div class="b"><p>same</p></div>`, "y");
  assert.deepEqual([...equalTopDownMapping(x, y, "attributes")], [0, 1, -1, -1, -1], "class compared");
  assert.deepEqual([...equalTopDownMapping(x, y, "id")], [0, 1, 2, 3, 4], "class ignored");
  assert.deepEqual([...equalTopDownMapping(x, y)], [0, 1, 2, 3, 4], "default: tag and own text only");
  const z = snap(`<div id="z" class="a"><p>same</p></div>`, "z");
  assert.deepEqual([...equalTopDownMapping(x, z, "id")], [0, 1, -1, -1, -1], "id compared");
});

test("10,000-level nesting maps without overflow", () => {
  const deep = (t: string, id: string) =>
    staticSnapshot(
      pageFromHtml(
        `<html><body>${"<div>".repeat(10_000)}<p>${t}</p>${"</div>".repeat(10_000)}</body></html>`,
        id,
      ),
    );
  const a = deep("bottom one", "a");
  const b = deep("bottom two", "b");
  const tree = buildTree(a);
  const counts = occurrenceCounts(a, tree, [b]);
  const p = a.nodes.findIndex((n) => n.tag === "p");
  assert.equal(counts[p - 1], 1, "deepest div is mapped");
  assert.equal(counts[p], 0, "the paragraph with other text is not");
});
