import assert from "node:assert/strict";
import { test } from "node:test";
import { signatureId } from "../src/dom/records.ts";
import { pathSignatures } from "../src/pipeline/context/path-signature.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { SnapshotNode } from "../src/types.ts";
import { pageFromHtml } from "./helpers.ts";

/** Signature of the first element with this id. */
function sigOf(html: string, id: string): number {
  const snap = staticSnapshot(pageFromHtml(html));
  const i = snap.nodes.findIndex((n) => n.attrs?.["id"] === id);
  assert.ok(i >= 0, `element #${id} exists`);
  return pathSignatures(snap)[i] as number;
}

/** An element node of a snapshot, for signatureId. */
function el(tag: string, cls?: string): SnapshotNode {
  return { type: 1, tag, parent: -1, visible: true, ...(cls === undefined ? {} : { attrs: { class: cls } }) };
}

test("path step: tag and sorted class names without digits or case", () => {
  assert.equal(signatureId(el("div", "post-1234 post")), signatureId(el("div", "post post-98")));
  assert.equal(signatureId(el("div", "Post post-98")), signatureId(el("div", "post post-98")));
  assert.equal(signatureId(el("p")), signatureId(el("p", "  ")));
  assert.notEqual(signatureId(el("div", "post")), signatureId(el("section", "post")));
  assert.notEqual(signatureId(el("div", "post")), signatureId(el("div", "post body")));
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
    if (n.type === 3 && n.parent >= 0)
      assert.equal(sig[i], sig[n.parent], "a text node takes its parent's signature");
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
