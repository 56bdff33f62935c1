/**
 * Node labels from gold-html, and end-to-end runs on the hand-made dataset in
 * test/fixtures/evaluate/tiny (three pages; figures computed by hand in the comments).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { buildTree } from "../src/dom/tree.ts";
import { alignWords, goldNodeLabels, predictedNodeLabels } from "../src/evaluate/gold-nodes.ts";
import { evaluateMethods } from "../src/evaluate/runner.ts";
import { DatasetError } from "../src/io/dataset.ts";
import { registerExtractor } from "../src/extractors.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { ExtractorContext, PageSnapshot } from "../src/types.ts";
import { fixturePath, pageFromHtml, tempDir } from "./helpers.ts";

const TINY = fixturePath("evaluate/tiny");
const close = (a: number | undefined, b: number, eps = 1e-9): void =>
  assert.ok(a !== undefined && Math.abs(a - b) < eps, `${a} ≠ ${b}`);

describe("node labels from gold-html", () => {
  const html = `<html><body><nav>Home News</nav><p>The council met today.</p><p>Comments: great</p></body></html>`;
  const page = staticSnapshot(pageFromHtml(html));
  const tree = buildTree(page);
  const texts = (units: number[]): string[] => units.map((u) => page.nodes[u]?.text ?? "");
  it("reads l3s-gn1 x-nc-sel classes (1-3 main, others not)", () => {
    const gold = `<html><body><span class="x-nc-sel0">Home News</span><span class="x-nc-sel2">The council met today.</span><span class="x-nc-sel4">Comments: great</span></body></html>`;
    const g = goldNodeLabels(page, tree, gold);
    assert.deepEqual(texts(g.units), ["Home News", "The council met today.", "Comments: great"]);
    assert.deepEqual(g.gold, [false, true, false]);
  });
  it("treats every text of a Readability-style excerpt as main", () => {
    const g = goldNodeLabels(page, tree, `<div><p>The council met today.</p></div>`);
    assert.deepEqual(g.gold, [false, true, false]);
    const p = page.nodes.findIndex((n) => n.tag === "p");
    assert.deepEqual(predictedNodeLabels(tree, g.units, [p]), [false, true, false]);
    assert.deepEqual(predictedNodeLabels(tree, g.units, [0]), [true, true, true]);
    assert.deepEqual(predictedNodeLabels(tree, g.units, []), [false, false, false]);
  });
  it("aligns long sequences through unique anchors", () => {
    const gold = Int32Array.from({ length: 2000 }, (_, i) => i); // every word unique
    const noise = (k: number): number[] => Array.from({ length: 1000 }, (_, i) => 10_000 + k * 1000 + i);
    const s = Int32Array.from([...noise(0), ...gold, ...noise(1)]); // 4000 × 2000 cells: past the exact table
    const match = alignWords(s, gold);
    assert.equal(match.filter((j) => j >= 0).length, 2000);
    assert.equal(match[1000], 0);
    assert.equal(match[2999], 1999);
  });
});

describe("evaluateMethods on the tiny fixture", () => {
  it("scores all-text per page and per page type", async () => {
    assert.ok(existsSync(join(TINY, "index.jsonl")), "fixture dataset missing");
    const { runs, pages } = await evaluateMethods({ methods: ["all-text"], datasets: [TINY], workers: 1 });
    assert.equal(pages.length, 3);
    const byId = new Map(pages.map((p) => [p.id, p]));
    // t-1: 17 words extracted (nav + article + footer), the 12 gold words all inside
    close(byId.get("t-1")?.wcxb.p, 12 / 17);
    close(byId.get("t-1")?.wcxb.f1, 24 / 29);
    // node units: Home, About, the h1, the p, the footer; gold: h1 and p
    assert.deepEqual([byId.get("t-1")?.nodes?.p, byId.get("t-1")?.nodes?.r], [0.4, 1]);
    close(byId.get("t-1")?.nodes?.f1, 4 / 7);
    // t-2: 16 words, 12 gold
    close(byId.get("t-2")?.wcxb.f1, 6 / 7);
    assert.equal(byId.get("t-2")?.nodes, null); // no gold-html for this page
    const g2 = "First post: how do I fix my bike? Reply: pump the tyres.";
    const e2 = "Forum index First post: how do I fix my bike? Reply: pump the tyres. Buy now";
    close(byId.get("t-2")?.lcs.p, g2.length / e2.length);
    // t-3: empty gold, non-empty output
    assert.deepEqual(byId.get("t-3")?.wcxb, { p: 0, r: 0, f1: 0 });
    const all = runs.find((r) => r.group === "all");
    close(all?.wcxb.f1, (24 / 29 + 6 / 7) / 3);
    close(all?.wcxb.r, 2 / 3);
    close(all?.nodes?.f1, 4 / 7);
    // snippets: with 3/3 found; without 0/3 avoided; trafilatura tp 1, fp 3, fn 2
    assert.deepEqual({ ...all?.snippets, f1: 0 }, { with: 1, without: 0, f1: 0, n_with: 3, n_without: 3 });
    close(all?.snippets?.f1, 2 / 7);
    assert.deepEqual(
      runs.map((r) => `${r.group}:${r.pages}`),
      ["all:3", "article:2", "forum:1"],
    );
  });

  it("counts a failing method as a miss and goes on: 0 on every page, also where the gold is empty", async () => {
    registerExtractor({
      name: "test-throws",
      description: "always fails",
      extract: () => {
        throw new Error("boom");
      },
    });
    const { runs, pages } = await evaluateMethods({ methods: ["test-throws"], datasets: [TINY], workers: 1 });
    assert.deepEqual(
      pages.map((p) => p.error),
      ["extract: boom", "extract: boom", "extract: boom"],
    );
    const all = runs.find((r) => r.group === "all");
    assert.equal(all?.errors, 3);
    assert.equal(all?.wcxb.f1, 0, "t-3's empty gold does not make a failure a hit");
    assert.deepEqual(
      pages.map((p) => [p.wcxb.f1, p.aeb.tp, p.lcs.f1]),
      [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ],
    );
  });

  it("leaves out pages without a gold file (and says which), refuses two sets of one name and an unknown page type", async () => {
    const root = tempDir("pith-eval-sets-");
    const copy = join(root, "tiny");
    cpSync(TINY, copy, { recursive: true });
    rmSync(join(copy, "gold", "t-2.txt"));
    const { pages, withoutGold } = await evaluateMethods({
      methods: ["all-text"],
      datasets: [copy],
      workers: 1,
    });
    assert.deepEqual(
      pages.map((p) => p.id),
      ["t-1", "t-3"],
    );
    assert.deepEqual(withoutGold, ["tiny/t-2"]);
    await assert.rejects(
      evaluateMethods({ methods: ["all-text"], datasets: [TINY, copy], workers: 1 }),
      (e: Error) => e instanceof DatasetError && /two sets are named "tiny"/.test(e.message),
    );
    await assert.rejects(
      evaluateMethods({ methods: ["all-text"], datasets: [TINY], pageType: "recipe", workers: 1 }),
      /no page of type "recipe" .*types there: article, forum/,
    );
    const twice = await evaluateMethods({ methods: ["all-text"], datasets: [TINY, TINY], workers: 1 });
    assert.equal(twice.pages.length, 3, "one set named twice is evaluated once");
    rmSync(root, { recursive: true, force: true });
  });

  it("gives site methods the other pages of the same domain, and the oracle its gold", async () => {
    const seen = new Map<string, string[]>();
    const record = (page: PageSnapshot, ctx?: ExtractorContext) => {
      seen.set(page.id, [...(ctx?.site?.pages.map((p) => p.id) ?? ["no-site"]), String(ctx?.gold ?? "")]);
      return { method: "x", text: "", nodes: [], trace: [] };
    };
    registerExtractor({
      name: "test-site",
      description: "records its site context",
      needsSite: true,
      extract: record,
    });
    await evaluateMethods({ methods: ["test-site"], datasets: [TINY], limit: 1, workers: 1 });
    assert.deepEqual(seen.get("t-1"), ["t-3", ""]); // t-3 rendered as context only
    assert.equal(seen.size, 1);
    registerExtractor({ name: "oracle", description: "records its gold", needsGold: true, extract: record });
    await evaluateMethods({
      methods: ["oracle"],
      datasets: [TINY],
      select: (p) => p.id === "t-2",
      workers: 1,
    });
    assert.deepEqual(seen.get("t-2"), [
      "no-site",
      "First post: how do I fix my bike?\nReply: pump the tyres.\n",
    ]);
  });

  it("gives the same figures on worker threads", async () => {
    const inProcess = await evaluateMethods({
      methods: ["all-text", "readability"],
      datasets: [TINY],
      workers: 1,
    });
    const threaded = await evaluateMethods({
      methods: ["all-text", "readability"],
      datasets: [TINY],
      workers: 2,
    });
    const strip = (r: typeof inProcess): unknown => r.pages.map(({ ms: _ms, ...rest }) => rest);
    assert.deepEqual(strip(threaded), strip(inProcess));
  });
});

describe("pith evaluate (CLI)", () => {
  it("prints a Markdown table and writes the JSON shape", async () => {
    const out = join(tempDir("pith-eval-"), "run.json");
    const bin = new URL("../bin/pith.js", import.meta.url).pathname;
    const { stdout } = await promisify(execFile)(process.execPath, [
      bin,
      "evaluate",
      "--method",
      "all-text",
      "--data",
      TINY,
      "--json",
      out,
    ]);
    assert.match(stdout, /^## tiny \(3 pages\)$/m);
    assert.match(stdout, /^\| all \| all-text \| 3 \| 0\.485 \| 0\.667 \| \*\*0\.562\*\* \|/m);
    const json = JSON.parse(readFileSync(out, "utf8")) as {
      runs: Record<string, unknown>[];
      pages: unknown[];
    };
    assert.deepEqual(Object.keys(json.runs[0] ?? {}), [
      "method",
      "dataset",
      "group",
      "pages",
      "errors",
      "wcxb",
      "aeb",
      "lcs",
      "nodes",
      "snippets",
      "rouge",
      "ms_per_page",
    ]);
    assert.equal(json.pages.length, 3);
  });
  it("a model that does not load is one fatal line (exit 3) before any page, as in extract; --workers 0 runs in this thread", async () => {
    const bin = new URL("../bin/pith.js", import.meta.url).pathname;
    const run = promisify(execFile)(process.execPath, [
      bin,
      "evaluate",
      "--method",
      "ml",
      "--data",
      TINY,
      "--model",
      join(tmpdir(), "pith-no-such-model.json"),
    ]);
    await assert.rejects(
      run,
      (e: { code?: number; stderr?: string }) =>
        e.code === 3 && /^pith: model .* not found\n$/.test(e.stderr ?? ""),
    );
    const { stdout } = await promisify(execFile)(process.execPath, [
      bin,
      "evaluate",
      "--method",
      "all-text",
      "--data",
      TINY,
      "--workers",
      "0",
    ]);
    assert.match(stdout, /^## tiny \(3 pages\)$/m);
  });
  it("rejects an unknown method or dataset as a usage error (exit 2), naming the peers", async () => {
    const bin = new URL("../bin/pith.js", import.meta.url).pathname;
    const run = promisify(execFile)(process.execPath, [bin, "evaluate", "--method", "nope", "--data", TINY]);
    await assert.rejects(
      run,
      (e: { code?: number; stderr?: string }) =>
        e.code === 2 && /unknown method "nope".*defuddle, all-text/.test(e.stderr ?? ""),
    );
  });
});
