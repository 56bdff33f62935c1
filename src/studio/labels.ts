/**
 * Saving a page's labels in the dataset format (data/README.md), each file whole or not at all
 * (src/io/write-atomic.ts: a temporary file renamed over the target):
 * - gold/<id>.txt: the main blocks' own text, one block per line (textOf over the main rows,
 *   rows inside a main row that are noise left out): what `pith train` aligns and `pith
 *   evaluate` scores against;
 * - gold-html/<id>.html.gz: the page with every main text node wrapped in l3s-gn1's
 *   `<span class="x-nc-sel2">` (node-level gold, read by evaluate's DOM-node column and by the
 *   studio when the page is opened again);
 * - html/<id>.html.gz for a page from a plain folder, a WARC or a URL, which the dataset did not hold yet;
 * - index.jsonl: the page's row added, or its page_type set, every other line kept as it was.
 * The gold text is written after the files it describes, so a page is labeled (has gold) only
 * once they are there; a failed write throws and the studio keeps the labels unsaved.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { textOf } from "../dom/text.ts";
import { writeAtomic } from "../io/write-atomic.ts";
import { textPlan } from "../pipeline/own-text.ts";
import { frameHtml } from "./frame.ts";
import type { Analysis } from "./analyze.ts";
import type { StudioPage } from "./workspace.ts";

/** l3s-gn1's class for main text (src/evaluate/gold-nodes.ts reads 1-3 as main). */
const MAIN_TEXT_CLASS = "x-nc-sel2";

/** What the browser sends to save a page. */
export interface LabelsRequest {
  /** The blocks (snapshot node indices) labeled main; every other block is noise. */
  main: number[];
  /** The page's type, when the user set it (article, forum, product, …). */
  pageType?: string;
}

export const PAGE_TYPES = [
  "article",
  "forum",
  "product",
  "collection",
  "listing",
  "documentation",
  "service",
  "other",
] as const;

/** Main flag per row: a row that owns no words follows the row above it. */
function rowKeep(a: Analysis, main: ReadonlySet<number>): Uint8Array {
  const keep = new Uint8Array(a.rows.length);
  a.rows.forEach((node, r) => {
    const pr = a.own.parentRow[r] as number;
    keep[r] =
      (a.own.ownWords[r] as number) > 0 ? (main.has(node) ? 1 : 0) : pr >= 0 ? (keep[pr] as number) : 0;
  });
  return keep;
}

/** The gold text and node-level gold of a labeling. */
export function goldOf(a: Analysis, main: ReadonlySet<number>): { text: string; html: string } {
  const keep = rowKeep(a, main);
  const plan = textPlan(a.rows, a.own, keep);
  const text = textOf(a.snapshot, a.tree, plan.roots, { exclude: plan.exclude });
  const html = frameHtml(a.snapshot, a.tree, {
    head: '<meta charset="utf-8">',
    blocks: new Map(),
    wrapText: (i) => {
      const r = a.own.ownerRow[i] as number;
      return r >= 0 && keep[r] === 1 ? MAIN_TEXT_CLASS : null;
    },
  });
  return { text: text ? text + "\n" : "", html };
}

/** Writes the page's labels into its dataset folder (see the header); returns the gold text. */
export async function saveLabels(
  page: StudioPage,
  a: Analysis,
  request: LabelsRequest,
  html: string,
): Promise<string> {
  const known = new Set(a.blocks.map((b) => b.node));
  const main = new Set(request.main.filter((n) => known.has(n)));
  const gold = goldOf(a, main);
  const dir = page.target;
  if (!("dataset" in page.from)) await writeAtomic(join(dir, "html", `${page.id}.html.gz`), gzipSync(html));
  await writeAtomic(join(dir, "gold-html", `${page.id}.html.gz`), gzipSync(gold.html));
  await writeAtomic(join(dir, "gold", `${page.id}.txt`), gold.text);
  await updateIndex(dir, page, a, request.pageType);
  return gold.text;
}

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}

/** index.jsonl with the page's row added or updated; the other lines untouched. */
async function updateIndex(dir: string, page: StudioPage, a: Analysis, pageType?: string): Promise<void> {
  const path = join(dir, "index.jsonl");
  const lines = existsSync(path) ? (await readFile(path, "utf8")).split("\n") : [];
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const at = lines.findIndex((l) => l.trim() && (JSON.parse(l) as { id?: unknown }).id === page.id);
  const row: Record<string, unknown> =
    at >= 0 ? (JSON.parse(lines[at] as string) as Record<string, unknown>) : newRow(page, a);
  if (pageType) row["page_type"] = pageType;
  const line = JSON.stringify(row);
  if (at >= 0) {
    if (lines[at] === line) return;
    lines[at] = line;
  } else lines.push(line);
  await writeAtomic(path, lines.join("\n") + "\n");
}

function newRow(page: StudioPage, a: Analysis): Record<string, unknown> {
  const url = page.url ?? a.snapshot.url ?? a.snapshot.meta?.canonicalUrl ?? null;
  return { id: page.id, url, domain: page.domain ?? hostOf(url), genre: "other", source: "pith studio" };
}
