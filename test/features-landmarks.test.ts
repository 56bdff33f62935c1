/** The landmark family (src/features/landmarks.ts): sectioning elements, furniture roles and dialogs at any depth. */
import assert from "node:assert/strict";
import test from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { computeFeatures } from "../src/features/index.ts";
import { featureSchema } from "../src/features/index.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { pageFromHtml } from "./helpers.ts";

const HTML = `<html><body><header><nav><a href="/">Home</a> <a href="/a">About</a></nav></header>
<main><article><h1>Title</h1><p>Body text of the article for its readers.</p><form><p>Comment form intro</p></form></article></main>
<aside><p>Sidebar teaser</p></aside>
<div role="contentinfo"><div><div><div><div><p>Deep legal notice, five levels below its landmark.</p></div></div></div></div></div>
<footer><div><div><div><div><div><p>Copyright, six levels below the footer.</p></div></div></div></div></div></footer>
<div aria-modal="true"><p>Sign up for our newsletter</p></div><dialog open><p>Dialog element text</p></dialog>
<section><p>Plain section text</p></section></body></html>`;

test("each node says which sectioning elements, furniture roles and dialogs hold it, however deep", () => {
  const page = staticSnapshot(pageFromHtml(HTML));
  const tree = buildTree(page);
  const table = computeFeatures(page, tree);
  const names = featureSchema().names;
  const W = names.length;
  const lm = names.filter((n) => n.startsWith("lm_in_"));
  assert.deepEqual(lm, [
    "lm_in_footer",
    "lm_in_nav",
    "lm_in_aside",
    "lm_in_main",
    "lm_in_article",
    "lm_in_furniture_role",
    "lm_in_dialog",
  ]);
  const rows = Array.from(table.nodes);
  const on = (needle: string): string[] => {
    let i = page.nodes.findIndex((n) => n.type === 3 && (n.text ?? "").includes(needle));
    while (i >= 0 && !rows.includes(i)) i = page.nodes[i]?.parent ?? -1;
    assert.ok(i >= 0, `a row for "${needle}"`);
    const r = rows.indexOf(i);
    return lm.filter((n) => table.values[r * W + names.indexOf(n)] === 1).map((n) => n.slice(6));
  };
  assert.deepEqual(on("Home"), ["nav"]);
  assert.deepEqual(on("Body text"), ["main", "article"]);
  assert.deepEqual(on("Comment form"), ["main", "article"]);
  assert.deepEqual(on("Sidebar"), ["aside"]);
  assert.deepEqual(on("Deep legal"), ["furniture_role"]);
  assert.deepEqual(on("Copyright"), ["footer"]);
  assert.deepEqual(on("newsletter"), ["dialog"]);
  assert.deepEqual(on("Dialog element"), ["dialog"]);
  assert.deepEqual(on("Plain section"), []);
});
