/**
 * Page scores for cross-validation: WCXB word P/R/F1 from src/evaluate/metrics.ts (the same
 * function `pith evaluate` reports), and their means over pages and groups of pages.
 */
import { wcxbWords } from "../evaluate/metrics.ts";

export interface PageScore {
  precision: number;
  recall: number;
  f1: number;
}

export interface MeanScore extends PageScore {
  pages: number;
}

/** WCXB word P/R/F1 of one page. */
export function wordF1(predicted: string, gold: string): PageScore {
  const s = wcxbWords(predicted, gold);
  return { precision: s.p, recall: s.r, f1: s.f1 };
}

/** Mean P/R/F1 over pages. */
export function meanScore(scores: readonly PageScore[]): MeanScore {
  const n = scores.length || 1;
  const sum = (k: keyof PageScore): number => scores.reduce((a, s) => a + s[k], 0) / n;
  return { precision: sum("precision"), recall: sum("recall"), f1: sum("f1"), pages: scores.length };
}

/** Mean scores per key (e.g. dataset, "dataset/pageType"), keys sorted. */
export function groupScores<T>(
  items: readonly T[],
  key: (t: T) => string,
  score: (t: T) => PageScore,
): Record<string, MeanScore> {
  const groups = new Map<string, PageScore[]>();
  for (const it of items) {
    const k = key(it);
    const list = groups.get(k) ?? [];
    list.push(score(it));
    groups.set(k, list);
  }
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, meanScore(groups.get(k) ?? [])]));
}
