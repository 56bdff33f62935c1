/**
 * Decision thresholds tuned for the end metric, not for node accuracy: the threshold on
 * P(main) that maximises the mean per-page word F1 estimated from the node labels (kept words ×
 * their gold share against the page's gold words). Candidates on a fixed grid, so the choice
 * is deterministic.
 */
import { goldWordsInLeaves } from "./label-quality.ts";
import type { PageRecord } from "./page-record.ts";
import type { RowSet } from "./matrix.ts";

export const THRESHOLD_GRID = Array.from({ length: 33 }, (_, i) => 0.1 + i * 0.025);

/** Estimated word F1 of one page from per-row keep decisions. */
export function estimatedF1(rec: PageRecord, kept: (r: number) => boolean): number {
  let tp = 0;
  let pred = 0;
  for (let r = 0; r < rec.nodes.length; r++) {
    const w = rec.ownWords[r] as number;
    if (w === 0 || !kept(r)) continue;
    tp += w * (rec.share[r] as number);
    pred += w;
  }
  const gold = Math.max(rec.goldWords, goldWordsInLeaves(rec));
  if (gold === 0) return pred === 0 ? 1 : 0;
  return pred + gold > 0 ? (2 * tp) / (pred + gold) : 0;
}

/** Mean estimated F1 over the pages of `rows` for each threshold of the grid. */
export function thresholdCurve(
  records: readonly PageRecord[],
  rows: Pick<RowSet, "page" | "row">,
  proba: Float32Array,
  grid = THRESHOLD_GRID,
): number[] {
  const byPage = new Map<number, Map<number, number>>();
  for (let k = 0; k < rows.page.length; k++) {
    const p = rows.page[k] as number;
    let m = byPage.get(p);
    if (!m) byPage.set(p, (m = new Map()));
    m.set(rows.row[k] as number, proba[k] as number);
  }
  return grid.map((t) => {
    let sum = 0;
    for (const [p, m] of byPage) sum += estimatedF1(records[p] as PageRecord, (r) => (m.get(r) ?? 0) >= t);
    return byPage.size ? sum / byPage.size : 0;
  });
}

/** The grid threshold with the best mean estimated F1 (ties: the one nearest 0.5). */
export function tuneThreshold(
  records: readonly PageRecord[],
  rows: Pick<RowSet, "page" | "row">,
  proba: Float32Array,
): { threshold: number; f1: number } {
  const curve = thresholdCurve(records, rows, proba);
  let best = 0;
  for (let i = 1; i < curve.length; i++) {
    const better = (curve[i] as number) > (curve[best] as number) + 1e-9;
    const tie =
      Math.abs((curve[i] as number) - (curve[best] as number)) <= 1e-9 &&
      Math.abs((THRESHOLD_GRID[i] as number) - 0.5) < Math.abs((THRESHOLD_GRID[best] as number) - 0.5);
    if (better || tie) best = i;
  }
  return { threshold: THRESHOLD_GRID[best] as number, f1: curve[best] as number };
}
