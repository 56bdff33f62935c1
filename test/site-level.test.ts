/** `site` extractor (Alarte et al. 2018): Algorithms 2-5 on hand trees, a fixture site, bad input. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { staticSnapshot } from "../src/render/static.ts";
import { buildTree } from "../src/dom/tree.ts";
import {
  mainContentBranch,
  mergeSiblings,
  reduceCandidates,
  siteLevelExtractor,
  siteLevelMainContent,
} from "../src/algorithms/site-level.ts";
import type { PageSnapshot } from "../src/types.ts";
import { blogPages, fixtureText, hugePage, pageFromHtml, RIVERS_TEXT } from "./helpers.ts";
import { nodePath } from "../src/dom/path.ts";
import { MAX_TRACE_PER_STEP } from "../src/site/extraction.ts";
import { contentExtractor } from "../src/algorithms/content-extractor.ts";
import { featureExtractor } from "../src/algorithms/feature-extractor.ts";
import { kFeatureExtractor } from "../src/algorithms/k-feature-extractor.ts";

// 0 html, 1 body, 2 div#x, 3 p, 4 "a", 5 p, 6 "b", 7 div#y, 8 p, 9 "c", 10 p, 11 "d"
const TREE_PAGE = staticSnapshot(
  pageFromHtml(
    `<html><body><div id="x"><p>a</p><p>b</p></div><div id="y"><p>c</p><p>d</p></div></body></html>`,
  ),
);
const TREE = buildTree(TREE_PAGE);

test("Algorithm 2: reduced set = candidates whose parent is not a candidate", () => {
  const isCand = new Uint8Array(TREE.n);
  for (const i of [3, 4, 5, 6, 8, 9]) isCand[i] = 1;
  assert.deepEqual(reduceCandidates(TREE, isCand), [3, 5, 8]);
});

test("Algorithm 3: branch = parent with the largest subtree, first in DFS on ties", () => {
  assert.equal(mainContentBranch(TREE, [3, 8]), 2, "div#x (5 nodes) ties div#y (5 nodes): first wins");
  assert.equal(mainContentBranch(TREE, [4, 2]), 1, "body (11 nodes) beats p (2 nodes)");
  const words = new Float64Array(TREE.n);
  words[2] = 1;
  words[7] = 5;
  assert.equal(mainContentBranch(TREE, [3, 8], words), 7, "branch=words: div#y holds more words");
});

test("Algorithm 5: siblings are replaced by their parent, recursively", () => {
  assert.deepEqual(mergeSiblings(TREE, [3, 5, 8]), [2, 8]);
  assert.deepEqual(mergeSiblings(TREE, [3, 5, 8, 10]), [1], "div#x and div#y merge into body");
  assert.deepEqual(mergeSiblings(TREE, [4]), [4]);
});

test("site picks the article of a templated site; the sidebar, nav and footer are template", async () => {
  const pages = blogPages();
  const key = pages[0] as PageSnapshot;
  const tree = buildTree(key);
  const r = siteLevelMainContent(key, tree, pages.slice(1));
  assert.equal(r.reduced.length, 4, "h2 + three paragraphs");
  assert.equal(key.nodes[r.branch]?.attrs?.["class"], "post");
  const e = await siteLevelExtractor.extract(key, { site: { domain: "blog.test", pages: pages.slice(1) } });
  assert.equal(e.text, RIVERS_TEXT);
  assert.deepEqual(e.nodes, [r.branch]);
  assert.ok(e.trace.some((t) => t.step === "alg5-merge"));
});

test("a candidate outside the branch is dropped with a trace entry", async () => {
  const pages = blogPages();
  const key = staticSnapshot(
    pageFromHtml(
      fixtureText("site/blog/rivers.html").replace(
        "All rights reserved.",
        "All rights reserved. Printed on 3 May.",
      ),
      "k",
      "http://blog.test/posts/rivers.html",
    ),
  );
  const e = await siteLevelExtractor.extract(key, { site: { domain: "blog.test", pages: pages.slice(1) } });
  assert.equal(e.text, RIVERS_TEXT);
  const drop = e.trace.find((t) => t.action === "drop");
  assert.equal(drop?.step, "alg4-branch");
  assert.match(drop?.text ?? "", /Printed on 3 May/);
});

test("n and random selection change the n-SET", async () => {
  const pages = blogPages();
  const key = pages[0] as PageSnapshot;
  const site = { domain: "blog.test", pages: pages.slice(1) };
  const two = await siteLevelExtractor.extract(key, { site, params: { n: 2 } });
  assert.match(two.trace[0]?.reason ?? "", /2 of 4 site pages \(ranked\)/);
  const rnd = await siteLevelExtractor.extract(key, { site, params: { selection: "random", seed: 7 } });
  assert.match(rnd.trace[0]?.reason ?? "", /random/);
  assert.equal(rnd.text, RIVERS_TEXT);
});

test("bad input: no site, no text, single node → empty with a reason; fallback only when asked", async () => {
  const key = blogPages()[0] as PageSnapshot;
  const none = await siteLevelExtractor.extract(key, {});
  assert.equal(none.text, "");
  assert.match(none.emptyReason ?? "", /other pages of the same site/);
  const fb = await siteLevelExtractor.extract(key, { params: { fallback: true } });
  assert.equal(fb.text, RIVERS_TEXT);
  assert.equal(fb.model, "fallback: feature-extractor");
  for (const html of ["", "<html><body><div> </div><script>var x = 1;</script></body></html>"]) {
    const e = await siteLevelExtractor.extract(staticSnapshot(pageFromHtml(html)), {
      site: { domain: "d", pages: [key] },
    });
    assert.equal(e.nodes.length, 0);
    assert.ok(e.emptyReason);
  }
  const copy = staticSnapshot(
    pageFromHtml(fixtureText("site/blog/rivers.html"), "copy", "http://blog.test/posts/rivers-copy.html"),
  );
  const same = await siteLevelExtractor.extract(key, { site: { domain: "d", pages: [key, copy] } });
  assert.match(same.emptyReason ?? "", /template only/);
});

test("10,000-level nesting: site runs without overflow", async () => {
  const deep = (t: string, id: string) =>
    staticSnapshot(
      pageFromHtml(
        `<html><body><p>menu</p>${"<div>".repeat(10_000)}<p>${t}</p>${"</div>".repeat(10_000)}</body></html>`,
        id,
      ),
    );
  const e = await siteLevelExtractor.extract(deep("the bottom text", "a"), {
    site: { domain: "d", pages: [deep("another text", "b")] },
  });
  assert.equal(e.text, "the bottom text");
});

test("trace paths equal nodePath for every node of the trace", async () => {
  const [page, ...others] = blogPages() as PageSnapshot[];
  const tree = buildTree(page as PageSnapshot);
  const e = await siteLevelExtractor.extract(page as PageSnapshot, {
    site: { domain: "blog", pages: others },
  });
  const traced = e.trace.filter((t) => t.node >= 0);
  assert.ok(traced.length > 0);
  for (const t of traced) assert.equal(t.path, nodePath(page as PageSnapshot, tree, t.node));
});

test(
  "100,000-node page: the four extractors stay near-linear (bounded trace, memoised paths)",
  { timeout: 30_000 },
  async () => {
    const big = (extra: string, id: string) =>
      staticSnapshot(pageFromHtml(hugePage(3_000_000).replace("<body>", `<body><p>${extra}</p>`), id));
    const a = big("alpha unique", "a");
    const b = big("beta other", "b");
    assert.ok(a.nodes.length > 100_000);
    const site = { domain: "d", pages: [b] };
    const e = await siteLevelExtractor.extract(a, { site });
    assert.equal(e.text, "alpha unique");
    for (const x of [contentExtractor, featureExtractor, kFeatureExtractor]) {
      const r = await x.extract(a, { site });
      assert.ok(r.trace.length <= 4 * MAX_TRACE_PER_STEP + 4, `${x.name}: trace bounded`);
    }
  },
);

test("a bad n is a usage error, not a silent empty result", async () => {
  const pages = blogPages();
  await assert.rejects(
    async () =>
      siteLevelExtractor.extract(pages[0] as PageSnapshot, {
        site: { domain: "d", pages: pages.slice(1) },
        params: { n: "four" },
      }),
    /n must be a positive integer/,
  );
});
