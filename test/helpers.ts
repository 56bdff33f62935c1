/** Shared test helpers: page inputs from strings and fixture files, generated bad pages, a synthetic labeled set. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { gzipSync } from "node:zlib";
import { WARCRecord, WARCSerializer } from "warcio";
import { createRng } from "../src/ml/prng.ts";
import { buildTree } from "../src/dom/tree.ts";
import { structuralNodes } from "../src/features/structural.ts";
import { ownership } from "../src/pipeline/own-text.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { PageInput, PageSnapshot } from "../src/types.ts";

export function pageFromHtml(html: string, id = "test-page", url: string | null = null): PageInput {
  return { id, source: id, url, html, encoding: "utf-8", remote: false };
}

/** A static page's tree, structural rows and word ownership: what the pipeline's rules and refiners read. */
export function staticRows(html: string) {
  const page = staticSnapshot(pageFromHtml(html));
  const tree = buildTree(page);
  const nodes = structuralNodes(page, tree);
  return { page, tree, nodes, own: ownership(page, tree, nodes) };
}

/** Temporary directories made by tempDir in this test file's process, removed when it exits. */
const TEMP_DIRS: string[] = [];
process.on("exit", () => {
  for (const dir of TEMP_DIRS) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory under the system's temp dir (`prefix` + random), removed when the test file's process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  TEMP_DIRS.push(dir);
  return dir;
}

/** bin/pith.js, the command a user runs. */
export const PITH = new URL("../bin/pith.js", import.meta.url).pathname;

/**
 * Runs `pith ARGS` in a child process (stdin closed after `stdin`; in `cwd` when given, else the
 * test's working directory; `env` added to this process's environment) and collects its exit
 * status and output.
 */
export function pith(
  args: string[],
  stdin?: string,
  cwd?: string,
  env?: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("node", [PITH, ...args], {
      timeout: 120_000,
      ...(cwd ? { cwd } : {}),
      ...(env ? { env: { ...process.env, ...env } } : {}),
    });
    let stdout = "";
    let stderr = "";
    // decoded as a stream, so a character split across two chunks is not garbled
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

export function fixturePath(rel: string): string {
  return new URL(`./fixtures/${rel}`, import.meta.url).pathname;
}

/** Reads a fixture; a missing fixture fails the test that asked for it. */
export function fixtureText(rel: string): string {
  return readFileSync(fixturePath(rel), "utf8");
}

/** One gzipped WARC response record: a crawl holding `body` for `url`. */
export async function warcResponse(
  url: string,
  body: string,
  contentType: string,
  gzip = true,
): Promise<Uint8Array> {
  const record = WARCRecord.create(
    { url, type: "response", warcVersion: "WARC/1.1", httpHeaders: { "Content-Type": contentType } },
    (async function* () {
      yield new TextEncoder().encode(body);
    })(),
  );
  return WARCSerializer.serialize(record, { gzip });
}

/** `depth` nested divs around one paragraph. */
export function deeplyNested(depth: number): string {
  return `<html><body>${"<div>".repeat(depth)}<p>deep text at the bottom</p>${"</div>".repeat(depth)}</body></html>`;
}

/**
 * The documents a parser's event test starts from: the fixture article, every bad-input fixture
 * (at least five: a missing folder fails the test) and 10,000 nested elements.
 */
export function parserFixtures(): { html: string; what: string }[] {
  const inputs = readdirSync(fixturePath("inputs"));
  assert.ok(inputs.length >= 5, "the bad-input fixtures are missing");
  return [
    { html: fixtureText("pages/article.html"), what: "pages/article.html" },
    ...inputs.map((name) => ({ html: fixtureText(`inputs/${name}`), what: `inputs/${name}` })),
    { html: deeplyNested(10_000), what: "10,000 nested elements" },
  ];
}

/** A page of roughly `bytes` bytes made of many paragraphs. */
export function hugePage(bytes: number): string {
  const para =
    '<div class="c"><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p></div>\n';
  return `<html><body>${para.repeat(Math.ceil(bytes / para.length))}</body></html>`;
}

/** The hand-made five-page blog in fixtures/site/blog/: one template, five articles. */
export const BLOG = ["rivers", "bees", "bread", "stars", "tides"];

export function blogPages(): PageSnapshot[] {
  return BLOG.map((n) =>
    staticSnapshot(pageFromHtml(fixtureText(`site/blog/${n}.html`), n, `http://blog.test/posts/${n}.html`)),
  );
}

/** The main text of fixtures/site/blog/rivers.html. */
export const RIVERS_TEXT = [
  "How rivers carve canyons",
  "Water moving over rock for millions of years slowly grinds the stone into sand and gravel.",
  "Floods carry boulders that act like chisels against the canyon walls during storms.",
  "The Colorado river cut the Grand Canyon over roughly six million years of erosion.",
].join("\n");

const WORDS =
  "river bank water flow stone valley delta rain cloud sea tide sand grass field forest hill lake bridge".split(
    " ",
  );

function sentence(rng: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(rng() * WORDS.length)]).join(" ") + ".";
}

/** One synthetic page (nav, article, related box, footer in a site's template) and its gold text. */
export function syntheticPage(seed: number, site: string): { html: string; gold: string } {
  const r = createRng(seed);
  const rng = (): number => r.next();
  const paras = Array.from({ length: 3 + Math.floor(rng() * 3) }, () =>
    sentence(rng, 25 + Math.floor(rng() * 20)),
  );
  const title = sentence(rng, 5);
  const nav = ["Home", "News", "Sport", "About", "Contact"]
    .map((t) => `<li><a href="/${t}">${t}</a></li>`)
    .join("");
  const related = Array.from({ length: 4 }, () => `<li><a href="/r">${sentence(rng, 4)}</a></li>`).join("");
  const html = `<!doctype html><html><head><title>${title}</title></head><body>
<header class="${site}-top"><nav><ul>${nav}</ul></nav></header>
<div class="wrap"><article><h1>${title}</h1>${paras.map((p) => `<p>${p}</p>`).join("\n")}</article>
<aside class="related"><h3>Related stories</h3><ul>${related}</ul></aside></div>
<footer><p>Copyright ${site}. All rights reserved.</p><a href="/privacy">Privacy</a></footer></body></html>`;
  return { html, gold: [title, ...paras].join("\n") };
}

/** Writes a labeled set of synthetic pages (html/, gold/, index.jsonl, README.md) into `dir`. */
export function writeSyntheticSet(dir: string, sites: readonly string[], pagesPerSite: number): void {
  mkdirSync(join(dir, "html"));
  mkdirSync(join(dir, "gold"));
  const index: string[] = [];
  sites.forEach((site, s) => {
    for (let k = 0; k < pagesPerSite; k++) {
      const id = `p-${s}-${k}`;
      const { html, gold } = syntheticPage(100 * s + k + 1, site);
      writeFileSync(join(dir, "html", `${id}.html.gz`), gzipSync(html));
      writeFileSync(join(dir, "gold", `${id}.txt`), gold);
      index.push(
        JSON.stringify({ id, url: `https://${site}/${id}`, domain: site, genre: "news", lang: "en" }),
      );
    }
  });
  writeFileSync(join(dir, "index.jsonl"), index.join("\n") + "\n");
  writeFileSync(join(dir, "README.md"), "# synthetic\n\n- License: CC0 (generated by the test)\n");
}

/**
 * A synthetic labeled set (writeSyntheticSet) and a training cache of its own (PITH_CACHE) for the
 * test file that calls this at top level: made before its tests, removed after them. `dir` is
 * set once the tests run.
 */
export function syntheticSetFixture(
  name: string,
  sites: readonly string[],
  pagesPerSite: number,
): { dir: string } {
  const set = { dir: "" };
  let cache = "";
  before(() => {
    set.dir = mkdtempSync(join(tmpdir(), `pith-${name}-set-`));
    cache = mkdtempSync(join(tmpdir(), `pith-${name}-cache-`));
    process.env["PITH_CACHE"] = cache;
    writeSyntheticSet(set.dir, sites, pagesPerSite);
  });
  after(() => {
    rmSync(set.dir, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });
  return set;
}

/**
 * Resolves once `condition()` holds, polling every 50 ms; rejects after `limitMs` (a bound for a
 * loaded machine, not a speed test). For effects that follow a signal or a terminate() by a while.
 */
export async function eventually(condition: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`not within ${limitMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `text` as a regular expression that matches it literally (a temp path, a URL). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
