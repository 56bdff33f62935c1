/** The first index k in [lo, hi) of an ascending array with sorted[k] >= x (hi when there is none). */
export function lowerBound(sorted: ArrayLike<number>, x: number, lo = 0, hi = sorted.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
