/** The main-region refiner (src/refine/region.ts) and inline-sibling separators in textOf. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";
import { bestRegion, keepMainRegion, OUTSIDE_KEEP } from "../src/refine/region.ts";
import { dropDuplicates } from "../src/pipeline/rules/dedupe.ts";
import { coalesce } from "../src/pipeline/select.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { pageFromHtml, staticRows } from "./helpers.ts";

const PAGE = `<html><body>
<div id="menu"><p>Home News Sport</p><p>Weather Travel</p></div>
<div id="main"><p>First long paragraph of the story with many words in it.</p><p>Second long paragraph continues the story here.</p><p>Short aside</p></div>
<div id="foot"><p>About us contact privacy terms careers</p></div></body></html>`;

function setup() {
  const { page, tree, nodes, own } = staticRows(PAGE);
  const rowOfText = (s: string) =>
    [...nodes].findIndex((i, r) => (own.ownWords[r] as number) > 0 && textOf(page, tree, [i]).startsWith(s));
  return { page, tree, nodes, own, rowOfText };
}

test("region: the largest positive subtree wins; kept leaves outside it are dropped unless sure", () => {
  const { page, tree, nodes, own, rowOfText } = setup();
  const scores = new Float32Array(nodes.length).fill(NaN);
  const keep = new Uint8Array(nodes.length);
  const set = (text: string, s: number) => {
    const r = rowOfText(text);
    assert.ok(r >= 0, text);
    scores[r] = s;
    keep[r] = s >= 0.5 ? 1 : 0;
    return r;
  };
  const menu1 = set("Home News", 0.6); // kept by the classifier, outside the main block
  const menu2 = set("Weather", 0.95); // outside but sure: survives
  const p1 = set("First long", 0.9);
  set("Second long", 0.8);
  const aside = set("Short aside", 0.3);
  set("About us", 0.05); // a long footer below the threshold: body is not the region
  const region = bestRegion(own, scores, 0.5);
  assert.equal(page.nodes[nodes[region] as number]!.attrs?.["id"], "main");
  const out = keepMainRegion(
    own,
    scores,
    0.5,
    keep,
    (r) => ({ node: nodes[r] as number, path: String(r), text: "" }),
    String,
  );
  assert.equal(out.keep[menu1], 0);
  assert.equal(out.keep[menu2], 1, `P ≥ ${OUTSIDE_KEEP} outside the region is kept`);
  assert.equal(out.keep[p1], 1);
  assert.equal(out.keep[aside], 0, "inside decisions are unchanged");
  assert.deepEqual(out.dropped, [menu1]);
  assert.equal(out.trace.length, 1);
  assert.match(out.trace[0]!.reason, /outside the main region/);
  assert.ok(tree.n > 0);
});

test("region: nothing above the threshold leaves the decisions alone", () => {
  const { nodes, own } = setup();
  const scores = new Float32Array(nodes.length).fill(0.1);
  const keep = new Uint8Array(nodes.length);
  assert.equal(bestRegion(own, scores, 0.5), -1);
  assert.equal(
    keepMainRegion(own, scores, 0.5, keep, () => ({ node: 0, path: "", text: "" }), String).keep,
    keep,
  );
});

test("textOf: adjacent inline siblings are separated; drop caps, bold runs and code are not", () => {
  const cases: [string, string][] = [
    ["<p><span>Publisher</span><span>Acme Books</span></p>", "Publisher Acme Books"],
    ["<p><a href=a>Home</a><a href=b>About</a></p>", "Home About"],
    ["<p><span class=dropcap>T</span>he cat sat.</p>", "The cat sat."],
    ["<p>un<b>believ</b>able</p>", "unbelievable"],
    ["<p>€49.99<span>VAT included</span></p>", "€49.99VAT included"],
    ["<pre><span>foo</span><span>.</span><span>bar</span></pre>", "foo.bar"],
    ["<p><span>a</span> <span>b</span></p>", "a b"],
  ];
  for (const [html, want] of cases) {
    const page = staticSnapshot(pageFromHtml(`<html><body>${html}</body></html>`));
    const tree = buildTree(page);
    assert.equal(textOf(page, tree, [0]), want, html);
  }
});

test("dedupe: a block repeated in another container is dropped; same-parent repeats, a lone repeat among new text, quotes and short lines stay", () => {
  const para = "Soft wool keeps your feet warm all day long.";
  const html = `<html><body><div id="a"><p>${para}</p><p>Reply now</p></div><div id="b"><p>${para}</p><p>Reply now</p></div>
<div id="c"><p>Same paragraph twice in a row here.</p><p>Same paragraph twice in a row here.</p></div>
<div id="d"><blockquote><p>Intro text of the very first post.</p></blockquote></div><div id="e"><p>Intro text of the very first post.</p></div>
<div id="f"><p>Lorem ipsum dolor sit amet again.</p><p>An entirely new paragraph of the second section.</p></div>
<div id="g"><p>Another new paragraph in a third section.</p><p>Lorem ipsum dolor sit amet again.</p></div></body></html>`;
  const { page, tree, nodes, own } = staticRows(html);
  const keep = new Uint8Array(nodes.length).fill(1);
  const trace = dropDuplicates({ page, tree, nodes, own, keep });
  assert.equal(trace.length, 1, JSON.stringify(trace.map((t) => t.path)));
  assert.match(trace[0]!.path, /div#b>p/);
  const kept = textOf(
    page,
    tree,
    coalesce(nodes, own, keep).map((r) => nodes[r] as number),
  );
  assert.equal(kept.split(para).length - 1, 1);
  assert.equal(kept.split("Reply now").length - 1, 2, "short lines repeat");
  assert.equal(kept.split("Same paragraph twice").length - 1, 2, "same-parent repeats stay");
  assert.equal(
    kept.split("Intro text of the very first post").length - 1,
    2,
    "a quote and its original both stay",
  );
  assert.equal(
    kept.split("Lorem ipsum dolor sit amet again").length - 1,
    2,
    "one paragraph said again among new text stays",
  );
});
