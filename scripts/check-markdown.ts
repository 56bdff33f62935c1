/**
 * Does pith's Markdown say what its text says? For every page of the datasets, the whole <body>
 * of the static snapshot is written as text and as Markdown; the Markdown is rendered to HTML by
 * markdown-it (CommonMark with GFM tables, raw HTML allowed, as a careless consumer would) and
 * the letters and digits of both, in order, are compared. A difference means Markdown syntax
 * leaked into the rendered text (a dangling "](url)", an escaped character that was not one) or
 * page text went missing (a table that lost cells). Spacing is ignored: the text output puts a
 * space between sibling inline elements where a browser (and Markdown) does not.
 *
 *   npm run check:markdown -- [--sets wcxb-dev,dragnet] [--limit N] [--show N] [--mode chromium]
 *
 * Prints one line per differing page (up to --show) with the first place the two differ, and a
 * summary per set; exits 1 when any page differs. Session 25, all 4,571 pages with a body: one
 * differs (wcxb-dev wx-4130, whose <caption> follows its rows in the source: Markdown writes it
 * above the table, where a browser shows it); with the Markdown writer of that session's start,
 * 1,790 did (935 of wcxb-dev's 1,358: a dangling "](url)" after every link around blocks, cells
 * and captions lost, "!" turning links into images, link marks shown inside code).
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
import { intOption, scriptArgs, usageError } from "./args.ts";

const USAGE = `Usage: npm run check:markdown -- [--sets A,B] [--limit N] [--show N] [--mode static|chromium]

Writes every dataset page's whole body as text and as Markdown, renders the Markdown with
markdown-it and compares their letters and digits in order. Defaults: every set under
$PITH_DATA (../shared/data) with html/, all pages, 10 differences shown, static snapshots
(chromium: Chromium renders, whose computed display decides blocks). Exits 1 if any differ.`;

const values = scriptArgs(USAGE, { sets: { type: "string" }, limit: { type: "string" }, show: { type: "string" }, mode: { type: "string" } });
if (values.mode !== undefined && values.mode !== "static" && values.mode !== "chromium") usageError(USAGE, `--mode must be static or chromium, not "${values.mode}"`);
const renderer = await createRenderer(values.mode === "chromium" ? "chromium" : "static", { concurrency: 1 });
const limit = intOption(USAGE, "limit", values.limit, Number.POSITIVE_INFINITY);
const show = intOption(USAGE, "show", values.show, 10, 0);
const sets = values.sets?.split(",") ?? readdirSync(dataDir()).filter((d) => existsSync(join(dataDir(), d, "html"))).sort();
const markdown = new MarkdownIt({ html: true });
const letters = (s: string): string => (s.toLowerCase().match(/[\p{L}\p{Nd}]/gu) ?? []).join("");

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
    const body = page.nodes.findIndex((n) => n.tag === "body");
    if (body < 0) continue;
    pages++;
    const text = letters(textOf(page, tree, [body], { preformatted: true }));
    const md = formatExtraction("markdown", page, tree, { method: "check", text: "", nodes: [body], scores: [1], trace: [] });
    const rendered = letters(parseHTML(`<html><body>${markdown.render(md)}</body></html>`).document.body.textContent ?? "");
    if (text === rendered) continue;
    bad++;
    let at = 0;
    while (at < text.length && text[at] === rendered[at]) at++;
    const around = (s: string) => s.slice(Math.max(0, at - 30), at + 40);
    if (bad <= show) console.log(`${ds.name}/${entry.id}: text "${around(text)}" | markdown "${around(rendered)}"`);
  }
  differing += bad;
  console.log(`${ds.name}: ${bad} of ${pages} pages differ`);
}
await renderer.close();
process.exit(differing ? 1 : 0);
