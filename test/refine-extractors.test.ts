import assert from "node:assert/strict";
import test from "node:test";
import "../src/algorithms/louvan.ts";
import { getExtractor } from "../src/extractors.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { Extraction, ExtractorContext, PageSnapshot } from "../src/types.ts";
import { deeplyNested, fixtureText, hugePage, pageFromHtml } from "./helpers.ts";

const METHODS = ["lbs", "sls", "tp"] as const;

async function run(method: string, page: PageSnapshot, context?: ExtractorContext): Promise<Extraction> {
  return getExtractor(method).extract(page, context);
}

function snap(html: string): PageSnapshot {
  return staticSnapshot(pageFromHtml(html));
}

test("lbs, sls (r=1), tp on the article fixture: the article paragraphs, not menu or footer", async () => {
  const page = snap(fixtureText("refine/article.html"));
  const article = page.nodes.findIndex((n) => n.attrs?.["id"] === "article");
  assert.deepEqual((await run("lbs", page)).nodes, [article]);
  const sls = await run("sls", page, { params: { radius: 1 } });
  assert.deepEqual(sls.nodes, [article]);
  assert.equal(sls.text.split("\n").length, 6);
  assert.equal(sls.method, "sls");
  // TP: the five long paragraphs and the caption are six repeated <p>: the same block.
  assert.deepEqual((await run("tp", page)).nodes, [article]);
});

test("tp on the forum fixture returns the three posts; sls and lbs do not", async () => {
  const page = snap(fixtureText("refine/forum.html"));
  const tp = await run("tp", page);
  assert.equal(tp.nodes.length, 3);
  assert.ok(tp.nodes.every((i) => page.nodes[i]?.attrs?.["class"]?.startsWith("post post-")));
  assert.equal(
    tp.text,
    "alice\nMy bike chain keeps slipping on the smallest cog.\nbob\nCheck the derailleur limit screw first.\ncarol\nWorn chains slip too, measure it.",
  );
  // LBS: the intro (80 chars in one <p>) beats any single post body (49): a thread is not one block of string.
  assert.match((await run("lbs", page)).text, /^Welcome to the forum/);
});

test("tp with no repeated structure: empty with a reason by default, everything with fallback=all", async () => {
  const page = snap(`<html><body><div id="a"><p>Only one paragraph of text here.</p></div></body></html>`);
  const none = await run("tp", page);
  assert.deepEqual(none.nodes, []);
  assert.match(none.emptyReason ?? "", /tp kept no block/);
  assert.match(none.trace[0]?.reason ?? "", /no repeated structure/);
  assert.equal(
    (await run("tp", page, { params: { fallback: "all" } })).text,
    "Only one paragraph of text here.",
  );
  await assert.rejects(async () => run("sls", page, { params: { stdOf: "median" } }), /stdOf must be one of/);
});

test("no text or a single node: empty Extraction with emptyReason, never a throw", async () => {
  for (const html of [
    "",
    "<html><body><div><img src=x></div></body></html>",
    "<html><body><script>var x = 1</script></body></html>",
  ]) {
    for (const m of METHODS) {
      const r = await run(m, snap(html));
      assert.deepEqual([r.nodes, r.text], [[], ""], `${m} on ${JSON.stringify(html)}`);
      assert.ok(r.emptyReason, `${m} gives a reason on ${JSON.stringify(html)}`);
    }
  }
});

test("10,000-level nesting (text at every level) and 100,000 nodes: no overflow, fast", async () => {
  const deepText = snap(
    `<html><body>${"<div>level text ".repeat(10_000)}${"</div>".repeat(10_000)}</body></html>`,
  );
  const deep = snap(deeplyNested(10_000));
  const big = snap(hugePage(3_600_000));
  assert.ok(big.nodes.length > 100_000);
  for (const m of METHODS) {
    const a = await run(m, deepText);
    const b = await run(m, deep);
    const c = await run(m, big, m === "tp" ? { params: { fallback: "all" } } : {});
    assert.ok(a.trace.length >= 10_000 || a.emptyReason, `${m}: one decision per block`);
    if (m !== "tp") assert.equal(b.text, "deep text at the bottom", m);
    // Each paragraph of hugePage sits alone in its <div>: LBS's sibling groups hold one paragraph each.
    if (m === "lbs")
      assert.equal(c.text, "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.");
    else assert.ok(c.text.length > 1_000_000, `${m} keeps the repeated paragraphs`);
  }
});
