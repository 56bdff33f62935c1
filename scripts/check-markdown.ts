/**
 * Does pith's Markdown say what its text says? For every page of the datasets, the whole <body>
 * of the static snapshot is written as text and as Markdown; the Markdown is rendered to HTML by
 * markdown-it (CommonMark with GFM tables, raw HTML allowed, as a careless consumer would) and
 * the letters and digits of both, in order, are compared. A difference means Markdown syntax
 * leaked into the rendered text (a dangling "](url)", an escaped character that was not one) or
 * page text went missing (a table that lost cells). Spacing is ignored: the text output puts a
 * space between sibling inline elements where a browser (and Markdown) does not. The letters
 * inside code blocks are compared too, with the HTML output's outermost <pre> elements (prose
 * fenced as code, or code blocks split, keep every letter but not the structure). With
 * --extract the learned pipeline's extraction is checked instead of the whole body: several
 * chosen roots per page, as users get them.
 *
 *   npm run check:markdown -- [--sets wcxb-dev,dragnet] [--limit N] [--show N] [--mode chromium] [--extract]
 *
 * Prints one line per differing page (up to --show) with the first place the two differ, and a
 * summary per set; exits 1 when any page differs. A known difference: a <caption> that follows its
 * table's rows in the source, which Markdown writes above the table, where a browser shows it.
 */
import MarkdownIt from "markdown-it";
import { parseHTML } from "linkedom";
import { readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";
import { dataDir, loadDataset, readDatasetPage } from "../src/io/dataset.ts";
import { formatExtraction } from "../src/output/index.ts";
import { createRenderer, renderPage } from "../src/render/index.ts";
import type { Tree } from "../src/dom/tree.ts";
import { mlExtractor } from "../src/pipeline/extractor.ts";
import type { Extraction, PageSnapshot } from "../src/types.ts";
import { intOption, scriptArgs, usageError } from "./args.ts";

const USAGE = `Usage: npm run check:markdown -- [--sets A,B] [--limit N] [--show N] [--mode static|chromium] [--extract]

Writes every dataset page's whole body as text and as Markdown, renders the Markdown with
markdown-it and compares their letters and digits in order, and the letters inside code blocks
(<pre>) with those of the HTML output's <pre> elements. Defaults: every set under $PITH_DATA
(../shared/data) with html/, all pages, 10 differences shown, static snapshots (chromium:
Chromium renders, whose computed display decides blocks). --extract checks the learned
pipeline's extraction of each page instead of its whole body (its chosen nodes, several roots
per page, and its text output). Exits 1 if any page differs.`;

const values = scriptArgs(USAGE, {
  sets: { type: "string" },
  limit: { type: "string" },
  show: { type: "string" },
  mode: { type: "string" },
  extract: { type: "boolean" },
});
if (values.mode !== undefined && values.mode !== "static" && values.mode !== "chromium")
  usageError(USAGE, `--mode must be static or chromium, not "${values.mode}"`);
const mode = values.mode === "chromium" ? "chromium" : "static";
const renderer = await createRenderer(mode, { concurrency: 1 });
const limit = intOption(USAGE, "limit", values.limit, Number.POSITIVE_INFINITY);
const show = intOption(USAGE, "show", values.show, 10, 0);
const sets =
  values.sets?.split(",") ??
  readdirSync(dataDir())
    .filter((d) => existsSync(join(dataDir(), d, "html")))
    .sort();
const markdown = new MarkdownIt({ html: true });
const letters = (s: string): string => (s.toLowerCase().match(/[\p{L}\p{Nd}]/gu) ?? []).join("");
const context = { mode, trace: false } as const;
if (values.extract) await mlExtractor.prepare?.(context);

/** The extraction to check: the learned pipeline's, or the whole <body> (null: a page without one). */
async function extractionOf(
  page: PageSnapshot,
  tree: Tree,
): Promise<{ extraction: Extraction; text: string } | null> {
  if (values.extract) {
    const extraction = await mlExtractor.extract(page, context);
    return { extraction, text: extraction.text };
  }
  const body = page.nodes.findIndex((n) => n.tag === "body");
  if (body < 0) return null;
  return {
    extraction: { method: "check", text: "", nodes: [body], scores: [1], trace: [] },
    text: textOf(page, tree, [body], { preformatted: true }),
  };
}

/** Letters of the outermost <pre> elements of an HTML fragment (a <pre> in a <pre> is part of its code block). */
function codeLetters(html: string): string {
  const doc = parseHTML(`<html><body>${html}</body></html>`).document;
  const outer = Array.from(doc.querySelectorAll("pre")).filter((e) => !e.parentElement?.closest("pre"));
  return letters(outer.map((e) => e.textContent ?? "").join(" "));
}

/** Where two letter strings first differ, with some context of each. */
function difference(a: string, b: string): string {
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  const around = (s: string) => s.slice(Math.max(0, at - 30), at + 40);
  return `"${around(a)}" | markdown "${around(b)}"`;
}

let differing = 0;
for (const name of sets) {
  const ds = loadDataset(name);
  let pages = 0;
  let bad = 0;
  for (const entry of ds.pages.slice(0, limit)) {
    const snapshot = await renderPage(renderer, await readDatasetPage(ds, entry));
    if (!snapshot.ok) continue;
    const page = snapshot.value;
    const tree = buildTree(page);
    const checked = await extractionOf(page, tree);
    if (!checked) continue;
    pages++;
    const md = formatExtraction("markdown", page, tree, checked.extraction);
    const renderedHtml = markdown.render(md);
    const rendered = letters(
      parseHTML(`<html><body>${renderedHtml}</body></html>`).document.body.textContent ?? "",
    );
    const text = letters(checked.text);
    const htmlCode = codeLetters(formatExtraction("html", page, tree, checked.extraction));
    const mdCode = codeLetters(renderedHtml);
    const problem =
      text !== rendered
        ? `text ${difference(text, rendered)}`
        : htmlCode !== mdCode
          ? `code blocks: html ${difference(htmlCode, mdCode)}`
          : null;
    if (!problem) continue;
    bad++;
    if (bad <= show) console.log(`${ds.name}/${entry.id}: ${problem}`);
  }
  differing += bad;
  console.log(`${ds.name}: ${bad} of ${pages} pages differ`);
}
await renderer.close();
process.exit(differing ? 1 : 0);
