/**
 * The studio's library side without a browser: a labeling saved in the dataset format is what
 * `pith evaluate` and `pith train` read (a round trip of pith's own choice scores 1.000), an
 * unreadable gold-html file falls back to the gold text, and bad folders are one-line errors.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { StaticRenderer } from "../src/render/static.ts";
import { Studio } from "../src/studio/studio.ts";
import { openWorkspace } from "../src/studio/workspace.ts";
import { pith, tempDir, warcResponse } from "./helpers.ts";

const SAMPLE = new URL("../data/sample/", import.meta.url).pathname;

function sampleCopy(): string {
  const dir = join(tempDir("pith-studio-lib-"), "set");
  cpSync(SAMPLE, dir, { recursive: true });
  return dir;
}

/** A copy of the sample set holding only the page `id`. */
function onePageSet(id: string): string {
  const dir = sampleCopy();
  const row = readFileSync(join(dir, "index.jsonl"), "utf8")
    .split("\n")
    .find((l) => l.includes(`"id":"${id}"`));
  writeFileSync(join(dir, "index.jsonl"), row + "\n");
  return dir;
}

test("pith's own choice saved as labels scores word and node F1 1.000 in pith evaluate", async () => {
  const dir = onePageSet("wx-2857");
  const studio = new Studio(await openWorkspace([dir]), { mode: "static" }, new StaticRenderer());
  const page = studio.workspace.pages[0]!;
  const { analysis } = await studio.load(page);
  const kept = analysis.blocks.filter((b) => b.kept).map((b) => b.node);
  assert.ok(analysis.prf!.f1 < 1, "the page's own gold differs from pith's output");
  await studio.save(page, { main: kept, pageType: "forum" });
  assert.match(
    readFileSync(join(dir, "index.jsonl"), "utf8"),
    /^\{"id":"wx-2857",.*"page_type":"forum"\}\n$/,
  );
  const { analysis: again } = await studio.load(page);
  assert.deepEqual(again.goldMain, kept);
  assert.equal(again.prf!.f1, 1);
  const run = await pith(["evaluate", "--method", "ml", "--data", dir]);
  const all = (run.stdout.split("\n").find((l) => l.startsWith("| all | ml |")) ?? "").split("|");
  const header = (run.stdout.split("\n").find((l) => l.startsWith("| group |")) ?? "").split("|");
  const cell = (name: string): string => all[header.findIndex((h) => h.trim() === name)]?.trim() ?? "";
  assert.equal(cell("word F1"), "**1.000**", run.stdout);
  assert.equal(cell("node F1"), "1.000", run.stdout);
});

test("an unreadable gold-html file: the page opens with labels from its gold text, and says so", async () => {
  const dir = sampleCopy();
  mkdirSync(join(dir, "gold-html"));
  writeFileSync(join(dir, "gold-html", "wx-0368.html.gz"), "not gzip");
  const studio = new Studio(await openWorkspace([dir]), { mode: "static" }, new StaticRenderer());
  const { analysis } = await studio.load(studio.workspace.pages.find((p) => p.id === "wx-0368")!);
  assert.match(analysis.warning ?? "", /gold-html file is unreadable .*labels from its gold text/);
  assert.ok((analysis.goldMain ?? []).length > 10);
});

test("bad folders are one-line usage errors", async () => {
  const empty = tempDir("pith-studio-empty-");
  const none = await pith(["studio", empty, "--port", "0"]);
  assert.equal(none.status, 2);
  assert.match(none.stderr, /^pith: studio: no pages in .*: expected a dataset folder/);
  const bad = sampleCopy();
  writeFileSync(join(bad, "index.jsonl"), '{"id":"a"}\nnot json\n');
  const corrupt = await pith(["studio", bad, "--port", "0"]);
  assert.equal(corrupt.status, 2);
  assert.match(corrupt.stderr, /index\.jsonl line 2: not JSON/);
  assert.equal(corrupt.stderr.trim().split("\n").length, 1);
});

test("a plain folder of pages: a saved page goes to a dataset folder of its own, read back on the next start", async () => {
  const dir = tempDir("pith-studio-plain-");
  mkdirSync(join(dir, "sub"));
  cpSync(join(SAMPLE, "html", "wx-0204.html.gz"), join(dir, "sub", "a page.html.gz"));
  cpSync(join(SAMPLE, "html", "wx-4603.html.gz"), join(dir, "b.html.gz"));
  const studio = new Studio(await openWorkspace([dir]), { mode: "static" }, new StaticRenderer());
  assert.deepEqual(
    studio.workspace.pages.map((p) => p.id),
    ["b", "sub_a_page"],
  );
  const page = studio.workspace.pages[1]!;
  const { analysis } = await studio.load(page);
  await studio.save(page, { main: analysis.blocks.filter((b) => b.kept).map((b) => b.node) });
  const out = join(dir, "labeled");
  const row = JSON.parse(readFileSync(join(out, "index.jsonl"), "utf8")) as Record<string, unknown>;
  assert.deepEqual(row, {
    id: "sub_a_page",
    url: "https://www.austintexas.gov/department/workforce-development",
    domain: "www.austintexas.gov",
    genre: "other",
    source: "pith studio",
  });
  // the same words in the same order: gold has a block per line, text output a table row per line
  const words = (text: string) => text.split(/\s+/).filter(Boolean);
  assert.deepEqual(words(readFileSync(join(out, "gold", "sub_a_page.txt"), "utf8")), words(analysis.text));
  // opened again, the labeled folder is not taken for pages, and the page has its gold
  const again = new Studio(await openWorkspace([dir]), { mode: "static" }, new StaticRenderer());
  assert.equal(again.workspace.pages.length, 2);
  assert.equal((await again.load(again.workspace.pages[1]!)).analysis.prf?.f1, 1);
});

test("a WARC's HTML records and a list of URLs are pages too; their labels go to --out", async () => {
  const dir = tempDir("pith-studio-warc-");
  const html = gunzipSync(readFileSync(join(SAMPLE, "html", "wx-0204.html.gz"))).toString("utf8");
  const warc = join(dir, "crawl.warc.gz");
  writeFileSync(
    warc,
    Buffer.concat([
      await warcResponse("https://www.austintexas.gov/a", html, "text/html"),
      await warcResponse("https://www.austintexas.gov/b.css", "p{}", "text/css"),
      await warcResponse(
        "https://www.austintexas.gov/c",
        "<p>A small second page with words.</p>",
        "text/html",
      ),
    ]),
  );
  await assert.rejects(openWorkspace([warc]), /--out DIR is needed with a WARC/);
  const server = createServer((_req, res) => res.end("<title>t</title><p>Served page words here.</p>"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const list = join(dir, "urls.txt");
  writeFileSync(list, `# pages\nhttp://127.0.0.1:${(server.address() as AddressInfo).port}/post\n`);
  const out = join(dir, "out");
  let workspace;
  try {
    workspace = await openWorkspace([warc], out, list);
  } finally {
    server.close();
  }
  assert.deepEqual(
    workspace.pages.map((p) => [p.id, p.url]),
    [
      ["crawl.warc.gz_1", "https://www.austintexas.gov/a"],
      ["crawl.warc.gz_2", "https://www.austintexas.gov/c"],
      [`127.0.0.1_${new URL(workspace.pages[2]!.url!).port}_post`, workspace.pages[2]!.url],
    ],
  );
  const studio = new Studio(workspace, { mode: "static" }, new StaticRenderer());
  const { analysis } = await studio.load(workspace.pages[0]!);
  await studio.save(workspace.pages[0]!, { main: analysis.blocks.filter((b) => b.kept).map((b) => b.node) });
  assert.equal(gunzipSync(readFileSync(join(out, "html", "crawl.warc.gz_1.html.gz"))).toString("utf8"), html);
  assert.match(
    readFileSync(join(out, "index.jsonl"), "utf8"),
    /^\{"id":"crawl\.warc\.gz_1","url":"https:\/\/www\.austintexas\.gov\/a","domain":"www\.austintexas\.gov"/,
  );
});
