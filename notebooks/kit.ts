/**
 * What every notebook shares: which labeled sets it reads, a reproducible sample of their pages,
 * plots and tables shown through tslab's display API. Notebooks load this file (and pith's
 * src/ modules) with `await require("./load.cjs").load("./kit.ts")`: see load.cjs for why.
 *
 * Plots are Vega-Lite specs compiled by vega-lite and rendered to SVG in Node by vega's
 * `View.toSVG()` (no browser, no canvas): an `image/svg+xml` output shows in Jupyter Notebook,
 * JupyterLab, VS Code, GitHub and nbconvert's HTML alike, and stays in the .ipynb file when it is
 * executed headless (`npm run notebooks`).
 */
import { display } from "tslab";
import * as vega from "vega";
import * as vl from "vega-lite";
import { loadDataset, resolveDatasetDir, type Dataset, type DatasetPage } from "../src/io/dataset.ts";
import { selectPages } from "../src/evaluate/runner.ts";

/** Environment variable that overrides a notebook's DATA parameter (`npm run notebooks -- --data`). */
export const DATA_ENV = "PITH_NOTEBOOK_DATA";
/** The set every fresh clone has (data/sample). */
export const FALLBACK_SET = "sample";
/** Seed of the page samples, as `pith evaluate --sample`'s default. */
export const SAMPLE_SEED = 1;

/**
 * The sets a notebook reads: $PITH_NOTEBOOK_DATA when set (comma-separated, every name must
 * resolve), else those of `wanted` that pith finds ($PITH_DATA, data/, ../shared/data), else
 * data/sample. Prints which it uses and why.
 */
export function chooseSets(wanted: readonly string[]): string[] {
  const forced = process.env[DATA_ENV];
  if (forced) {
    const names = forced.split(",").filter(Boolean);
    for (const n of names) resolveDatasetDir(n); // a missing set is one clear error
    console.log(`sets: ${names.join(", ")} (from $${DATA_ENV})`);
    return names;
  }
  const found = wanted.filter((n) => {
    try {
      return Boolean(resolveDatasetDir(n));
    } catch {
      return false;
    }
  });
  if (found.length) {
    console.log(`sets: ${found.join(", ")}`);
    return found;
  }
  console.log(`sets: ${FALLBACK_SET} (none of ${wanted.join(", ")} found; set PITH_DATA to where they are)`);
  return [FALLBACK_SET];
}

/** A reproducible sample of `n` pages with gold of one set (all of them when it has fewer). */
export function samplePages(name: string, n: number): { ds: Dataset; pages: DatasetPage[] } {
  const ds = loadDataset(name);
  return { ds, pages: selectPages(ds, { sample: n, seed: SAMPLE_SEED }) };
}

/** The SVG of a Vega-Lite spec, rendered in Node. */
export async function svg(spec: vl.TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * Shows a Vega-Lite plot as the cell's SVG output, on white, with legend labels in full (Node has
 * no canvas to measure text, so vega's estimate cuts labels short of the default limit).
 */
export async function plot(spec: vl.TopLevelSpec): Promise<void> {
  const config = { ...spec.config, legend: { labelLimit: 0, ...spec.config?.legend } };
  display.svg(await svg({ background: "white", ...spec, config } as vl.TopLevelSpec));
}

type Cell = string | number | null | undefined;

function formatCell(v: Cell): string {
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(3);
  return String(v ?? "").replace(/\|/g, "\\|");
}

/** A Markdown table of `rows` (numbers to 3 decimals), shown as the cell's output. */
export function table(rows: readonly Record<string, Cell>[], columns?: readonly string[]): void {
  const cols = columns ?? Object.keys(rows[0] ?? {});
  const lines = [
    `| ${cols.join(" | ")} |`,
    `|${cols.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${cols.map((c) => formatCell(r[c])).join(" | ")} |`),
  ];
  display.markdown(lines.join("\n"));
}

/** Shows HTML (the worst-pages gallery). */
export function html(s: string): void {
  display.html(s);
}

/** Text made safe to put into HTML. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string,
  );
}

/** The mean of `f` over `xs` (NaN when empty). */
export function mean<T>(xs: readonly T[], f: (x: T) => number): number {
  return xs.length ? xs.reduce((s, x) => s + f(x), 0) / xs.length : NaN;
}
