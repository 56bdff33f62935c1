/** Gold-text alignment (src/train/align.ts), node labels (src/train/labels.ts) and the oracle. */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { test } from "node:test";
import { oracle } from "../src/evaluate/oracle.ts";
import { textOf, words } from "../src/dom/text.ts";
import { buildTree } from "../src/dom/tree.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { alignTokens, pageTokens } from "../src/train/align.ts";
import { labelNodes } from "../src/train/labels.ts";
import type { PageSnapshot } from "../src/types.ts";
import { loadDataset, type DatasetPage } from "../src/io/dataset.ts";
import { featureSchema } from "../src/features/index.ts";
import { buildRows, TRAINING_LEAF_ROWS } from "../src/train/matrix.ts";
import { buildPageRecord, type PageRecord } from "../src/train/page-record.ts";
import { estimatedF1 } from "../src/train/thresholds.ts";
import { tempDir } from "./helpers.ts";

function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
}

function snap(html: string): PageSnapshot {
  return staticSnapshot({ id: "t", source: "t", url: null, html, encoding: "utf-8", remote: false });
}

const bits = (a: Uint8Array): string => [...a].join("");

test("align: monotonic matching blocks, noise left out", () => {
  assert.equal(
    bits(alignTokens("x a b c d y e f g".split(" "), "a b c d e f g".split(" ")).matched),
    "011110111",
  );
  assert.equal(alignTokens([], ["a"]).matchedCount, 0);
  assert.equal(alignTokens(["a"], []).matchedCount, 0);
});

test("align: repeated paragraphs each align to their own copy (difflib's earliest-match rule)", () => {
  const para = (k: number): string[] => ["item", String(k), ...Array.from({ length: 80 }, (_, i) => `w${i}`)];
  const page = [...para(1), ...para(2), ...para(3)];
  assert.equal(alignTokens(page, page).matchedCount, page.length);
});

test("align: texts made only of popular tokens still align (fallback)", () => {
  const t = Array.from({ length: 300 }, (_, i) => `w${i % 50}`);
  assert.equal(alignTokens(t, t).matchedCount, 300);
});

test("align: a 20,000-token page against 10,000 gold tokens matches them all (speed is in scripts/bench-features.ts)", () => {
  const page = Array.from({ length: 20_000 }, (_, i) => `t${(i * 7919) % 3000}`);
  const gold = page.filter((_, i) => i % 4 !== 0).slice(0, 10_000);
  const a = alignTokens(page, gold);
  assert.ok(a.matchedCount >= 9_900, `matched ${a.matchedCount}`);
});

test("page tokens follow textOf: a word split across inline text nodes is one token", () => {
  const page = snap("<p><b>W</b>ord here</p><p>next</p>");
  const t = pageTokens(page, buildTree(page));
  assert.deepEqual(t.tokens, ["word", "here", "next"]);
  assert.equal(t.owner.length, 3);
});

test("page tokens follow textOf on sibling inline elements and in code: the same words as words(textOf)", () => {
  for (const html of [
    "<p><span>Publisher</span><span>Acme Books</span></p>",
    "<p><span class=dropcap>T</span>he cat</p>",
    "<p><a href=a>Home</a><a href=b>About</a><b>x</b>y</p>",
    "<pre><span>foo</span><span>bar</span></pre>",
  ]) {
    const page = snap(`<html><body>${html}</body></html>`);
    const tree = buildTree(page);
    assert.deepEqual(pageTokens(page, tree).tokens, words(textOf(page, tree, [0]).toLowerCase()), html);
  }
});

test("labels: hand-computed shares, main and good segments on the mixed fixture", () => {
  const page = snap(fixture("features/mixed.html"));
  const tree = buildTree(page);
  const L = labelNodes(page, tree, fixture("features/mixed.gold.txt"));
  // rows: body, div#nav, div#main, "Intro words here", p, div.related
  assert.deepEqual([...L.words], [13, 2, 11, 3, 5, 3]);
  assert.deepEqual(
    [...L.goldShare].map((x) => Math.round(x * 1000) / 1000),
    [0.615, 0, 0.727, 1, 1, 0],
  );
  assert.deepEqual([...L.main], [0, 0, 0, 1, 1, 0]);
  assert.deepEqual([...L.goodSegment], [0, 1, 0, 1, 1, 1]);
});

test("labels: a container is main only when all its word-bearing leaves are", () => {
  const page = snap(
    "<html><body><div id=a><p>one two</p><p>three four</p></div><div id=b><p>five six</p><p>menu items</p></div></body></html>",
  );
  const L = labelNodes(page, buildTree(page), "one two three four five six");
  assert.deepEqual(
    [...L.nodes].map((i) => page.nodes[i]!.tag),
    ["body", "div", "p", "p", "div", "p", "p"],
  );
  assert.deepEqual([...L.main], [0, 1, 1, 1, 0, 1, 0]);
  assert.deepEqual([...L.goodSegment], [0, 1, 0, 0, 0, 1, 1]);
});

test("labels: no words → NaN share, nothing main", () => {
  const page = snap("<div><img src=x></div><script>var a</script>");
  const L = labelNodes(page, buildTree(page), "some gold text");
  assert.ok([...L.goldShare].every(Number.isNaN));
  assert.ok(L.main.every((x) => x === 0));
});

test("output text keeps a code block's lines and indentation (textOf preformatted); features and labels read the collapsed line, with the same words", async () => {
  const code = `<span class="kn">from</span> <span class="nn">flask</span> <span class="kn">import</span> <span class="n">Flask</span>\n\n<span class="n">app</span> = <span class="n">Flask</span>()\n\n<span class="k">def</span> <span class="nf">hello</span>():\n    <span class="k">return</span> <span class="s2">"Hello"</span>\n`;
  const page = snap(
    `<html><body><p>A minimal application:</p><pre>${code}</pre><p>So what did that code do?</p></body></html>`,
  );
  const tree = buildTree(page);
  const laidOut =
    'A minimal application:\nfrom flask import Flask\n\napp = Flask()\n\ndef hello():\n    return "Hello"\nSo what did that code do?';
  assert.equal(textOf(page, tree, [0], { preformatted: true }), laidOut);
  const collapsed = textOf(page, tree, [0]);
  assert.equal(
    collapsed,
    'A minimal application:\nfrom flask import Flask app = Flask() def hello(): return "Hello"\nSo what did that code do?',
  );
  assert.deepEqual(words(collapsed), words(laidOut));
  // an extractor's output text is the laid-out one (the oracle, given the page's own text as gold)
  assert.equal((await oracle.extract(page, { gold: collapsed })).text, laidOut);
});

test("oracle: reproduces the gold of the mixed fixture exactly through textOf(outermost(main))", async () => {
  const page = snap(fixture("features/mixed.html"));
  const gold = fixture("features/mixed.gold.txt");
  const e = await oracle.extract(page, { gold });
  assert.equal(e.text, gold.trim());
  assert.equal(e.trace.length, e.nodes.length);
  const none = await oracle.extract(page, {});
  assert.equal(none.emptyReason, "no gold text (context.gold)");
});

test("oracle: the article fixture's gold words come back in order", async () => {
  const gold = fixture("pages/article.gold.txt");
  const e = await oracle.extract(snap(fixture("pages/article.html")), { gold });
  assert.deepEqual(words(e.text.toLowerCase()), words(gold.toLowerCase()));
});

test("labels from gold-html (readability style: every gold-html word is main) match the text labels", async () => {
  const { labelNodesFromGoldHtml } = await import("../src/train/labels.ts");
  const page = snap(fixture("features/mixed.html"));
  const tree = buildTree(page);
  const fromHtml = labelNodesFromGoldHtml(
    page,
    tree,
    "<div>Intro words here<p>First para one two three.</p></div>",
  );
  assert.deepEqual([...fromHtml.main], [...labelNodes(page, tree, fixture("features/mixed.gold.txt")).main]);
});

/** The PageRecord training builds for one page with this gold (a one-page labeled set in a temp folder). */
async function recordOf(html: string, gold: string): Promise<PageRecord> {
  const dir = tempDir("pith-record-");
  try {
    mkdirSync(join(dir, "html"));
    mkdirSync(join(dir, "gold"));
    writeFileSync(join(dir, "html", "p1.html.gz"), gzipSync(html));
    writeFileSync(join(dir, "gold", "p1.txt"), gold);
    writeFileSync(
      join(dir, "index.jsonl"),
      JSON.stringify({
        id: "p1",
        url: "https://site.example/p1",
        domain: "site.example",
        genre: "other",
        lang: "en",
      }) + "\n",
    );
    const ds = loadDataset(dir);
    const rec = await buildPageRecord(ds, ds.pages[0] as DatasetPage);
    assert.ok(rec);
    return rec;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("labels: a noise copy of a main block is flagged ambiguous and left out of the training rows", async () => {
  const blurb = "Hand stitched from waxed canvas with brass rivets that last for years";
  const html = `<!doctype html><html><head><title>Field bag</title></head><body>
<div class="teaser"><p>${blurb}</p><p>Free shipping on orders over fifty dollars today</p></div>
<main><h1>Field bag</h1><p>${blurb}</p><p>The strap adjusts from short to long in one pull.</p></main>
<footer><p>Copyright the bag shop and all its friends</p></footer></body></html>`;
  const rec = await recordOf(html, `Field bag\n${blurb}\nThe strap adjusts from short to long in one pull.`);
  const snapshot = snap(html);
  const tree = buildTree(snapshot);
  const textAt = (r: number): string => textOf(snapshot, tree, [rec.nodes[r] as number]);
  const copies = [...rec.nodes.keys()].filter(
    (r) => textAt(r) === blurb && rec.ownWords[r] === rec.subtreeWords[r],
  );
  assert.equal(copies.length, 2, "both copies of the blurb are leaf rows");
  const [teaser, body] = copies as [number, number];
  assert.deepEqual([rec.main[teaser], rec.main[body]], [0, 1], "the gold aligns to one copy only");
  assert.deepEqual([rec.ambiguous[teaser], rec.ambiguous[body]], [1, 0]);
  const footer = [...rec.nodes.keys()].find(
    (r) => (rec.ownWords[r] as number) > 0 && textAt(r).startsWith("Copyright"),
  ) as number;
  assert.equal(rec.ambiguous[footer], 0, "noise that copies nothing is still trained on");
  const rows = buildRows([rec], featureSchema().names.length, TRAINING_LEAF_ROWS, "main", false);
  assert.ok(!rows.row.includes(teaser) && rows.row.includes(body) && rows.row.includes(footer));
});

test("labels: a row whose words the alignment counted elsewhere (a word split over two elements) has share 0, and the page's F1 estimate stays defined", async () => {
  // "2<sup>nd</sup>" is one token, owned by the "…a 2" text row; the <sup> row owns a word but no token
  const html = `<!doctype html><html><body><div>Some resources are for English as a 2<sup>nd</sup> language learners to use.<p>Once you become more confident, start listening.</p></div><nav><a href="/">Home</a></nav></body></html>`;
  const rec = await recordOf(
    html,
    "Some resources are for English as a 2nd language learners to use.\nOnce you become more confident, start listening.",
  );
  const leaves = [...rec.nodes.keys()].filter((r) => (rec.ownWords[r] as number) > 0);
  assert.ok(leaves.every((r) => !Number.isNaN(rec.share[r] as number)));
  assert.ok(estimatedF1(rec, (r) => rec.main[r] === 1) > 0.9);
});
