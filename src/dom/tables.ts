/**
 * The structure of an HTML table as a browser shows it: its rows and cells (not a nested table's),
 * and whether it holds data or lays a page out. A table is data when its rows have at least
 * DATA_TABLE_MIN_COLUMNS cells, no cell holds block content (paragraphs, lists, headings, a nested
 * table) and no text sits outside its cells: old sites put whole articles in layout tables. The
 * Markdown writer tabulates data tables (output/markdown-table.ts), the text writer writes their
 * rows one per line (text.ts), and the pipeline keeps or drops them whole (pipeline/rules/tables.ts).
 */
import { isBlockDisplay } from "./blocks.ts";
import type { Tree } from "./tree.ts";
import type { PageSnapshot } from "../types.ts";

/** Fewer cells in every row than this: a layout table (a column of boxes), rendered as blocks. */
export const DATA_TABLE_MIN_COLUMNS = 2;
/** Block tags a data table's cell may hold (line breaks are inline in a cell). */
const CELL_BLOCK_OK = new Set(["br"]);
export const CELL_TAGS: ReadonlySet<string> = new Set(["td", "th"]);

/**
 * The rows of `table` (its own, not a nested table's), each a list of its cells' node indices;
 * cells outside a row make one.
 */
export function tableRows(page: PageSnapshot, tree: Tree, table: number): number[][] {
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
export function rowCells(page: PageSnapshot, tree: Tree, tr: number): number[] {
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
export function contentOutsideCells(page: PageSnapshot, tree: Tree, root: number): boolean {
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

/**
 * Whether a cell holds block content (then the table lays the page
 * out), by the display the Markdown walk reads too.
 */
export function hasBlocks(page: PageSnapshot, tree: Tree, cell: number): boolean {
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
 * Whether the visible `table` holds data (see the header): every cell inline, nothing outside
 * the cells, some row with at least DATA_TABLE_MIN_COLUMNS cells (spans not counted).
 */
export function isDataTable(page: PageSnapshot, tree: Tree, table: number): boolean {
  const node = page.nodes[table];
  if (node?.type !== 1 || node.tag !== "table" || !node.visible) return false;
  if (contentOutsideCells(page, tree, table)) return false;
  const rows = tableRows(page, tree, table);
  let columns = 0;
  for (const r of rows) {
    if (r.some((c) => hasBlocks(page, tree, c))) return false;
    columns = Math.max(columns, r.length);
  }
  return columns >= DATA_TABLE_MIN_COLUMNS;
}
