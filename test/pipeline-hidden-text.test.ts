/**
 * Markup-hidden text as candidates (src/pipeline/hidden-text.ts, src/features/hidden.ts): static
 * models read collapsed accordions, tabs and FAQ answers hidden by markup, never what is not
 * page text at all (scripts, templates, hidden inputs, escaped markup in <noscript>), and the
 * snapshot the other extractors read is left as rendered.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";
import { computeFeatures, featureSchema } from "../src/features/index.ts";
import { revealMarkupHidden } from "../src/pipeline/hidden-text.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { PageSnapshot } from "../src/types.ts";
import { pageFromHtml } from "./helpers.ts";

const HTML = `<!doctype html><html><head><title>t</title><style>.x{}</style></head><body>
<h1>Frequently asked questions</h1>
<div class="faq"><button>What is it?</button><div class="answer" style="display: none"><p>An answer in a collapsed accordion.</p></div></div>
<div hidden><p>A tab panel not selected yet.</p></div>
<span aria-hidden="true">decorative duplicate</span>
<template><p>template content</p></template>
<input type="hidden" value="token">
<noscript><img src="pixel.gif"></noscript><noscript>&lt;img src="escaped.gif"&gt;</noscript>
<script>var inScript = "script text";</script>
<p>Visible paragraph.</p>
</body></html>`;

const text = (page: PageSnapshot): string => textOf(page, buildTree(page), [0]);

test("the view shows markup-hidden text and nothing that is not page text; the snapshot itself is unchanged", () => {
  const snap = staticSnapshot(pageFromHtml(HTML));
  const before = text(snap);
  const view = revealMarkupHidden(snap);
  const shown = text(view);
  for (const s of ["An answer in a collapsed accordion.", "A tab panel not selected yet.", "decorative duplicate", "Visible paragraph."]) assert.ok(shown.includes(s), `view shows "${s}"`);
  for (const s of ["template content", "token", "escaped.gif", "script text", ".x{}"]) assert.ok(!shown.includes(s), `view hides "${s}"`);
  assert.ok(!before.includes("collapsed accordion") && !before.includes("tab panel") && !before.includes("decorative"), "the rendered snapshot still hides them");
  assert.equal(text(snap), before, "revealing does not modify its input");
  assert.equal(view.nodes.length, snap.nodes.length, "same nodes, same indices: a chosen node means the same in both");
  assert.equal(revealMarkupHidden(view), view, "a view is revealed once");
});

test("Chromium snapshots are read as rendered (their visibility is the page's CSS)", () => {
  const snap: PageSnapshot = { ...staticSnapshot(pageFromHtml(HTML)), mode: "chromium" };
  assert.equal(revealMarkupHidden(snap), snap);
});

test("hid_* features say which markup hid a node, itself or through an ancestor", () => {
  const view = revealMarkupHidden(staticSnapshot(pageFromHtml(HTML)));
  const table = computeFeatures(view, buildTree(view));
  const names = featureSchema().names;
  const W = names.length;
  const col = (n: string) => names.indexOf(n);
  const rows = Array.from(table.nodes);
  // the structural node that owns the text: the text node's nearest ancestor-or-self with a row
  const row = (needle: string): number => {
    let i = view.nodes.findIndex((n) => n.type === 3 && (n.text ?? "").includes(needle));
    while (i >= 0 && !rows.includes(i)) i = view.nodes[i]?.parent ?? -1;
    assert.ok(i >= 0, `a row for "${needle}"`);
    return rows.indexOf(i);
  };
  const flags = (needle: string) => ["hid_attr", "hid_aria", "hid_style"].map((n) => table.values[row(needle) * W + col(n)]);
  assert.deepEqual(flags("collapsed accordion"), [0, 0, 1]);
  assert.deepEqual(flags("tab panel"), [1, 0, 0]);
  assert.deepEqual(flags("decorative duplicate"), [0, 1, 0]);
  assert.deepEqual(flags("Visible paragraph"), [0, 0, 0]);
});
