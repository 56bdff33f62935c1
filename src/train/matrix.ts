/**
 * Training matrices from PageRecords: which rows train which classifier, their labels and
 * weights. Word F1 is a per-page mean over words, so a leaf segment weighs its share of the
 * page's words (rescaled so an average row weighs 1): a long paragraph counts more than a
 * one-word link, and a huge page counts no more than a small one.
 */
import { createMatrix, type Matrix } from "../ml/matrix.ts";
import { trainable } from "./label-quality.ts";
import type { PageRecord } from "./page-record.ts";

export interface RowSet {
  X: Matrix;
  y: Uint8Array;
  w: Float32Array;
  /** Site id per row (index into `sites`). */
  groups: Int32Array;
  sites: string[];
  /** Record index and row within the record, per row. */
  page: Int32Array;
  row: Int32Array;
}

export type Target = "main" | "good";
export type RowFilter = (rec: PageRecord, r: number) => boolean;

/**
 * Row sampling for speed: rows with fewer than SMALL_ROW_WORDS words (mostly menu links and
 * labels, each weighing little in word F1) are kept one in SMALL_ROW_STRIDE, deterministically
 * by position, and their weight is multiplied by the stride so the totals stay unbiased.
 */
export const SMALL_ROW_WORDS = 4;
export const SMALL_ROW_STRIDE = 3;

function sampled(
  rec: PageRecord,
  pageIndex: number,
  r: number,
  target: Target,
): { keep: boolean; factor: number } {
  const words = target === "main" ? (rec.ownWords[r] as number) : (rec.subtreeWords[r] as number);
  if (words >= SMALL_ROW_WORDS) return { keep: true, factor: 1 };
  return { keep: (pageIndex * 7 + r) % SMALL_ROW_STRIDE === 0, factor: SMALL_ROW_STRIDE };
}

/** Leaf segments: rows that own words (what the content classifier decides). */
export const LEAF_ROWS: RowFilter = (rec, r) => (rec.ownWords[r] as number) > 0;
/**
 * Leaf segments the content classifiers train on: all but the ambiguous copies (page-record.ts
 * ambiguousCopies), on pages whose labels can train (label-quality.ts).
 */
export const TRAINING_LEAF_ROWS: RowFilter = (rec, r) =>
  LEAF_ROWS(rec, r) && rec.ambiguous[r] !== 1 && trainable(rec);
/** Rows with any words below them (what the segment classifier decides). */
export const TEXT_ROWS: RowFilter = (rec, r) => (rec.subtreeWords[r] as number) > 0;

/** Row weight: the row's share of its page's words, times the page's row count. */
function rowWeight(rec: PageRecord, r: number, pageWords: number, pageRows: number, target: Target): number {
  const words = target === "main" ? (rec.ownWords[r] as number) : Math.sqrt(rec.subtreeWords[r] as number);
  return pageWords > 0 ? (words / pageWords) * pageRows : 1;
}

/** A RowSet without its feature matrix: which rows, their labels, weights and groups. */
export type RowIndex = Omit<RowSet, "X">;

/**
 * Rows of `records` passing `filter`, with labels `target` and word-share weights, each page's
 * weights multiplied by `pageWeight[i]` when given.
 */
export function buildRows(
  records: readonly PageRecord[],
  nCols: number,
  filter: RowFilter,
  target: Target,
  sample = true,
  pageWeight?: ArrayLike<number>,
): RowSet {
  const index = buildRowIndex(records, filter, target, sample, pageWeight);
  const X = createMatrix(index.y.length, nCols);
  for (let k = 0; k < index.y.length; k++) {
    const r = index.row[k] as number;
    X.data.set(
      (records[index.page[k] as number] as PageRecord).values.subarray(r * nCols, (r + 1) * nCols),
      k * nCols,
    );
  }
  return { ...index, X };
}

/** buildRows without the feature matrix (for a stage that builds its own features for the same rows). */
export function buildRowIndex(
  records: readonly PageRecord[],
  filter: RowFilter,
  target: Target,
  sample = true,
  pageWeight?: ArrayLike<number>,
): RowIndex {
  const picks: number[][] = records.map((rec, i) => {
    const rows: number[] = [];
    for (let r = 0; r < rec.nodes.length; r++)
      if (filter(rec, r) && (!sample || sampled(rec, i, r, target).keep)) rows.push(r);
    return rows;
  });
  const total = picks.reduce((a, p) => a + p.length, 0);
  const y = new Uint8Array(total);
  const w = new Float32Array(total);
  const groups = new Int32Array(total);
  const page = new Int32Array(total);
  const row = new Int32Array(total);
  const siteIndex = new Map<string, number>();
  let k = 0;
  records.forEach((rec, i) => {
    const rows = picks[i] as number[];
    let site = siteIndex.get(rec.site);
    if (site === undefined) siteIndex.set(rec.site, (site = siteIndex.size));
    let pageWords = 0;
    let pageRows = 0;
    for (const r of rows) {
      const f = sample ? sampled(rec, i, r, target).factor : 1;
      pageWords +=
        f * (target === "main" ? (rec.ownWords[r] as number) : Math.sqrt(rec.subtreeWords[r] as number));
      pageRows += f;
    }
    for (const r of rows) {
      y[k] = target === "main" ? (rec.main[r] as number) : (rec.good[r] as number);
      w[k] =
        rowWeight(rec, r, pageWords, pageRows, target) *
        (sample ? sampled(rec, i, r, target).factor : 1) *
        (pageWeight ? (pageWeight[i] as number) : 1);
      groups[k] = site;
      page[k] = i;
      row[k] = r;
      k++;
    }
  });
  return { y, w, groups, sites: [...siteIndex.keys()], page, row };
}
