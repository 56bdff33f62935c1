/**
 * Binary classification metrics (pure functions): confusion counts at a threshold,
 * precision / recall / F1 / accuracy, ROC AUC (Mann-Whitney, ties count one half) and
 * log-loss, all optionally weighted per row. A ratio with a zero denominator is 0
 * (AUC is NaN when one class is absent), never an exception.
 */

/** Default decision threshold on P(class 1). */
export const DEFAULT_THRESHOLD = 0.5;
/** Probabilities are clipped to [ε, 1 − ε] for log-loss. */
const LOG_LOSS_EPS = 1e-15;

export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export interface BinaryMetrics extends Confusion {
  n: number;
  precision: number;
  recall: number;
  f1: number;
  accuracy: number;
  auc: number;
  logLoss: number;
}

function ratio(a: number, b: number): number {
  return b > 0 ? a / b : 0;
}

/** Confusion counts (weighted when weights given) with "positive" meaning p ≥ threshold. */
export function confusion(
  y: ArrayLike<number>,
  p: ArrayLike<number>,
  threshold = DEFAULT_THRESHOLD,
  weights?: ArrayLike<number>,
): Confusion {
  const c: Confusion = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (let i = 0; i < y.length; i++) {
    const w = weights ? weights[i]! : 1;
    const pred = p[i]! >= threshold;
    if (y[i] === 1) pred ? (c.tp += w) : (c.fn += w);
    else pred ? (c.fp += w) : (c.tn += w);
  }
  return c;
}

export function precisionRecallF1(c: Confusion): { precision: number; recall: number; f1: number } {
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  return { precision, recall, f1: ratio(2 * precision * recall, precision + recall) };
}

/** Area under the ROC curve; NaN when only one class is present. */
export function rocAuc(y: ArrayLike<number>, scores: ArrayLike<number>, weights?: ArrayLike<number>): number {
  const order = Array.from({ length: y.length }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let negBelow = 0;
  let area = 0;
  let totPos = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    let pos = 0;
    let neg = 0;
    while (j < order.length && scores[order[j]!] === scores[order[i]!]) {
      const k = order[j++]!;
      const w = weights ? weights[k]! : 1;
      if (y[k] === 1) pos += w;
      else neg += w;
    }
    area += pos * (negBelow + neg / 2);
    negBelow += neg;
    totPos += pos;
    i = j;
  }
  return totPos > 0 && negBelow > 0 ? area / (totPos * negBelow) : NaN;
}

/** Mean (weighted) binary cross-entropy of probabilities p. */
export function logLoss(y: ArrayLike<number>, p: ArrayLike<number>, weights?: ArrayLike<number>): number {
  let s = 0;
  let sw = 0;
  for (let i = 0; i < y.length; i++) {
    const w = weights ? weights[i]! : 1;
    const q = Math.min(1 - LOG_LOSS_EPS, Math.max(LOG_LOSS_EPS, p[i]!));
    s -= w * (y[i] === 1 ? Math.log(q) : Math.log(1 - q));
    sw += w;
  }
  return ratio(s, sw);
}

/** Everything at once, for reports and model artifacts. */
export function binaryMetrics(
  y: ArrayLike<number>,
  p: ArrayLike<number>,
  opts: { threshold?: number; weights?: ArrayLike<number> } = {},
): BinaryMetrics {
  if (y.length !== p.length) throw new RangeError(`${y.length} labels but ${p.length} predictions`);
  const c = confusion(y, p, opts.threshold ?? DEFAULT_THRESHOLD, opts.weights);
  const n = c.tp + c.fp + c.tn + c.fn;
  return {
    n,
    ...c,
    ...precisionRecallF1(c),
    accuracy: ratio(c.tp + c.tn, n),
    auc: rocAuc(y, p, opts.weights),
    logLoss: logLoss(y, p, opts.weights),
  };
}

/** The threshold (among the predicted values) that maximises F1, and that F1. */
export function bestF1Threshold(
  y: ArrayLike<number>,
  p: ArrayLike<number>,
): { threshold: number; f1: number } {
  const order = Array.from({ length: y.length }, (_, i) => i).sort((a, b) => p[b]! - p[a]!);
  let totPos = 0;
  for (let i = 0; i < y.length; i++) totPos += y[i] === 1 ? 1 : 0;
  let tp = 0;
  let best = { threshold: 1, f1: 0 };
  for (let i = 0; i < order.length; i++) {
    tp += y[order[i]!] === 1 ? 1 : 0;
    if (i + 1 < order.length && p[order[i + 1]!] === p[order[i]!]) continue;
    const f1 = ratio(2 * tp, i + 1 + totPos);
    if (f1 > best.f1) best = { threshold: p[order[i]!]!, f1 };
  }
  return best;
}
