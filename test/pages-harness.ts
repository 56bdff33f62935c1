/**
 * The regression corpus in test/pages/<slug>/ (Mozilla Readability's fixture layout): each case
 * is a cut-down real page, source.html, and pith's outputs on it, expected.txt, expected.md and
 * expected.json. This module computes those outputs in-process, as `pith extract SOURCE
 * --format text|markdown|json` writes them on stdout (the learned pipeline, static mode, default
 * parameters), so test/pages.test.ts, scripts/update-test-pages.ts and
 * scripts/new-test-page.ts all share one code path.
 *
 * expected.json is the JSON output without what depends on the file's path or the run (id,
 * source), with node scores rounded to 6 decimals and node text previews to 80 characters, the full text replaced by its length (it is
 * expected.txt), and the trace reduced to a count of actions per step (the full trace makes the
 * files large; its decisions show in the outputs anyway).
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  buildTree,
  createRenderer,
  mlExtractor,
  readPageFile,
  renderPage,
  runExtractor,
  type Extraction,
  type PageSnapshot,
  type Renderer,
  type RenderOptions,
} from "../src/index.ts";
import { formatExtraction } from "../src/output/index.ts";

export const PAGES_DIR = resolve(import.meta.dirname, "pages");
export const SOURCE_FILE = "source.html";
export const EXPECTED_FILES = {
  text: "expected.txt",
  markdown: "expected.md",
  json: "expected.json",
} as const;
export type ExpectedKind = keyof typeof EXPECTED_FILES;
export type PageOutputs = Record<ExpectedKind, string>;

/** The render options `pith extract` uses by default (src/cli/render-flags.ts); JSON output adds declaredMeta. */
const RENDER: RenderOptions = { javascript: false, network: false, loadResources: false, timeoutMs: 15_000 };

/** Case folders under test/pages, sorted (every directory is a case; a file there is ignored). */
export function listCases(dir = PAGES_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** Whether a case folder has its source and all three expected files. */
export function isComplete(caseDir: string): boolean {
  return [SOURCE_FILE, ...Object.values(EXPECTED_FILES)].every((f) => existsSync(join(caseDir, f)));
}

let renderer: Renderer | null = null;
let prepared = false;

async function extract(path: string, json: boolean): Promise<{ page: PageSnapshot; extraction: Extraction }> {
  const input = await readPageFile(path);
  if (!input.ok) throw new Error(`${path}: ${input.error.stage}: ${input.error.reason}`);
  renderer ??= await createRenderer("static");
  const rendered = await renderPage(renderer, input.value, json ? { ...RENDER, declaredMeta: true } : RENDER);
  if (!rendered.ok) throw new Error(`${path}: ${rendered.error.stage}: ${rendered.error.reason}`);
  // the CLI's parameters: only the JSON output carries the trace
  const params: Record<string, string | number | boolean> = json
    ? { mode: "static" }
    : { mode: "static", trace: false };
  if (!prepared) {
    await mlExtractor.prepare?.(params);
    prepared = true;
  }
  return { page: rendered.value, extraction: await runExtractor(mlExtractor, rendered.value, { params }) };
}

/** Characters of each chosen node's text kept (the JSON output has 200; the whole text is expected.txt). */
const NODE_TEXT_PREVIEW = 80;

const round = (x: number | null) => (x === null ? null : Math.round(x * 1e6) / 1e6);

/** The deterministic, path-independent part of pith's JSON output (see the header). */
export function reduceJson(full: Record<string, unknown>): object {
  const nodes = full["nodes"] as {
    index: number;
    path: string;
    tag: string | null;
    score: number | null;
    text: string;
  }[];
  const trace = full["trace"] as { step: string; action?: string }[];
  const steps: Record<string, Record<string, number>> = {};
  for (const t of trace) {
    const step = (steps[t.step] ??= {});
    const action = t.action ?? "?";
    step[action] = (step[action] ?? 0) + 1;
  }
  return {
    version: full["version"],
    url: full["url"],
    title: full["title"],
    metadata: full["metadata"],
    mode: full["mode"],
    method: full["method"],
    model: full["model"],
    emptyReason: full["emptyReason"],
    textLength: (full["text"] as string).length,
    nodes: nodes.map((n) => ({
      index: n.index,
      path: n.path,
      tag: n.tag,
      score: round(n.score),
      text: n.text.slice(0, NODE_TEXT_PREVIEW),
    })),
    trace: { entries: trace.length, steps },
  };
}

/** A page's three expected files' contents, byte for byte. */
export async function pageOutputs(sourcePath: string): Promise<PageOutputs> {
  const plain = await extract(sourcePath, false);
  // the CLI writes each page's output followed by a newline; it builds the tree on the snapshot (src/batch/page-output.ts)
  const text = plain.extraction.text + "\n";
  const markdown = formatExtraction("markdown", plain.page, buildTree(plain.page), plain.extraction) + "\n";
  const traced = await extract(sourcePath, true);
  const full = JSON.parse(
    formatExtraction("json", traced.page, buildTree(traced.page), traced.extraction),
  ) as Record<string, unknown>;
  const json = JSON.stringify(reduceJson(full), null, 2) + "\n";
  return { text, markdown, json };
}

/** The outputs of a case folder's source.html. */
export function caseOutputs(caseDir: string): Promise<PageOutputs> {
  return pageOutputs(join(caseDir, SOURCE_FILE));
}

/**
 * A readable account of where `actual` departs from `expected`: the first differing line with
 * three lines of context on each side, and the line counts.
 */
export function lineDiff(expected: string, actual: string, context = 3): string {
  const a = expected.split("\n");
  const b = actual.split("\n");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - context);
  const show = (lines: string[], sign: string) =>
    lines
      .slice(from, i + context + 1)
      .map(
        (l, k) =>
          `${from + k === i ? sign : " "} ${String(from + k + 1).padStart(4)}| ${l.length > 200 ? l.slice(0, 200) + "…" : l}`,
      )
      .join("\n");
  return [
    `first difference at line ${i + 1} (expected ${a.length} lines, got ${b.length})`,
    "--- expected",
    show(a, "-"),
    "+++ actual",
    show(b, "+"),
  ].join("\n");
}
