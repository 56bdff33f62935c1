/**
 * Louvan's segment stage (§2.1) in the pipeline: the segment classifier scores every
 * structural node with text for "good granularity" (a coarsest homogeneous node, labels.ts);
 * each leaf segment's segment is its outermost ancestor-or-self scored ≥ SEGMENT_THRESHOLD.
 * The content decision is then smoothed inside each segment: a leaf's score becomes
 *   (1 − blend) · P(main | leaf) + blend · word-weighted mean P(main) of its segment's leaves,
 * so a short line inside a main article (a date, a one-line paragraph) follows its article and
 * a paragraph-like comment inside a comment block follows its block. blend = 0 turns it off;
 * the artifact's value is chosen by cross-validation.
 */
import { matrixFromData, selectRows } from "../ml/matrix.ts";
import type { Classifier } from "../ml/classifier.ts";
import type { Ownership } from "./own-text.ts";

/** A node is a predicted good segment at P(good) ≥ this. */
export const SEGMENT_THRESHOLD = 0.5;
/**
 * The smoothing weight training tries (the CV's "segments" column) and adopts when it wins, and
 * the one `--param segments=on` applies to a model that shipped without it.
 */
export const SEGMENT_BLEND = 0.5;

/** Segment row per row (-1 when no predicted segment covers it). */
export function segmentOf(
  segment: Classifier,
  values: Float32Array,
  nCols: number,
  own: Ownership,
): Int32Array {
  const n = own.ownWords.length;
  const rows: number[] = [];
  for (let r = 0; r < n; r++) if ((own.subtreeWords[r] as number) > 0) rows.push(r);
  const good = new Uint8Array(n);
  if (rows.length) {
    const p = segment.predictProba(selectRows(matrixFromData(values, n, nCols), rows));
    rows.forEach((r, k) => (good[r] = (p[k] as number) >= SEGMENT_THRESHOLD ? 1 : 0));
  }
  const seg = new Int32Array(n).fill(-1);
  for (let r = 0; r < n; r++) {
    const pr = own.parentRow[r] as number;
    const up = pr >= 0 ? (seg[pr] as number) : -1;
    seg[r] = up >= 0 ? up : good[r] === 1 ? r : -1; // outermost predicted segment wins
  }
  return seg;
}

/** Blends each leaf's score with its segment's word-weighted mean score. */
export function smoothScores(
  scores: Float32Array,
  seg: Int32Array,
  own: Ownership,
  blend: number,
): Float32Array {
  if (blend <= 0) return scores;
  const n = scores.length;
  const sum = new Float64Array(n);
  const weight = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const w = own.ownWords[r] as number;
    const s = seg[r] as number;
    if (w === 0 || s < 0) continue;
    sum[s] = (sum[s] as number) + w * (scores[r] as number);
    weight[s] = (weight[s] as number) + w;
  }
  const out = Float32Array.from(scores);
  for (let r = 0; r < n; r++) {
    const s = seg[r] as number;
    if ((own.ownWords[r] as number) === 0 || s < 0 || (weight[s] as number) === 0) continue;
    out[r] = (1 - blend) * (scores[r] as number) + (blend * (sum[s] as number)) / (weight[s] as number);
  }
  return out;
}
