/**
 * Debnath et al. (SAC 2005): GetBlockSet, SIM/IBDF, FeatureExtractor winner basket,
 * K-FeatureExtractor k-means, ContentExtractor — hand-computed cases and a fixture site.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { staticSnapshot } from "../src/render/static.ts";
import { buildTree } from "../src/dom/tree.ts";
import { PAPER_TAG_SET, blockFeature, getBlockSet } from "../src/site/block-set.ts";
import { blockIbdf, blockSimilarity, indexBlocks, nodeIbdf } from "../src/site/ibdf.ts";
import { featureExtractor, winnerBasket } from "../src/algorithms/feature-extractor.ts";
import {
  adaptiveKMeans,
  initialCentroids,
  kFeatureExtractor,
  kMeans1d,
} from "../src/algorithms/k-feature-extractor.ts";
import { contentExtractor } from "../src/algorithms/content-extractor.ts";
import { blockCounts, blockPrecisionRecall } from "../src/algorithms/debnath-block-metrics.ts";
import type { Extractor, PageSnapshot } from "../src/types.ts";
import { blogPages, pageFromHtml, RIVERS_TEXT } from "./helpers.ts";

// 0 html, 1 body, 2 div#a, 3 p, 4 "one two", 5 p, 6 "three", 7 table, 8 tr, 9 td, 10 "four ", 11 img
const PAGE = staticSnapshot(
  pageFromHtml(
    `<html><body><div id="a"><p>one two</p><p>three</p></div><table><tr><td>four <img src=x></td></tr></table></body></html>`,
  ),
);

test("GetBlockSet with the paper's tag set: every T element roots a block owning its non-block nodes", () => {
  const bs = getBlockSet(PAGE, buildTree(PAGE), PAPER_TAG_SET);
  assert.deepEqual([...bs.roots], [0, 3, 5, 7, 8]);
  assert.deepEqual([...bs.blockOf], [0, 0, 0, 1, 1, 2, 2, 3, 4, 4, 4, 4]);
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((b) => blockFeature(bs, b, "text")),
    [0, 2, 1, 0, 1],
  );
  assert.equal(blockFeature(bs, 4, "images"), 1);
  assert.equal(blockFeature(bs, 3, "tables"), 1);
});

test("SIM is the cosine of log-scaled counts plus binary term features", () => {
  const a = staticSnapshot(pageFromHtml(`<html><body><p>x y</p></body></html>`, "a"));
  const b = staticSnapshot(pageFromHtml(`<html><body><p>x z</p></body></html>`, "b"));
  const ia = indexBlocks(a, undefined, PAPER_TAG_SET);
  const ib = indexBlocks(b, undefined, PAPER_TAG_SET);
  const l = Math.log(3) ** 2; // text count 2 → log1p(2)
  assert.ok(Math.abs(blockSimilarity(ia, 1, ib, 1) - (l + 1) / (l + 2)) < 1e-12);
  assert.equal(blockSimilarity(ia, 1, ia, 1), 1);
});

test("IBDF: template blocks occur in every other page, article blocks in none", () => {
  const pages = blogPages();
  const key = pages[0] as PageSnapshot;
  const tree = buildTree(key);
  const r = blockIbdf(key, tree, pages.slice(1));
  const ibdfAt = (pred: (i: number) => boolean): number =>
    nodeIbdf(key, tree, pages.slice(1))[key.nodes.findIndex((_, i) => pred(i))] as number;
  assert.equal(
    ibdfAt((i) => key.nodes[i]?.attrs?.["id"] === "footer"),
    1 / 5,
    "footer block: similar in 4 pages",
  );
  assert.equal(
    ibdfAt((i) => key.nodes[i]?.text?.startsWith("Water moving") === true),
    1,
    "article paragraph: unique",
  );
  assert.equal(r.similarPages.length, r.blocks.roots.length);
});

test("FeatureExtractor: winner basket then the block with most desired features", async () => {
  const key = blogPages()[0] as PageSnapshot;
  const basket = winnerBasket(key, buildTree(key));
  assert.equal(basket.winners.length, 3, "header, post, sidebar have more text than other features");
  const e = await featureExtractor.extract(key);
  assert.equal(e.text, RIVERS_TEXT);
  assert.equal(e.trace.filter((t) => t.action === "keep").length, 1);
});

test("K-FeatureExtractor: equidistant-rank init, 1-D k-means, adaptive k", () => {
  assert.deepEqual(initialCentroids([9, 7, 5, 3, 1], 3), [9, 5, 1]);
  assert.deepEqual(initialCentroids([9, 7, 5, 3, 1], 2), [9, 1]);
  assert.deepEqual(initialCentroids([4], 3), [4]);
  const km = kMeans1d([1, 1.2, 5, 5.2], 2);
  assert.deepEqual(km.assignment, [1, 1, 0, 0]);
  assert.ok(
    Math.abs((km.centroids[0] as number) - 5.1) < 1e-12 &&
      Math.abs((km.centroids[1] as number) - 1.1) < 1e-12,
  );
  // k=2: SSE 1; k=3: {10,9},{1},{0} SSE 0.5 ≤ 0.5·1 → 3
  assert.equal(adaptiveKMeans([10, 9, 1, 0]).k, 3);
  // k=2: SSE 1; k=3 from [10,1,0]: {10,9.5,9},{1,0.5},{0} SSE 0.625 > 0.5 → 2
  assert.equal(adaptiveKMeans([10, 9.5, 9, 1, 0.5, 0]).k, 2);
  assert.equal(adaptiveKMeans([3, 3]).k, 1);
});

test("K-FeatureExtractor and ContentExtractor pick the article of the fixture site", async () => {
  const pages = blogPages();
  const key = pages[0] as PageSnapshot;
  assert.equal((await kFeatureExtractor.extract(key)).text, RIVERS_TEXT);
  const ce = await contentExtractor.extract(key, { site: { domain: "blog.test", pages: pages.slice(1) } });
  assert.equal(ce.text, RIVERS_TEXT);
  assert.ok(ce.trace.some((t) => t.action === "drop" && /similar block in 4 of 4/.test(t.reason)));
});

test("bad input: empty with a reason, never a throw; content-extractor needs a site unless fallback", async () => {
  const key = blogPages()[0] as PageSnapshot;
  const none = await contentExtractor.extract(key, {});
  assert.match(none.emptyReason ?? "", /other pages of the same site/);
  assert.equal((await contentExtractor.extract(key, { params: { fallback: true } })).text, RIVERS_TEXT);
  const bad = ["", "<html></html>", "<html><body><div>   </div></body></html>"].map((h) =>
    staticSnapshot(pageFromHtml(h)),
  );
  const extractors: Extractor[] = [featureExtractor, kFeatureExtractor, contentExtractor];
  for (const x of extractors) {
    for (const p of bad) {
      const e = await x.extract(p, { site: { domain: "d", pages: [key] } });
      assert.deepEqual([e.text, e.nodes], ["", []], x.name);
      assert.ok(e.emptyReason, x.name);
    }
  }
});

test("10,000-level nesting: block set and the three extractors do not overflow", async () => {
  const deep = (t: string, id: string) =>
    staticSnapshot(
      pageFromHtml(
        `<html><body>${"<div>".repeat(10_000)}<p>${t}</p>${"</div>".repeat(10_000)}</body></html>`,
        id,
      ),
    );
  const a = deep("the bottom text", "a");
  assert.equal((await featureExtractor.extract(a)).text, "the bottom text");
  assert.equal((await kFeatureExtractor.extract(a)).text, "the bottom text");
  assert.equal(
    (await contentExtractor.extract(a, { site: { domain: "d", pages: [deep("other words here", "b")] } }))
      .text,
    "the bottom text",
  );
});

test("block-level P/R (Debnath §4.1) from node gold labels", () => {
  const bs = getBlockSet(PAGE, buildTree(PAGE), PAPER_TAG_SET);
  // units: "one two" (block 1, gold), "three" (block 2), "four " (block 4, gold); chosen: the first <p>
  const c = blockCounts(PAGE, buildTree(PAGE), bs, [4, 6, 10], [true, false, true], [3]);
  assert.deepEqual(c, { blocks: 3, relevant: 2, suggested: 1, found: 1 });
  assert.deepEqual(blockPrecisionRecall(c), { p: 1, r: 0.5 });
  assert.deepEqual(blockPrecisionRecall({ blocks: 2, relevant: 0, suggested: 0, found: 0 }), { p: 1, r: 1 });
  assert.deepEqual(blockPrecisionRecall({ blocks: 2, relevant: 1, suggested: 0, found: 0 }), { p: 0, r: 0 });
});
