/**
 * runExtractor (src/extractors.ts), the one entry `pith extract` and `pith evaluate` run every
 * method through: a feed, a sitemap or a page that shows no word is one empty extraction with one
 * reason (src/dom/no-text.ts) whatever the method, and the method itself does not run.
 */
import assert from "node:assert/strict";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import { gzipSync } from "node:zlib";
import "../src/methods.ts";
import { pageOutput } from "../src/batch/page-output.ts";
import { evaluateMethods } from "../src/evaluate/runner.ts";
import { extractorNames, getExtractor, registerExtractor, runExtractor } from "../src/extractors.ts";
import { hasVisibleWords } from "../src/dom/no-text.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { ExtractorContext, PageSnapshot } from "../src/types.ts";
import { fixturePath, pageFromHtml, tempDir } from "./helpers.ts";

const RSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><item><title>One</title><description>&lt;p&gt;The first item of the feed, with words.&lt;/p&gt;</description></item></channel></rss>`;
const ATOM = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title><entry><title>Post</title><content type="html">Words of the post.</content></entry></feed>`;
const SITEMAP = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.org/</loc></url></urlset>`;

/** Pages no method should extract from, and the reason every method gives. */
const NO_PAGE: readonly [string, string, string][] = [
  ["rss", RSS, "not an HTML page: the document is an RSS feed"],
  ["atom", ATOM, "not an HTML page: the document is an Atom feed"],
  ["sitemap", SITEMAP, "not an HTML page: the document is a sitemap"],
  ["empty", "", "the page has no visible text"],
  [
    "svg",
    `<html><body><svg><circle r="1"/><text>inside svg</text></svg></body></html>`,
    "the page has no visible text",
  ],
  [
    "image",
    `<html><body><div><img src="a.png" alt="A photo"></div></body></html>`,
    "the page has no visible text",
  ],
  ["punctuation", `<html><body><p>— · —</p></body></html>`, "the page has no visible text"],
  [
    "controls",
    `<html><body><button>Click me now</button><select><option>One</option></select></body></html>`,
    "the page has no visible text",
  ],
  [
    "app shell",
    `<html><head><script src="app.js"></script></head><body><div id="root"></div></body></html>`,
    "the page has no visible text, but 1 script that may build it: try --mode chromium --js (and --network for a local file)",
  ],
];

const snap = (html: string, id = "p"): PageSnapshot => staticSnapshot(pageFromHtml(html, id));
/** Every registered method with what it needs to run on one page (the oracle its gold, the site methods a site). */
const contextFor = (method: string): ExtractorContext => ({
  ...(method === "oracle" ? { gold: "The first item of the feed, with words." } : {}),
  site: {
    domain: "x.org",
    pages: [snap("<html><body><p>Another page of the site.</p></body></html>", "other")],
  },
});

/** An extractor that records the pages it was asked to extract from, and keeps all their text. */
function spy(name: string): { seen: string[] } {
  const seen: string[] = [];
  registerExtractor({
    name,
    description: "test: records its pages",
    extract: (page) => (seen.push(page.id), { method: name, text: "everything", nodes: [0], trace: [] }),
  });
  return { seen };
}

test("every method gives the same empty extraction and reason for a feed, a sitemap and a page without a visible word", async () => {
  const methods = extractorNames().filter((m) => !m.startsWith("test-"));
  assert.ok(methods.length >= 10, methods.join(", "));
  for (const [what, html, reason] of NO_PAGE) {
    const page = snap(html);
    for (const method of methods) {
      const e = await runExtractor(getExtractor(method), page, contextFor(method));
      assert.deepEqual(
        [e.method, e.text, e.nodes, e.emptyReason],
        [method, "", [], reason],
        `${method} on ${what}`,
      );
    }
  }
});

test("the methods do not run on such pages; on a page with words they do, as called directly", async () => {
  const { seen } = spy("test-entry-spy");
  const x = getExtractor("test-entry-spy");
  for (const [what, html] of NO_PAGE) assert.equal((await runExtractor(x, snap(html, what))).text, "", what);
  assert.deepEqual(seen, []);
  const page = snap(`<html><body><p>Seven words of text in a paragraph.</p></body></html>`, "words");
  assert.equal((await runExtractor(x, page)).text, "everything");
  assert.deepEqual(seen, ["words"]);
  const cnr = getExtractor("cnr");
  assert.deepEqual(await runExtractor(cnr, page), await cnr.extract(page));
});

test("the check reads the snapshot the method reads: the static model sees markup-hidden text, the other methods do not", async () => {
  const page = snap(
    `<html><body><div hidden><p>Shipping takes three days within the country.</p></div></body></html>`,
  );
  assert.equal(hasVisibleWords(page), false);
  const ml = await runExtractor(getExtractor("ml"), page, { params: {} });
  assert.equal(ml.emptyReason, undefined);
  assert.match(ml.text, /Shipping takes three days/);
  assert.equal(
    (await runExtractor(getExtractor("ml"), page, { params: { hidden: false } })).emptyReason,
    "the page has no visible text",
  );
  for (const method of ["cnr", "lbs", "feature-extractor"])
    assert.equal(
      (await runExtractor(getExtractor(method), page)).emptyReason,
      "the page has no visible text",
      method,
    );
});

test("pith extract's page path goes through the entry", async () => {
  const { seen } = spy("test-extract-spy");
  const out = await pageOutput(
    { ok: true, value: snap(RSS, "feed.xml") },
    getExtractor("test-extract-spy"),
    {},
    "text",
  );
  assert.ok(out.ok);
  assert.deepEqual(
    [out.value.body, out.value.empty, out.value.emptyReason],
    ["", true, "not an HTML page: the document is an RSS feed"],
  );
  assert.deepEqual(seen, []);
});

test("pith evaluate's page path goes through the entry", async () => {
  const { seen } = spy("test-evaluate-spy");
  const root = tempDir("pith-entry-");
  const set = join(root, "tiny");
  cpSync(fixturePath("evaluate/tiny"), set, { recursive: true });
  writeFileSync(join(set, "html", "t-4.html.gz"), gzipSync(RSS));
  writeFileSync(join(set, "gold", "t-4.txt"), "The first item of the feed, with words.\n");
  writeFileSync(
    join(set, "index.jsonl"),
    `{"id": "t-4", "url": "https://a.example/feed.xml", "domain": "a.example", "genre": "news", "page_type": "article", "lang": "en"}\n`,
    { flag: "a" },
  );
  try {
    const { pages } = await evaluateMethods({ methods: ["test-evaluate-spy"], datasets: [set], workers: 1 });
    const feed = pages.find((p) => p.id === "t-4");
    assert.deepEqual([feed?.chars, feed?.empty_reason], [0, "not an HTML page: the document is an RSS feed"]);
    assert.deepEqual(seen, ["t-1", "t-2", "t-3"]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
