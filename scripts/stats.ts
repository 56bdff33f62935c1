/** Order statistics the bench scripts report (ms per page, pass times, start-up runs). */

/** The value at quantile q of ascending `sorted` (the lower one where q falls between two; NaN when empty). */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** quantile 0.5 of `xs` in any order (of an even count, the upper of the middle two). */
export function median(xs: readonly number[]): number {
  return quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
}
