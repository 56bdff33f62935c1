/**
 * Aggregation of per-page figures into runs (method × dataset × group) and the reports:
 * the Markdown tables `pith evaluate` prints and the stable JSON shape other tools read:
 *   {"runs": [{"method","dataset","group","pages","errors","wcxb":{"p","r","f1"},"aeb":{"p","r","f1"},
 *              "lcs":{"p","r","f1"},"nodes":{...}|null,"snippets":{...}|null,"rouge":{...}|null,
 *              "ms_per_page"}],
 *    "pages": [PageFigures]}
 * Means are over pages (macro), as WCXB and Louvan report; AEB precision/recall are means over
 * the pages where they are defined and F1 = 2PR/(P+R) of those means (AEB's rule); snippet
 * shares are over all snippets of the group (micro), and trafilatura's F1 sums tp/fp/fn.
 */
import { aebPrecision, aebRecall, f1Of, snippetF1, type PRF } from "./metrics.ts";
import type { PageFigures } from "./page.ts";

/** Group name for all pages of a dataset. */
export const ALL_GROUP = "all";

export interface SnippetFigures {
  /** Share of `with` snippets found (case-insensitive). */
  with: number;
  /** Share of `without` snippets absent (case-insensitive). */
  without: number;
  /** trafilatura's snippet F1 (case-sensitive, whitespace-normalised). */
  f1: number;
  n_with: number;
  n_without: number;
}

export interface RunFigures {
  method: string;
  dataset: string;
  group: string;
  pages: number;
  /** Pages the method failed on (counted as empty output). */
  errors: number;
  wcxb: PRF;
  aeb: PRF;
  lcs: PRF;
  /** Over the pages with node-level gold; null when none. */
  nodes: PRF | null;
  /** Over the pages with snippets; null when none. */
  snippets: SnippetFigures | null;
  /** ROUGE-LSum mean P/R/F1 and median F1 (WCEB reports both); null unless asked for. */
  rouge: (PRF & { median_f1: number }) | null;
  ms_per_page: number;
}

function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

function meanPRF(xs: readonly PRF[]): PRF {
  return { p: mean(xs.map((x) => x.p)), r: mean(xs.map((x) => x.r)), f1: mean(xs.map((x) => x.f1)) };
}

function aebOf(pages: readonly PageFigures[]): PRF {
  const p = mean(pages.map((x) => aebPrecision(x.aeb)).filter((v): v is number => v !== null));
  const r = mean(pages.map((x) => aebRecall(x.aeb)).filter((v): v is number => v !== null));
  return { p, r, f1: f1Of(p, r) };
}

function snippetsOf(pages: readonly PageFigures[]): SnippetFigures | null {
  const s = pages.flatMap((x) => (x.snippets ? [x.snippets] : []));
  if (!s.length) return null;
  const sum = (f: (c: (typeof s)[number]) => number): number => s.reduce((a, c) => a + f(c), 0);
  const nWith = sum((c) => c.withTotal);
  const nWithout = sum((c) => c.withoutTotal);
  return {
    with: nWith ? sum((c) => c.withFound) / nWith : 0,
    without: nWithout ? sum((c) => c.withoutAvoided) / nWithout : 0,
    f1: snippetF1({ tp: sum((c) => c.tp), fp: sum((c) => c.fp), fn: sum((c) => c.fn) }),
    n_with: nWith,
    n_without: nWithout,
  };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length === 0
    ? 0
    : s.length % 2
      ? (s[mid] as number)
      : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function rougeOf(pages: readonly PageFigures[]): RunFigures["rouge"] {
  const rs = pages.flatMap((x) => (x.rouge ? [x.rouge] : []));
  return rs.length ? { ...meanPRF(rs), median_f1: median(rs.map((x) => x.f1)) } : null;
}

/** Figures of one run from its pages. */
export function runFigures(
  method: string,
  dataset: string,
  group: string,
  pages: readonly PageFigures[],
): RunFigures {
  const nodes = pages.flatMap((x) => (x.nodes ? [x.nodes] : []));
  return {
    method,
    dataset,
    group,
    pages: pages.length,
    errors: pages.filter((x) => x.error !== undefined).length,
    wcxb: meanPRF(pages.map((x) => x.wcxb)),
    aeb: aebOf(pages),
    lcs: meanPRF(pages.map((x) => x.lcs)),
    nodes: nodes.length ? meanPRF(nodes) : null,
    snippets: snippetsOf(pages),
    rouge: rougeOf(pages),
    ms_per_page: mean(pages.map((x) => x.ms)),
  };
}

/** Runs for every method × dataset, over all pages and per group, in first-seen order ("all" first). */
export function aggregate(pages: readonly PageFigures[]): RunFigures[] {
  const buckets = new Map<string, { method: string; dataset: string; group: string; pages: PageFigures[] }>();
  const add = (x: PageFigures, group: string): void => {
    const key = `${x.dataset}\u0000${group}\u0000${x.method}`;
    let b = buckets.get(key);
    if (!b) buckets.set(key, (b = { method: x.method, dataset: x.dataset, group, pages: [] }));
    b.pages.push(x);
  };
  for (const x of pages) add(x, ALL_GROUP);
  for (const x of pages) add(x, x.group);
  const runs = [...buckets.values()].map((b) => runFigures(b.method, b.dataset, b.group, b.pages));
  const groups = [...new Set(pages.map((x) => x.group))].sort();
  const rank = (g: string): number => (g === ALL_GROUP ? -1 : groups.indexOf(g));
  const datasets = [...new Set(pages.map((x) => x.dataset))];
  const methods = [...new Set(pages.map((x) => x.method))];
  return runs.sort(
    (a, b) =>
      datasets.indexOf(a.dataset) - datasets.indexOf(b.dataset) ||
      rank(a.group) - rank(b.group) ||
      methods.indexOf(a.method) - methods.indexOf(b.method),
  );
}

const f3 = (x: number): string => x.toFixed(3);

function row(r: RunFigures, withRouge: boolean): string {
  const cells = [
    r.group,
    r.method,
    String(r.pages),
    f3(r.wcxb.p),
    f3(r.wcxb.r),
    `**${f3(r.wcxb.f1)}**`,
    f3(r.aeb.f1),
    r.snippets ? f3(r.snippets.with) : "–",
    r.snippets ? f3(r.snippets.without) : "–",
    r.snippets ? f3(r.snippets.f1) : "–",
    f3(r.lcs.f1),
    r.nodes ? f3(r.nodes.f1) : "–",
    ...(withRouge ? [r.rouge ? f3(r.rouge.f1) : "–"] : []),
    r.ms_per_page.toFixed(1),
    String(r.errors),
  ];
  return `| ${cells.join(" | ")} |`;
}

function header(withRouge: boolean): string[] {
  const cols = [
    "group",
    "method",
    "pages",
    "word P",
    "word R",
    "word F1",
    "AEB F1",
    "with",
    "without",
    "snip F1",
    "LCS F1",
    "node F1",
    ...(withRouge ? ["ROUGE-LSum F1"] : []),
    "ms/page",
    "errors",
  ];
  return [`| ${cols.join(" | ")} |`, `|${"---|".repeat(cols.length)}`];
}

/** One Markdown table per dataset: the "all" rows first, then one block of rows per group. */
export function markdownReport(runs: readonly RunFigures[]): string {
  const out: string[] = [];
  const withRouge = runs.some((r) => r.rouge !== null);
  for (const dataset of [...new Set(runs.map((r) => r.dataset))]) {
    const rs = runs.filter((r) => r.dataset === dataset);
    const n = rs.find((r) => r.group === ALL_GROUP)?.pages ?? 0;
    out.push(`## ${dataset} (${n} pages)`, "", ...header(withRouge), ...rs.map((r) => row(r, withRouge)), "");
  }
  out.push(
    `word = WCXB bag-of-words (mean per page); AEB = article-extraction-benchmark shingle F1; ` +
      `with/without = WCXB snippet shares; snip F1 = trafilatura's snippet F1; ` +
      `LCS = Louvan's character LCS F1; node = DOM text-node F1 (gold-html sets)` +
      `${withRouge ? "; ROUGE-LSum = WCEB's mean summary-level F1" : ""}.`,
  );
  return out.join("\n");
}

/** The JSON report (stable shape; see the file header). */
export function jsonReport(runs: readonly RunFigures[], pages: readonly PageFigures[]): string {
  return JSON.stringify({ runs, pages }, null, 1);
}
