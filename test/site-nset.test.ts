/** n-SET selection (Alarte et al. 2018 §2.1): hyperlink and DOM distances, ranking, live fetching over 127.0.0.1. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { staticSnapshot } from "../src/render/static.ts";
import { buildTree } from "../src/dom/tree.ts";
import { hyperlinkDistance, rankSiteLinks, rankSitePages, sumOfDistances } from "../src/site/nset.ts";
import { fetchNSet } from "../src/site/live.ts";
import { fetchPage } from "../src/io/inputs.ts";
import { siteLevelExtractor } from "../src/algorithms/site-level.ts";
import { fixturePath, pageFromHtml } from "./helpers.ts";

test("hyperlink distance: path segments after the common prefix, both sides", () => {
  assert.equal(hyperlinkDistance("http://a.com/news/a", "http://a.com/news/b"), 2);
  assert.equal(hyperlinkDistance("http://a.com/news/a", "http://www.a.com/sport/b"), 4);
  assert.equal(hyperlinkDistance("http://a.com/news/a", "http://a.com/news/a/more"), 1);
  assert.equal(hyperlinkDistance("http://a.com/p?id=1", "http://a.com/p?id=2"), 2);
  assert.equal(hyperlinkDistance("http://a.com/x", "http://b.com/x"), Infinity);
  assert.equal(hyperlinkDistance(null, "http://a.com/x"), Infinity);
});

test("sum of tree distances to marked nodes (rerooting)", () => {
  // 0 html, 1 body, 2 div, 3 a, 4 "x", 5 a, 6 "y"; marked: 3 and 5
  const page = staticSnapshot(
    pageFromHtml(`<html><body><div><a href="/x">x</a></div><a href="/y">y</a></body></html>`),
  );
  const tree = buildTree(page);
  const marked = new Uint8Array(tree.n);
  marked[3] = 1;
  marked[5] = 1;
  assert.deepEqual([...sumOfDistances(tree, marked)], [5, 3, 3, 3, 5, 3, 5]);
});

const KEY_HTML = `<html><body><div id="nav"><a href="/news/a.html">A</a><a href="/about.html">About</a></div>
<a href="/news/b.html">B</a><a href="http://other.test/x">elsewhere</a><a href="#top">top</a><a href="/news/key.html#c">self</a><a href="mailto:x@s.test">mail</a></body></html>`;

test("same-domain links ranked by hyperlink distance, then DOM distance (farthest first)", () => {
  const key = staticSnapshot(pageFromHtml(KEY_HTML, "key", "http://s.test/news/key.html"));
  const links = rankSiteLinks(key, buildTree(key));
  // a1 (/news/a) and a2 (/about) are 2 apart in div#nav, each 3 from a3 (/news/b): farness 5, 5, 6
  assert.deepEqual(
    links.map((l) => [l.url, l.hyperlinkDistance, l.domDistance]),
    [
      ["http://s.test/news/b.html", 2, 6],
      ["http://s.test/news/a.html", 2, 5],
      ["http://s.test/about.html", 3, 5],
    ],
  );
});

test("site pages ranked: linked pages by link rank, unlinked after linked at equal distance", () => {
  const key = staticSnapshot(pageFromHtml(KEY_HTML, "key", "http://s.test/news/key.html"));
  const mk = (path: string) => staticSnapshot(pageFromHtml("<p>x</p>", path, `http://s.test${path}`));
  const pages = ["/about.html", "/news/c.html", "/news/a.html", "/news/b.html", "/news/key.html"].map(mk);
  const ranked = rankSitePages(key, buildTree(key), pages);
  assert.deepEqual(
    ranked.map((r) => r.page.id),
    ["/news/b.html", "/news/a.html", "/news/c.html", "/about.html"],
  );
});

const BLOG = ["rivers", "bees", "bread", "stars", "tides"];

async function serveBlog(): Promise<{ server: Server; base: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    const m = /^\/posts\/(\w+)\.html$/.exec(req.url ?? "");
    if (m && BLOG.includes(m[1] as string)) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(readFileSync(fixturePath(`site/blog/${m[1]}.html`)));
    } else {
      res.writeHead(404);
      res.end("not found");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

test("live n-SET: fetches the ranked same-domain links over HTTP, skipping failures", async () => {
  const { server, base, hits } = await serveBlog();
  try {
    const r = await fetchPage(`${base}/posts/rivers.html`);
    assert.ok(r.ok);
    const key = staticSnapshot(r.value);
    const nset = await fetchNSet(key, 4);
    // distance 2: "/" (404) and the four other posts; "/" fails and is skipped
    assert.deepEqual(nset.pages.map((p) => new URL(p.url ?? "").pathname).sort(), [
      "/posts/bees.html",
      "/posts/bread.html",
      "/posts/stars.html",
      "/posts/tides.html",
    ]);
    assert.equal(
      nset.errors.length,
      hits.filter((h) => h === "/").length,
      "only failed links cost an extra fetch",
    );
    assert.ok(nset.errors.every((e) => /HTTP 404/.test(e.reason)));
    assert.equal(hits.length, 1 + 4 + nset.errors.length, "key page + 4 pages + failures");
    assert.ok(
      !hits.includes("/posts/rivers.html#") && hits.filter((h) => h === "/posts/rivers.html").length === 1,
      "the key page is not fetched again",
    );
    const e = await siteLevelExtractor.extract(key, { params: { live: true } });
    assert.equal(e.text, expectedRivers());
    assert.match(e.trace[0]?.reason ?? "", /live: 4 fetched/);
  } finally {
    server.close();
  }
});

function expectedRivers(): string {
  return [
    "How rivers carve canyons",
    "Water moving over rock for millions of years slowly grinds the stone into sand and gravel.",
    "Floods carry boulders that act like chisels against the canyon walls during storms.",
    "The Colorado river cut the Grand Canyon over roughly six million years of erosion.",
  ].join("\n");
}
