/**
 * Markdown for an HTML table: a GitHub-flavoured table (`| a | b |` rows, a `| --- |` line after
 * the first) when it holds data, and nothing special when it lays a page out. A table is data
 * (dom/tables.ts) when it has rows of at least DATA_TABLE_MIN_COLUMNS cells and no cell holds block content
 * (paragraphs, lists, headings, a nested table): old sites put whole articles in layout tables,
 * and one table cell per article would be unreadable. Cells are rendered inline (links, emphasis
 * kept), their blocks joined by spaces and their pipes escaped. Iterative, bounded by the table's
 * subtree.
 *
 * Spanned cells: Markdown tables cannot merge cells, so a cell's text goes in the first column
 * and row of its span and the others it covers stay empty, which keeps every later cell under its
 * own header (as a browser lays it out). Spans are read as the HTML standard clamps them
 * (colspan 1-1000, rowspan 0 = to the table's end, at most 65534); when they would grow the grid
 * past SPAN_GROWTH_LIMIT times the cells the table really has, they are ignored, so a hostile
 * colspan cannot make the output quadratic.
 */
import {
  contentOutsideCells,
  DATA_TABLE_MIN_COLUMNS,
  hasBlocks,
  rowCells,
  tableRows,
} from "../dom/tables.ts";
import type { Tree } from "../dom/tree.ts";
import type { PageSnapshot } from "../types.ts";

/** Spans may add this many empty cells per real cell (plus SPAN_GROWTH_SLACK) before they are ignored. */
export const SPAN_GROWTH_LIMIT = 4;
const SPAN_GROWTH_SLACK = 10_000;
/** The HTML standard's clamps of colspan and rowspan. */
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;

/** A span attribute as the HTML standard parses it: digits, clamped; `fallback` when absent or invalid. */
function span(value: string | undefined, min: number, max: number, fallback: number): number {
  const m = value === undefined ? null : /^\s*\+?(\d+)/.exec(value);
  if (!m) return fallback;
  return Math.min(max, Math.max(min, Number(m[1])));
}

/**
 * The rows laid out on a grid: each a list of cells (null where a span from the left or above
 * covers the position). Spans ignored when they would grow the grid past SPAN_GROWTH_LIMIT.
 */
function layOut(page: PageSnapshot, rows: readonly number[][]): (number | null)[][] {
  let real = 0;
  let grown = 0;
  for (const r of rows) {
    real += r.length;
    for (const c of r) {
      const attrs = page.nodes[c]?.attrs;
      const rowspan = span(attrs?.["rowspan"], 0, MAX_ROWSPAN, 1);
      grown +=
        span(attrs?.["colspan"], 1, MAX_COLSPAN, 1) *
          (rowspan === 0 ? rows.length : Math.min(rowspan, rows.length)) -
        1;
    }
  }
  if (grown > SPAN_GROWTH_LIMIT * real + SPAN_GROWTH_SLACK) return rows.map((r) => [...r]);
  const grid: (number | null)[][] = rows.map(() => []);
  rows.forEach((cells, y) => {
    const line = grid[y] as (number | null)[];
    let x = 0;
    for (const c of cells) {
      while (line[x] !== undefined) x++; // covered by a rowspan from above
      const attrs = page.nodes[c]?.attrs;
      const colspan = span(attrs?.["colspan"], 1, MAX_COLSPAN, 1);
      const rowspan = span(attrs?.["rowspan"], 0, MAX_ROWSPAN, 1);
      const lastRow = rowspan === 0 ? rows.length - 1 : Math.min(rows.length - 1, y + rowspan - 1);
      for (let dy = y; dy <= lastRow; dy++) {
        const covered = grid[dy] as (number | null)[];
        for (let dx = x; dx < x + colspan; dx++) covered[dx] = dy === y && dx === x ? c : null;
      }
      x += colspan;
    }
  });
  // a gap left of a rowspan
  for (const line of grid) for (let x = 0; x < line.length; x++) if (line[x] === undefined) line[x] = null;
  return grid;
}

/** One row as a Markdown table line (null: an empty cell). */
function rowLine(
  cells: readonly (number | null)[],
  columns: number,
  cellText: (cell: number) => string,
): string {
  const texts = cells.map((c) =>
    c === null ? "" : cellText(c).replace(/\s+/g, " ").trim().replace(/\|/g, "\\|"),
  );
  while (texts.length < columns) texts.push("");
  return `| ${texts.join(" | ")} |`;
}

/**
 * The table as Markdown, or null when it is a layout table (or has no cells). `cellText` renders
 * a cell's content inline.
 */
export function markdownTable(
  page: PageSnapshot,
  tree: Tree,
  table: number,
  cellText: (cell: number) => string,
): string | null {
  if (contentOutsideCells(page, tree, table)) return null;
  const body = gridTable(
    page,
    tree,
    tableRows(page, tree, table),
    page.nodes[table]?.tag !== "table",
    cellText,
  );
  if (body === null) return null;
  const caption = captionOf(page, tree, table);
  const title = caption < 0 ? "" : cellText(caption).replace(/\s+/g, " ").trim();
  return (title ? `${title}\n\n` : "") + body;
}

/**
 * Rows chosen without their table (consecutive `tr` roots of one parent): one GitHub table of
 * them (a row per line under an empty header unless the first is a header row), or null when a
 * cell holds block content or text sits outside the cells.
 */
export function markdownRows(
  page: PageSnapshot,
  tree: Tree,
  trs: readonly number[],
  cellText: (cell: number) => string,
): string | null {
  if (trs.some((tr) => contentOutsideCells(page, tree, tr))) return null;
  return gridTable(
    page,
    tree,
    trs.map((tr) => rowCells(page, tree, tr)),
    true,
    cellText,
  );
}

/**
 * The GitHub table of `rows` (cells, spans laid out), or null for a layout table. Its first row
 * is the header; a part of a table chosen alone (`part`: a tbody, rows) whose first row has no
 * <th> gets an empty header row instead, so that row stays data.
 */
function gridTable(
  page: PageSnapshot,
  tree: Tree,
  cellRows: number[][],
  part: boolean,
  cellText: (cell: number) => string,
): string | null {
  const rows = cellRows.filter((r) => r.length > 0);
  if (!rows.length || rows.some((r) => r.some((c) => hasBlocks(page, tree, c)))) return null;
  const grid = layOut(page, rows);
  // no spread: a table may have 100,000s of rows
  const columns = grid.reduce((most, r) => Math.max(most, r.length), 0);
  if (columns < DATA_TABLE_MIN_COLUMNS) return null;
  const lines = grid.map((r) => rowLine(r, columns, cellText));
  const delimiter = `|${" --- |".repeat(columns)}`;
  if (part && !(rows[0] ?? []).some((c) => page.nodes[c]?.tag === "th"))
    lines.unshift(`|${"  |".repeat(columns)}`, delimiter);
  else lines.splice(1, 0, delimiter);
  return lines.join("\n");
}

/** The table's visible <caption> (a GitHub table has no place for it: it goes above), or -1. */
function captionOf(page: PageSnapshot, tree: Tree, table: number): number {
  for (let c = table + 1; c < (tree.end[table] as number); c = tree.end[c] as number) {
    const node = page.nodes[c];
    if (node?.type === 1 && node.visible && node.tag === "caption") return c;
  }
  return -1;
}
