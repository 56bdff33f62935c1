/**
 * From per-row keep decisions to the Extraction's nodes: structural nodes tile the page's
 * text (src/features/structural.ts), so the kept leaf segments decide every word. Rows whose
 * every word-bearing descendant is kept are coalesced upwards, so the chosen roots are as few
 * and as large as the decisions allow (nicer html/markdown output, same text).
 */
import type { Ownership } from "./own-text.ts";

/** Rows to hand to textOf as roots: maximal rows whose words are all kept, document order. */
export function coalesce(nodes: Int32Array, own: Ownership, keep: Uint8Array): number[] {
  const n = nodes.length;
  // full[r]: every word under row r is kept (rows without words are neutral)
  const full = new Uint8Array(n).fill(1);
  for (let r = n - 1; r >= 0; r--) {
    if ((own.ownWords[r] as number) > 0 && keep[r] !== 1) full[r] = 0;
    const pr = own.parentRow[r] as number;
    if (pr >= 0 && full[r] === 0) full[pr] = 0;
  }
  const roots: number[] = [];
  for (let r = 0; r < n; r++) {
    if (full[r] !== 1 || (own.subtreeWords[r] as number) === 0) continue;
    const pr = own.parentRow[r] as number;
    const parentFull = pr >= 0 && full[pr] === 1 && (own.subtreeWords[pr] as number) > 0;
    if (!parentFull) roots.push(r);
  }
  return roots;
}
