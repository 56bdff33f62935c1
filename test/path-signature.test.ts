import assert from "node:assert/strict";
import { test } from "node:test";
import { pathSignatures, pathStep } from "../src/pipeline/path-signature.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { pageFromHtml } from "./helpers.ts";

/** Signature of the first element with this id. */
function sigOf(html: string, id: string): number {
  const snap = staticSnapshot(pageFromHtml(html));
  const i = snap.nodes.findIndex((n) => n.attrs?.["id"] === id);
  assert.ok(i >= 0, `element #${id} exists`);
  return pathSignatures(snap)[i] as number;
}

test("path step: tag and sorted class names without digits", () => {
  assert.equal(pathStep("div", "post-1234 post"), "div.post.post-");
  assert.equal(pathStep("div", "post post-98"), "div.post.post-");
  assert.equal(pathStep("p", undefined), "p");
  assert.equal(pathStep("p", "  "), "p");
});

test("path signatures: template copies share one, other paths do not", () => {
  const html = `<html><body>
    <div class="post post-1"><div class="body"><p id="a">First post text.</p></div></div>
    <div class="post post-2"><div class="body"><p id="b">Second post text.</p></div></div>
    <div class="sidebar"><div class="body"><p id="c">Sidebar text.</p></div></div>
    <div class="post post-3"><section class="body"><p id="d">Another template.</p></section></div>
  </body></html>`;
  assert.equal(sigOf(html, "a"), sigOf(html, "b"), "two posts differing only in a numbered class");
  assert.notEqual(sigOf(html, "a"), sigOf(html, "c"), "an ancestor's class differs");
  assert.notEqual(sigOf(html, "a"), sigOf(html, "d"), "an ancestor's tag differs");
  const snap = staticSnapshot(pageFromHtml(html));
  const sig = pathSignatures(snap);
  snap.nodes.forEach((n, i) => {
    if (n.type === 3 && n.parent >= 0) assert.equal(sig[i], sig[n.parent], "a text node takes its parent's signature");
  });
});

test("path signatures: a 10,000-level page does not overflow the stack", () => {
  const depth = 10_000;
  const html = `<html><body>${"<div>".repeat(depth)}<p id="deep">deep text</p>${"</div>".repeat(depth)}</body></html>`;
  const snap = staticSnapshot(pageFromHtml(html));
  const sig = pathSignatures(snap);
  assert.equal(sig.length, snap.nodes.length);
  assert.ok(sig.some((s) => s !== 0));
});
