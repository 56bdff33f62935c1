/**
 * Markdown for an HTML table: a GitHub-flavoured table (`| a | b |` rows, a `| --- |` line after
 * the first) when it holds data, and nothing special when it lays a page out. A table is data
 * when it has rows of at least DATA_TABLE_MIN_COLUMNS cells and no cell holds block content
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
import { isBlockDisplay } from "../dom/blocks.ts";
import type { Tree } from "../dom/tree.ts";
import type { PageSnapshot } from "../types.ts";

/** Fewer cells in every row than this: a layout table (a column of boxes), rendered as blocks. */
export const DATA_TABLE_MIN_COLUMNS = 2;
/** Block tags a data table's cell may hold (line breaks are inline in a cell). */
const CELL_BLOCK_OK = new Set(["br"]);
const CELL_TAGS = new Set(["td", "th"]);
/** Spans may add this many empty cells per real cell (plus SPAN_GROWTH_SLACK) before they are ignored. */
export const SPAN_GROWTH_LIMIT = 4;
const SPAN_GROWTH_SLACK = 10_000;
/** The HTML standard's clamps of colspan and rowspan. */
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;

/**
 * The rows of `table` (its own, not a nested table's), each a list of its cells' node indices;
 * cells outside a row make one.
 */
function tableRows(page: PageSnapshot, tree: Tree, table: number): number[][] {
  const rows: number[][] = [];
  let stray: number[] = []; // cells outside any <tr> (after a </tr>): a browser gives them a row of their own
  const end = tree.end[table] as number;
  for (let i = table + 1; i < end; i++) {
    const node = page.nodes[i];
    if (!node || node.type !== 1 || !node.visible) {
      if (node && !node.visible) i = (tree.end[i] as number) - 1;
      continue;
    }
    if (CELL_TAGS.has(node.tag)) {
      stray.push(i);
      i = (tree.end[i] as number) - 1;
      continue;
    }
    if (node.tag !== "tr") continue;
    if (stray.length) rows.push(stray);
    stray = [];
    rows.push(rowCells(page, tree, i));
    i = (tree.end[i] as number) - 1;
  }
  if (stray.length) rows.push(stray);
  return rows;
}

/**
 * The visible td/th cells of a row: its children, or the cells inside a wrapper between the row
 * and them (a <form> around a row's cells, which a browser's parser would move out of the table
 * and the static parser keeps), never a nested table's (markdownTable has rendered a table with
 * one outside its cells as blocks: contentOutsideCells).
 */
function rowCells(page: PageSnapshot, tree: Tree, tr: number): number[] {
  const cells: number[] = [];
  for (let c = tr + 1; c < (tree.end[tr] as number);) {
    const node = page.nodes[c];
    if (node?.type === 1 && node.visible && CELL_TAGS.has(node.tag)) cells.push(c);
    const into = node?.type === 1 && node.visible && !CELL_TAGS.has(node.tag);
    c = into ? c + 1 : (tree.end[c] as number);
  }
  return cells;
}

/**
 * Whether `root` (a table or row) holds visible content outside its cells: text, or a table
 * straight in a row (the static parser keeps what a browser would move out of the table). Such a
 * table is rendered as blocks, not tabulated, so nothing in it is lost.
 */
function contentOutsideCells(page: PageSnapshot, tree: Tree, root: number): boolean {
  for (let i = root + 1; i < (tree.end[root] as number); i++) {
    const node = page.nodes[i];
    if (!node?.visible || (node.type === 1 && (CELL_TAGS.has(node.tag) || node.tag === "caption"))) {
      // a cell's (or the caption's) content is its own; hidden content shows nowhere
      i = (tree.end[i] as number) - 1;
      continue;
    }
    if (node.type === 3 ? (node.text ?? "").trim() !== "" : node.tag === "table") return true;
  }
  return false;
}

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
 * Whether a cell holds block content (then the table lays the page
 * out), by the display the Markdown walk reads too.
 */
function hasBlocks(page: PageSnapshot, tree: Tree, cell: number): boolean {
  for (let i = cell + 1; i < (tree.end[cell] as number); i++) {
    const node = page.nodes[i];
    if (
      node?.type === 1 &&
      node.visible &&
      isBlockDisplay(node.tag, node.style?.display) &&
      !CELL_BLOCK_OK.has(node.tag)
    )
      return true;
  }
  return false;
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
