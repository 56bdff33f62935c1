/** computeFeatures: schema, hand-computed values on a small fixture, missing-value rules, bad input. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import {
  computeFeatures,
  featureDefinitions,
  featureSchema,
  featureValue,
  siteContextFor,
  type FeatureTable,
} from "../src/features/index.ts";
import { LANG_SAMPLE_CHARS, LANG_SAMPLE_MAX_CHARS, languageSample } from "../src/features/stats.ts";
import { analyzeStructure } from "../src/features/structural.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { PageSnapshot } from "../src/types.ts";

function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/features/${name}`, import.meta.url), "utf8");
}

function snap(html: string, id = "t", url: string | null = null): PageSnapshot {
  return staticSnapshot({ id, source: id, url, html, encoding: "utf-8", remote: false });
}

function rowOf(page: PageSnapshot, table: FeatureTable, pred: (i: number) => boolean): number {
  const r = [...table.nodes].findIndex(pred);
  assert.ok(r >= 0, "row not found");
  return r;
}

const byId = (page: PageSnapshot, id: string) => (i: number) => page.nodes[i]!.attrs?.["id"] === id;

test("schema: unique names, 16-hex hash, every feature documented with a paper", () => {
  const s = featureSchema();
  assert.equal(new Set(s.names).size, s.names.length);
  assert.match(s.hash, /^[0-9a-f]{16}$/);
  const defs = featureDefinitions();
  assert.deepEqual(
    defs.map((d) => d.name),
    s.names,
  );
  for (const d of defs) assert.ok(d.description.length > 10 && d.paper.length > 0, d.name);
  for (const n of [
    "dom_n_a",
    "dom_anchor_ratio",
    "dom_height",
    "txt_stop_ratio",
    "cnr",
    "cnr_rank",
    "ctx_anc4_link_density",
    "vis_font_rel",
    "site_occurrences",
    "site_ibdf",
  ])
    assert.ok(s.names.includes(n), n);
});

test("features: hand-computed values on the mixed fixture", () => {
  const page = snap(fixture("mixed.html"));
  const tree = buildTree(page);
  const t = computeFeatures(page, tree);
  assert.equal(t.values.length, t.nodes.length * t.schema.names.length);
  assert.equal(t.lang, "en");
  // tags of the rows: body, div#nav, div#main, "Intro words here", p, div.related
  assert.deepEqual(
    [...t.nodes].map((i) => page.nodes[i]!.tag),
    ["body", "div", "div", "#text", "p", "div"],
  );
  const nav = rowOf(page, t, byId(page, "nav"));
  assert.equal(featureValue(t, nav, "txt_words"), 2);
  assert.equal(featureValue(t, nav, "dom_n_a"), 2);
  assert.equal(featureValue(t, nav, "dom_anchor_ratio"), 1);
  assert.equal(featureValue(t, nav, "cnr"), 0); // Insa: links are non-content nodes
  assert.equal(featureValue(t, nav, "dom_tag_div"), 1);
  assert.equal(featureValue(t, nav, "dom_cls_nav"), 1);
  const p = rowOf(page, t, (i) => page.nodes[i]!.tag === "p");
  // "First para one two three.": 21 non-space chars; weight = p + its text node = 2
  assert.equal(featureValue(t, p, "dom_text_chars"), 21);
  assert.equal(featureValue(t, p, "cnr"), 10.5);
  assert.equal(featureValue(t, p, "txt_words"), 5);
  assert.equal(featureValue(t, p, "txt_sentence_ends"), 1);
  assert.equal(featureValue(t, p, "txt_stopwords"), 0); // stopword's English list has none of these five
  const intro = rowOf(page, t, (i) => page.nodes[i]!.tag === "#text");
  assert.equal(featureValue(t, intro, "txt_stop_ratio"), Math.fround(1 / 3)); // "here" is
  assert.equal(featureValue(t, intro, "txt_leaf"), 1);
  // CNRs: div#nav 0, body 50/11, div.related 15/2, div#main 50/6, p 10.5, "Intro words here" 14 → p is 5th of 6
  assert.equal(featureValue(t, p, "cnr_rank"), Math.fround(4 / 5));
  // page: 8 (HomeNews) + div#main 50 = 14 (Intro words here) + 21 + 15 (Read more stories)
  assert.equal(featureValue(t, p, "ctx_anc1_text_share"), Math.fround(50 / (8 + 50)));
  assert.ok(Math.abs(featureValue(t, p, "ctx_pos_text") - (8 + 14) / 58) < 1e-6);
  assert.equal(featureValue(t, p, "ctx_prev_words"), 3);
  assert.equal(featureValue(t, p, "ctx_next_words"), 3);
  assert.equal(featureValue(t, p, "ctx_in_related"), 0);
  // neighbour window of p: leaves div#nav, "Intro words here" before, div.related after
  assert.equal(featureValue(t, p, "ctx_win_words"), Math.fround(8 / 3));
  assert.equal(featureValue(t, p, "ctx_win_link_density"), Math.fround(8 / 37));
  assert.equal(featureValue(t, p, "ctx_win_sentence_leaves"), 0);
  assert.ok(Number.isNaN(featureValue(t, 0, "ctx_win_words"))); // body holds every leaf: empty window
  assert.equal(
    featureValue(
      t,
      rowOf(page, t, (i) => page.nodes[i]!.attrs?.["class"] === "related"),
      "ctx_in_related",
    ),
    1,
  );
});

test("features: visual columns are NaN in static mode, site columns NaN without a site", () => {
  const page = snap(fixture("mixed.html"));
  const t = computeFeatures(page, buildTree(page));
  for (let r = 0; r < t.nodes.length; r++) {
    for (const n of ["vis_x", "vis_font_rel", "vis_above_fold", "site_occurrences", "site_ibdf"])
      assert.ok(Number.isNaN(featureValue(t, r, n)), n);
  }
});

test("features: site context gives occurrence counts (template nav found in the other page)", () => {
  const a = snap(fixture("mixed.html"), "a", "https://example.org/a");
  const b = snap(
    fixture("mixed.html").replace("First para one two three.", "Another page entirely."),
    "b",
    "https://example.org/b",
  );
  const contexts = siteContextFor([
    { domain: "example.org", snapshot: a },
    { domain: "example.org", snapshot: b },
    { domain: null, snapshot: snap("<p>x</p>") },
  ]);
  assert.equal(contexts.size, 2);
  const t = computeFeatures(a, buildTree(a), { site: contexts.get(a)! });
  const nav = rowOf(a, t, byId(a, "nav"));
  assert.equal(featureValue(t, nav, "site_occurrences"), 1);
  assert.equal(featureValue(t, nav, "site_pages"), 1);
  const p = rowOf(a, t, (i) => a.nodes[i]!.tag === "p");
  assert.equal(featureValue(t, p, "site_occurrences"), 0); // different own text: not mapped
});

test("bad input: no text, only scripts → a table without overflow", () => {
  for (const html of [
    "",
    "<html></html>",
    "<script>var a = 1;</script><style>p{}</style>",
    "<div><div></div></div>",
  ]) {
    const page = snap(html);
    const t = computeFeatures(page, buildTree(page));
    assert.equal(t.values.length, t.nodes.length * t.schema.names.length);
    for (let r = 0; r < t.nodes.length; r++) assert.equal(featureValue(t, r, "txt_words"), 0);
  }
});

test("bad input: 10,000 levels and 100,000 nodes in linear time", () => {
  const deep = snap(
    `<html><body>${"<div>".repeat(10_000)}<p>deep text at the bottom</p>${"</div>".repeat(10_000)}</body></html>`,
  );
  const td = computeFeatures(deep, buildTree(deep));
  assert.equal(td.nodes.length, 10_002); // body + 10,000 divs + p
  const p = td.nodes.length - 1;
  assert.equal(featureValue(td, p, "txt_words"), 5);
  assert.equal(featureValue(td, p, "dom_depth"), 10_002);
  const wide = snap(`<html><body>${"<div><p>some words here</p></div>".repeat(33_334)}</body></html>`);
  assert.ok(wide.nodes.length > 100_000);
  const tw = computeFeatures(wide, buildTree(wide));
  assert.equal(tw.nodes.length, 1 + 2 * 33_334);
});

test("every family writes every column of every row (one-hot columns may leave their 0)", async () => {
  const { FAMILIES, featureIndex } = await import("../src/features/index.ts");
  const { computeStats } = await import("../src/features/stats.ts");
  const { keywordBits } = await import("../src/features/dom.ts");
  const page = snap(fixture("mixed.html"));
  const tree = buildTree(page);
  const stats = computeStats(page, tree);
  const rows = stats.structure.nodes;
  const index = featureIndex();
  const written = new Set<string>();
  const writer = {
    col: (n: string) => index.get(n)!,
    set: (r: number, c: number) => void written.add(`${r}:${c}`),
  };
  const kb = Int32Array.from(page.nodes, (n) => keywordBits(n));
  for (const f of FAMILIES)
    f.fill({ page, tree, stats, rows, site: null, keywordBits: kb, filled: null }, writer);
  for (const [name, c] of index) {
    if (/^dom_(tag|role)_/.test(name)) continue;
    for (let r = 0; r < rows.length; r++) assert.ok(written.has(`${r}:${c}`), `${name} row ${r}`);
  }
});

test("fillRows: the rows asked for get the full table's values, bit for bit; the others stay 0", () => {
  const body = Array.from(
    { length: 8 },
    (_, k) =>
      `<section class="card c${k}"><h2>Part ${k}</h2><p>The ${k} paragraph, with <a href="/x${k}">a link</a> and some words.</p><ul><li>one $${k}.99</li><li>two</li></ul></section>`,
  ).join("");
  const page = snap(
    `<html><head><title>Part 3</title></head><body><nav><a href="/">Home</a> <a href="/b">Blog</a></nav><main><h1>Part 3</h1>${body}</main><footer>© 2024</footer></body></html>`,
    "t",
    "https://example.org/news/2024/05/a-story",
  );
  const tree = buildTree(page);
  const full = computeFeatures(page, tree);
  const width = full.schema.names.length;
  let asked: Uint8Array | null = null;
  const part = computeFeatures(page, tree, {
    fillRows: (rows) => (asked = Uint8Array.from(rows, (_, r) => (r % 3 === 1 ? 1 : 0))),
  });
  assert.ok(asked, "fillRows was called with the rows");
  assert.deepEqual([...part.nodes], [...full.nodes]);
  assert.ok(full.nodes.length > 20, `${full.nodes.length} rows`);
  for (let r = 0; r < full.nodes.length; r++) {
    for (let c = 0; c < width; c++) {
      const want = asked![r] === 1 ? full.values[r * width + c] : 0;
      assert.ok(
        Object.is(part.values[r * width + c], want),
        `row ${r} ${full.schema.names[c]}: ${part.values[r * width + c]} against ${want}`,
      );
    }
  }
});

test("language sample: the first longer text nodes past LANG_SAMPLE_CHARS, and never more than LANG_SAMPLE_MAX_CHARS of one huge node", () => {
  const sampleOf = (html: string): string => {
    const page = snap(html);
    const tree = buildTree(page);
    return languageSample(page, tree, analyzeStructure(page, tree).content);
  };
  const para = "The river bends where the bank is soft and the water is slow. ";
  const many = sampleOf(`<html><body>${`<p>${para}</p>`.repeat(40)}</body></html>`);
  assert.equal(
    many.length,
    Math.ceil(LANG_SAMPLE_CHARS / (para.length + 1)) * (para.length + 1),
    "whole nodes until the sample passes LANG_SAMPLE_CHARS",
  );
  const huge = sampleOf(`<html><body><p>${para.repeat(20_000)}</p></body></html>`);
  assert.equal(huge.length, LANG_SAMPLE_MAX_CHARS + 1, "a 1.2 MB text node is cut");
  assert.ok(huge.startsWith(para));
});
