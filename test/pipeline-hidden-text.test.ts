/**
 * Markup-hidden text as candidates (src/pipeline/hidden-text.ts, src/features/hidden.ts): static
 * models read collapsed accordions, tabs and FAQ answers hidden by markup, never what is not
 * page text at all (scripts, templates, hidden inputs, escaped markup in <noscript>), and the
 * snapshot the other extractors read is left as rendered.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { oracle } from "../src/evaluate/oracle.ts";
import { formatExtraction } from "../src/output/index.ts";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";
import { computeFeatures, featureSchema } from "../src/features/index.ts";
import { revealMarkupHidden } from "../src/pipeline/hidden-text.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { Extraction, PageSnapshot } from "../src/types.ts";
import { fixturePath, fixtureText, pageFromHtml, pith, tempDir } from "./helpers.ts";

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
  for (const s of [
    "An answer in a collapsed accordion.",
    "A tab panel not selected yet.",
    "decorative duplicate",
    "Visible paragraph.",
  ])
    assert.ok(shown.includes(s), `view shows "${s}"`);
  for (const s of ["template content", "token", "escaped.gif", "script text", ".x{}"])
    assert.ok(!shown.includes(s), `view hides "${s}"`);
  assert.ok(
    !before.includes("collapsed accordion") &&
      !before.includes("tab panel") &&
      !before.includes("decorative"),
    "the rendered snapshot still hides them",
  );
  assert.equal(text(snap), before, "revealing does not modify its input");
  assert.equal(
    view.nodes.length,
    snap.nodes.length,
    "same nodes, same indices: a chosen node means the same in both",
  );
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
  const flags = (needle: string) =>
    ["hid_attr", "hid_aria", "hid_style"].map((n) => table.values[row(needle) * W + col(n)]);
  assert.deepEqual(flags("collapsed accordion"), [0, 0, 1]);
  assert.deepEqual(flags("tab panel"), [1, 0, 0]);
  assert.deepEqual(flags("decorative duplicate"), [0, 1, 0]);
  assert.deepEqual(flags("Visible paragraph"), [0, 0, 0]);
});

const FAQ = "pages/faq-accordion.html"; // an article whose FAQ answers sit in display:none accordions
const ANSWERS = ["Silk is very light and compact", "Most liners can be machine washed"];

test("the output formats render the chosen nodes from the view the extractor read (text, Markdown and HTML agree)", () => {
  const snap = staticSnapshot(pageFromHtml(fixtureText(FAQ)));
  const tree = buildTree(snap);
  const gold = `${ANSWERS[0]} and insulates in cold weather; cotton is strong, durable and economical but not the lightest; fleece and microfleece are warmer and heavier, soft and quick to dry after a wash.`;
  const e = oracle.extract(snap, { gold }) as Extraction;
  assert.ok(e.view, "the oracle read the view");
  assert.ok(e.text.includes(ANSWERS[0] as string), "the hidden answer is chosen");
  for (const format of ["markdown", "html", "json"] as const)
    assert.ok(formatExtraction(format, snap, tree, e).includes(ANSWERS[0] as string), `${format} carries it`);
});

test("the bundled static model decides on markup-hidden text; with --param hidden=false, or without extra.hiddenText, it never sees it", async () => {
  const withView = JSON.parse(
    await pith(["extract", "--format", "json", fixturePath(FAQ)]).then((r) => r.stdout),
  ) as { text: string; trace: { text: string }[] };
  for (const a of ANSWERS)
    assert.ok(
      withView.trace.some((t) => t.text.startsWith(a)),
      `a decision about "${a}"`,
    );
  const shown = JSON.parse(
    (await pith(["extract", "--format", "json", "--param", "hidden=false", fixturePath(FAQ)])).stdout,
  ) as { text: string; trace: { text: string }[] };
  for (const a of ANSWERS)
    assert.ok(
      !shown.trace.some((t) => t.text.startsWith(a)) && !shown.text.includes(a),
      `--param hidden=false: nothing about "${a}"`,
    );
  const artifact = JSON.parse(
    readFileSync(new URL("../models/default-static.json", import.meta.url), "utf8"),
  ) as { extra: Record<string, unknown> };
  assert.equal(
    artifact.extra["hiddenText"],
    "candidates",
    "the bundled static model was trained on the view",
  );
  delete artifact.extra["hiddenText"];
  const dir = tempDir("pith-hidden-");
  try {
    const file = join(dir, "no-view.json");
    writeFileSync(file, JSON.stringify(artifact));
    const without = JSON.parse(
      (await pith(["extract", "--format", "json", "--model", file, fixturePath(FAQ)])).stdout,
    ) as { text: string; trace: { text: string }[] };
    for (const a of ANSWERS) {
      assert.ok(!without.trace.some((t) => t.text.startsWith(a)), `no decision about "${a}"`);
      assert.ok(!without.text.includes(a));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
