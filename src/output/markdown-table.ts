/**
 * Markdown for an HTML table: a GitHub-flavoured table (`| a | b |` rows, a `| --- |` line after
 * the first) when it holds data, and nothing special when it lays a page out. A table is data
 * when it has rows of at least DATA_TABLE_MIN_COLUMNS cells and no cell holds block content
 * (paragraphs, lists, headings, a nested table): old sites put whole articles in layout tables,
 * and one table cell per article would be unreadable. Cells are rendered inline (links, emphasis
 * kept), their blocks joined by spaces and their pipes escaped. Iterative, bounded by the table's
 * subtree.
 */
import { BLOCK_TAGS } from "../dom/blocks.ts";
import type { Tree } from "../dom/tree.ts";
import type { PageSnapshot } from "../types.ts";

/** Fewer cells in every row than this: a layout table (a column of boxes), rendered as blocks. */
export const DATA_TABLE_MIN_COLUMNS = 2;
/** Block tags a data table's cell may hold (line breaks are inline in a cell). */
const CELL_BLOCK_OK = new Set(["br"]);
const CELL_TAGS = new Set(["td", "th"]);

/** The rows of `table` (its own, not a nested table's), each a list of its cells' node indices. */
function tableRows(page: PageSnapshot, tree: Tree, table: number): number[][] {
  const rows: number[][] = [];
  const end = tree.end[table] as number;
  for (let i = table + 1; i < end; i++) {
    const node = page.nodes[i];
    if (!node || node.type !== 1 || !node.visible) {
      if (node && !node.visible) i = (tree.end[i] as number) - 1;
      continue;
    }
    if (node.tag === "table") {
      i = (tree.end[i] as number) - 1; // a nested table belongs to its cell
      continue;
    }
    if (node.tag !== "tr") continue;
    rows.push(rowCells(page, tree, i));
    i = (tree.end[i] as number) - 1;
  }
  return rows;
}

/** The visible td/th children of a row. */
function rowCells(page: PageSnapshot, tree: Tree, tr: number): number[] {
  const cells: number[] = [];
  for (let c = tr + 1; c < (tree.end[tr] as number); c = tree.end[c] as number) {
    const cell = page.nodes[c];
    if (cell?.type === 1 && cell.visible && CELL_TAGS.has(cell.tag)) cells.push(c);
  }
  return cells;
}

/** One row as a Markdown table line. */
function rowLine(cells: readonly number[], columns: number, cellText: (cell: number) => string): string {
  const texts = cells.map((c) => cellText(c).replace(/\s+/g, " ").trim().replace(/\|/g, "\\|"));
  while (texts.length < columns) texts.push("");
  return `| ${texts.join(" | ")} |`;
}

/** Whether a cell holds block content (then the table lays the page out). */
function hasBlocks(page: PageSnapshot, tree: Tree, cell: number): boolean {
  for (let i = cell + 1; i < (tree.end[cell] as number); i++) {
    const node = page.nodes[i];
    if (node?.type === 1 && node.visible && BLOCK_TAGS.has(node.tag) && !CELL_BLOCK_OK.has(node.tag)) return true;
  }
  return false;
}

/**
 * The table as Markdown, or null when it is a layout table (or has no cells). `cellText` renders
 * a cell's content inline.
 */
export function markdownTable(page: PageSnapshot, tree: Tree, table: number, cellText: (cell: number) => string): string | null {
  const rows = tableRows(page, tree, table).filter((r) => r.length > 0);
  const columns = rows.reduce((most, r) => Math.max(most, r.length), 0); // no spread: a table may have 100,000s of rows
  if (columns < DATA_TABLE_MIN_COLUMNS || rows.some((r) => r.some((c) => hasBlocks(page, tree, c)))) return null;
  const lines = rows.map((r) => rowLine(r, columns, cellText));
  lines.splice(1, 0, `|${" --- |".repeat(columns)}`);
  return lines.join("\n");
}

/**
 * A row chosen without its table (the extraction kept some rows): its cells on one line,
 * `| a | b |`, or null when a cell holds block content.
 */
export function markdownRow(page: PageSnapshot, tree: Tree, tr: number, cellText: (cell: number) => string): string | null {
  const cells = rowCells(page, tree, tr);
  if (!cells.length || cells.some((c) => hasBlocks(page, tree, c))) return null;
  return rowLine(cells, cells.length, cellText);
}
