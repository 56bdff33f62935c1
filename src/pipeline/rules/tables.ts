/**
 * Data tables whole: a data table (dom/tables.ts: rows of at least two inline cells) is kept or
 * dropped as one unit. The classifier scores each cell as a leaf of its own, so a table it mostly
 * keeps can lose a row whose cells look like nothing else on the page (a last row of totals, a row
 * of short numbers), and a table it mostly drops can leave a cell or two standing, which the
 * writers then print as stray paragraphs under no table. A reader wants the table or nothing: when
 * at least TABLE_KEEP_SHARE of the table's words are kept, every leaf in it is kept; otherwise every
 * leaf in it is dropped. A table with nothing kept, or everything, is left alone.
 *
 * The measurement that set the share: docs/rules.md.
 */
import type { RuleRows } from "./rule.ts";
import { nodePath } from "../../dom/path.ts";
import { isDataTable } from "../../dom/tables.ts";
import { textOf } from "../../dom/text.ts";
import type { TraceEntry } from "../../types.ts";
import { TRACE_TEXT_CHARS } from "../trace.ts";

/** A partly kept data table is kept whole when at least this share of its words is kept. */
export const TABLE_KEEP_SHARE = 0.3;

/** A data table and the leaf rows inside it (rows with words of their own and no row below). */
interface TableRows {
  table: number;
  rows: number[];
}

/** The outermost data tables of the page, document order (a data table holds no table). */
function dataTables({ page, tree }: Pick<RuleRows, "page" | "tree">): number[] {
  const out: number[] = [];
  for (let i = 0; i < page.nodes.length; i++) {
    if (page.nodes[i]?.tag !== "table" || !isDataTable(page, tree, i)) continue;
    out.push(i);
    i = (tree.end[i] as number) - 1;
  }
  return out;
}

/** The data tables holding a leaf row, each with its leaf rows (rows are in document order). */
function tablesWithRows(rows: RuleRows): TableRows[] {
  const { tree, nodes, own } = rows;
  const tables = dataTables(rows).map((table): TableRows => ({ table, rows: [] }));
  let t = 0;
  for (let r = 0; r < nodes.length && t < tables.length; r++) {
    const node = nodes[r] as number;
    while (t < tables.length && node >= (tree.end[(tables[t] as TableRows).table] as number)) t++;
    const current = tables[t];
    if (!current || node < current.table) continue;
    const w = own.ownWords[r] as number;
    if (w > 0 && w === (own.subtreeWords[r] as number)) current.rows.push(r);
  }
  return tables.filter((x) => x.rows.length > 0);
}

/** Keeps or drops each partly kept data table whole (in place); returns the trace. */
export function keepTablesWhole(rows: RuleRows): TraceEntry[] {
  const { page, tree, nodes, own, keep } = rows;
  const trace: TraceEntry[] = [];
  for (const { table, rows: leaves } of tablesWithRows(rows)) {
    let kept = 0;
    let total = 0;
    for (const r of leaves) {
      total += own.ownWords[r] as number;
      if (keep[r] === 1) kept += own.ownWords[r] as number;
    }
    if (kept === 0 || kept === total) continue;
    const whole = kept >= TABLE_KEEP_SHARE * total ? 1 : 0;
    for (const r of leaves) {
      if (keep[r] === whole) continue;
      keep[r] = whole;
      const node = nodes[r] as number;
      trace.push({
        step: "table-rule",
        node,
        path: nodePath(page, tree, node),
        action: whole ? "keep" : "drop",
        reason: `${whole ? "kept" : "dropped"} with its data table (${kept} of its ${total} words were kept)`,
        text: textOf(page, tree, [node]).slice(0, TRACE_TEXT_CHARS),
      });
    }
  }
  return trace;
}
