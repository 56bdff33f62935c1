/**
 * The context stage: a second content classifier that sees, beside a leaf segment's own
 * features, what the first classifier decided around it. Stacked generalization (Wolpert 1992)
 * in the auto-context form (Tu & Bai, TPAMI 2010): stage-1 P(main) of the leaf, of its
 * neighbours in reading order, of its four nearest structural ancestors' subtrees, and of the
 * whole page. A paragraph the first model doubted inside a block it mostly kept comes back; a
 * lone confident teaser among dropped cards goes.
 *
 * Choices (none of the four papers has this stage):
 * - Stage-1 scores come from the model the page is routed to; CONTEXT_TYPES one-hots tell the
 *   stage which, and `s-thr` measures the score from that model's own threshold.
 * - Neighbours: the NEIGHBOUR_WINDOW previous and next leaf segments in document order,
 *   word-weighted. Ancestors: ANCESTOR_LEVELS structural parents (MODELING-NOTES: ancestor
 *   context up to the fourth level carried most of the signal).
 * - One pooled context model for every page type, trained on out-of-fold stage-1 scores of
 *   every training set (src/train/context.ts); its decision threshold is tuned per routed type.
 * - The class-token lexicon's features (class-lexicon.ts, CLASS_LEXICON_FEATURES) and the
 *   same-path features (PATH_FEATURES: the word-weighted stage-1 mean, kept share, number and
 *   word share of the page's *other* leaves whose root-to-leaf tag/class path is the leaf's,
 *   path-signature.ts) join the context features: template copies share a role wherever they sit
 *   on the page.
 * The stage lifts held-out word F1 most on listings and collections, at the cost of a little on
 * forums and articles, and costs about 1.2 ms per page (bench:extract); measured: docs/classifiers.md.
 * Features of the leaf's record run (src/dom/records.ts) were tried and not kept: within
 * run-to-run noise, for a new PageRecord field and cache format.
 */
import { createMatrix, matrixFromData, type Matrix } from "../../ml/matrix.ts";
import type { Classifier } from "../../ml/classifier.ts";
import { CLASS_LEXICON_FEATURES, type ClassLexicon } from "./class-lexicon.ts";
import { HEADING_LEXICON_FEATURES } from "./heading-lexicon.ts";
import type { Ownership } from "../own-text.ts";
import { selectColumns } from "../columns.ts";

/** Router labels the context stage knows (GENERAL first, then the page types of src/train/page-types.ts). */
export const CONTEXT_TYPES = [
  "general",
  "article",
  "collection",
  "documentation",
  "forum",
  "listing",
  "product",
  "service",
] as const;
/** Leaf segments before and after a leaf whose stage-1 scores are averaged. */
export const NEIGHBOUR_WINDOW = 3;
/** Structural ancestors whose subtree scores are features. */
export const ANCESTOR_LEVELS = 4;
/** Stage-1 statistics of the page's other leaves with the leaf's path signature (path-signature.ts). */
export const PATH_FEATURES = [
  "ctx_path_mean",
  "ctx_path_kept",
  "ctx_path_log_n",
  "ctx_path_word_share",
] as const;

/** Names of the context features, in column order (the leaf's own features follow them). */
export const CONTEXT_FEATURES: readonly string[] = [
  "ctx_s",
  "ctx_s_minus_thr",
  "ctx_log_words",
  "ctx_word_share",
  "ctx_page_kept_share",
  "ctx_page_mean",
  "ctx_page_max",
  "ctx_page_words_above",
  "ctx_prev1",
  "ctx_next1",
  "ctx_prev_window",
  "ctx_next_window",
  ...Array.from({ length: ANCESTOR_LEVELS }, (_, k) => [
    `ctx_a${k + 1}_mean`,
    `ctx_a${k + 1}_word_share`,
    `ctx_a${k + 1}_kept`,
    `ctx_a${k + 1}_kept_share`,
  ]).flat(),
  ...CONTEXT_TYPES.map((t) => `ctx_is_${t}`),
  ...CLASS_LEXICON_FEATURES,
  ...PATH_FEATURES,
  ...HEADING_LEXICON_FEATURES,
];

/** A fitted context stage: the classifier, its decision threshold per routed type and its lexicons. */
export interface ContextModel {
  classifier: Classifier;
  thresholds: Record<string, number>;
  /** Weights of id/class tokens (class-lexicon.ts); null: the lexicon features are missing (NaN). */
  lexicon: ClassLexicon | null;
  /** Weights of section-heading tokens (heading-lexicon.ts); null: the heading features are missing (NaN). */
  headingLexicon: ClassLexicon | null;
  /**
   * Set when the model reads a subset of CONTEXT_FEATURES (trained before some were added): their positions.
   */
  columns?: Int32Array;
}

/** What the context stage reads of one page. */
export interface StageOne {
  /** Stage-1 P(main) per row (NaN for rows without own words). */
  scores: Float32Array;
  /** The routed model's threshold. */
  threshold: number;
  /** The routed type (a CONTEXT_TYPES label; anything else counts as general). */
  pageType: string;
  own: Pick<Ownership, "ownWords" | "parentRow">;
  /** Row-major feature table and its width. */
  values: Float32Array;
  nCols: number;
  /** CLASS_LEXICON_FEATURES per row, row-major (class-lexicon.ts lexiconFeatures); null: all NaN. */
  lexicon: Float32Array | null;
  /**
   * HEADING_LEXICON_FEATURES per row, row-major (lexiconFeatures over
   * heading-lexicon.ts's tokens); null: all NaN.
   */
  headings: Float32Array | null;
  /**
   * Path signature per row (path-signature.ts rowPathSignatures); null:
   * the same-path features are missing (NaN).
   */
  paths: Uint32Array | null;
}

/** Leaf rows (rows that own words), in document order. */
export function leafRows(own: Pick<Ownership, "ownWords">): number[] {
  const out: number[] = [];
  for (let r = 0; r < own.ownWords.length; r++) if ((own.ownWords[r] as number) > 0) out.push(r);
  return out;
}

/** Word-weighted stage-1 score, words and kept words over each row's subtree. */
interface SubtreeSums {
  score: Float64Array;
  words: Float64Array;
  kept: Float64Array;
}

/** SubtreeSums of every row (rows are in document order: parents first). */
function subtreeSums(s: StageOne): SubtreeSums {
  const n = s.scores.length;
  const score = new Float64Array(n);
  const words = new Float64Array(n);
  const kept = new Float64Array(n);
  for (let r = n - 1; r >= 0; r--) {
    const w = s.own.ownWords[r] as number;
    if (w > 0) {
      score[r] = (score[r] as number) + w * (s.scores[r] as number);
      words[r] = (words[r] as number) + w;
      if ((s.scores[r] as number) >= s.threshold) kept[r] = (kept[r] as number) + w;
    }
    const p = s.own.parentRow[r] as number;
    if (p >= 0) {
      score[p] = (score[p] as number) + (score[r] as number);
      words[p] = (words[p] as number) + (words[r] as number);
      kept[p] = (kept[p] as number) + (kept[r] as number);
    }
  }
  return { score, words, kept };
}

/**
 * Words of the leaves scored strictly above a score: sorted scores, prefix sums, binary search (no
 * quadratic scan on huge pages).
 */
function wordsAbove(s: StageOne, leaves: readonly number[]): (p: number) => number {
  const order = [...leaves].sort((a, b) => (s.scores[b] as number) - (s.scores[a] as number));
  const scores = new Float64Array(order.length);
  for (let i = 0; i < order.length; i++) scores[i] = s.scores[order[i]!]!;
  const prefix = new Float64Array(order.length + 1);
  order.forEach((r, i) => (prefix[i + 1] = (prefix[i] as number) + (s.own.ownWords[r] as number)));
  return (p) => {
    let lo = 0;
    let hi = scores.length; // first index whose score is ≤ p (scores descend)
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((scores[mid] as number) > p) lo = mid + 1;
      else hi = mid;
    }
    return prefix[lo] as number;
  };
}

/** Per path signature over the page's leaves: word-weighted stage-1 sum, words, kept words and leaf count. */
function pathSums(
  s: Pick<StageOne, "scores" | "threshold" | "own">,
  leaves: readonly number[],
  paths: Uint32Array,
): Map<number, Float64Array> {
  const out = new Map<number, Float64Array>();
  for (const r of leaves) {
    const key = paths[r] as number;
    let e = out.get(key);
    if (!e) out.set(key, (e = new Float64Array(4)));
    const w = s.own.ownWords[r] as number;
    const p = s.scores[r] as number;
    e[0] = (e[0] as number) + w * p;
    e[1] = (e[1] as number) + w;
    if (p >= s.threshold) e[2] = (e[2] as number) + w;
    e[3] = (e[3] as number) + 1;
  }
  return out;
}

/**
 * The page's other leaves on row r's path: how many, their words, word-weighted stage-1 sum and
 * kept words (row r's own contribution taken out); null when r's path has no sums.
 */
function othersOnPath(
  s: Pick<StageOne, "scores" | "threshold" | "own">,
  sums: Map<number, Float64Array>,
  paths: Uint32Array,
  r: number,
): { n: number; words: number; score: number; kept: number } | null {
  const e = sums.get(paths[r] as number);
  if (!e) return null;
  const w = s.own.ownWords[r] as number;
  const p = s.scores[r] as number;
  return {
    n: (e[3] as number) - 1,
    words: (e[1] as number) - w,
    score: (e[0] as number) - w * p,
    kept: (e[2] as number) - (p >= s.threshold ? w : 0),
  };
}

/** The page's leaves grouped by path signature: each leaf's signature and the sums per signature (pathSums). */
interface PathStats {
  paths: Uint32Array;
  sums: Map<number, Float64Array>;
}

/** PATH_FEATURES of row r into f at c (`total`: the page's leaf words). */
function samePath(s: StageOne, stats: PathStats, r: number, total: number, f: Float32Array, c: number): void {
  const o = othersOnPath(s, stats.sums, stats.paths, r);
  if (!o) return;
  if (o.words > 0) {
    f[c] = o.score / o.words;
    f[c + 1] = o.kept / o.words;
  }
  f[c + 2] = Math.log1p(o.n);
  f[c + 3] = total ? o.words / total : 0;
}

/**
 * For the trace: how many other leaves of the page share row r's path signature and their
 * word-weighted stage-1 mean (null when none does).
 */
export function samePathLeaves(
  s: Pick<StageOne, "scores" | "threshold" | "own">,
  paths: Uint32Array,
): (r: number) => { n: number; mean: number } | null {
  const sums = pathSums(s, leafRows(s.own), paths);
  return (r) => {
    const o = othersOnPath(s, sums, paths, r);
    return o && o.words > 0 ? { n: o.n, mean: o.score / o.words } : null;
  };
}

/** The page's leaf words, kept words (at the threshold), word-weighted score sum and highest score. */
interface LeafTotals {
  total: number;
  kept: number;
  mean: number;
  max: number;
}

/** LeafTotals of the page's leaves. */
function leafTotals(s: StageOne, leaves: readonly number[]): LeafTotals {
  let total = 0;
  let kept = 0;
  let mean = 0;
  let max = 0;
  for (const r of leaves) {
    const w = s.own.ownWords[r] as number;
    const p = s.scores[r] as number;
    total += w;
    mean += w * p;
    if (p >= s.threshold) kept += w;
    if (p > max) max = p;
  }
  return { total, kept, mean, max };
}

/** Word-weighted mean score of the NEIGHBOUR_WINDOW leaves before (dir -1) or after (dir 1) leaf k; NaN: none. */
function windowMean(s: StageOne, leaves: readonly number[], k: number, dir: 1 | -1): number {
  let a = 0;
  let b = 0;
  for (let j = k + dir, c = 0; j >= 0 && j < leaves.length && c < NEIGHBOUR_WINDOW; j += dir, c++) {
    const r = leaves[j] as number;
    a += (s.own.ownWords[r] as number) * (s.scores[r] as number);
    b += s.own.ownWords[r] as number;
  }
  return b ? a / b : NaN;
}

/**
 * The ANCESTOR_LEVELS × 4 ancestor features of row r into f at c (`page`: the page's leaf totals); NaN
 * left for the levels above its last ancestor.
 */
function ancestorFeatures(
  s: StageOne,
  sums: SubtreeSums,
  r: number,
  page: LeafTotals,
  f: Float32Array,
  c: number,
): void {
  const { total, kept } = page;
  let a = s.own.parentRow[r] as number;
  for (let level = 0; level < ANCESTOR_LEVELS; level++, c += 4) {
    const words = a >= 0 ? (sums.words[a] as number) : 0;
    if (words <= 0) continue; // NaN: no such ancestor
    f[c] = (sums.score[a] as number) / words;
    f[c + 1] = total ? words / total : 0;
    f[c + 2] = (sums.kept[a] as number) / words;
    f[c + 3] = kept ? (sums.kept[a] as number) / kept : 0;
    a = s.own.parentRow[a] as number;
  }
}

/**
 * The context-stage matrix of `rows` (leaf rows of the page): CONTEXT_FEATURES, then the row's own features.
 */
export function contextMatrix(s: StageOne, rows: readonly number[]): Matrix {
  return contextMatrixIn(s, rows, createMatrix(rows.length, CONTEXT_FEATURES.length + s.nCols));
}

/**
 * Values up to this many are written into one buffer kept from page to page (applyContext): a
 * page's matrix is read by the classifier and dropped, and a new one per page was a large
 * zero-filled allocation each time. A larger page gets its own (memory stays bounded).
 */
const SCRATCH_VALUES = 1 << 20;
let scratch = new Float32Array(0);

/** A rows × width matrix on the shared scratch buffer (valid until the next call), or a new one when too large. */
function scratchMatrix(nRows: number, nCols: number): Matrix {
  const size = nRows * nCols;
  if (size > SCRATCH_VALUES) return createMatrix(nRows, nCols);
  if (scratch.length < size)
    scratch = new Float32Array(Math.min(SCRATCH_VALUES, Math.max(size, 2 * scratch.length)));
  return matrixFromData(scratch.subarray(0, size), nRows, nCols);
}

/** contextMatrix written into X (rows.length × (CONTEXT_FEATURES + nCols)): every cell is written. */
function contextMatrixIn(s: StageOne, rows: readonly number[], X: Matrix): Matrix {
  const nc = CONTEXT_FEATURES.length;
  const width = nc + s.nCols;
  const leaves = leafRows(s.own);
  const position = new Int32Array(s.scores.length).fill(-1); // row → its index among the leaves
  for (let k = 0; k < leaves.length; k++) position[leaves[k] as number] = k;
  const sums = subtreeSums(s);
  const totals = leafTotals(s, leaves);
  const { total, kept, mean, max } = totals;
  const above = wordsAbove(s, leaves);
  const paths = s.paths;
  const pathStats: PathStats | null = paths ? { paths, sums: pathSums(s, leaves, paths) } : null;
  const typeIndex = Math.max(0, (CONTEXT_TYPES as readonly string[]).indexOf(s.pageType));
  // written at offsets into X.data, no per-row views: this runs for every leaf of every page
  const f = X.data;
  const lw = CLASS_LEXICON_FEATURES.length;
  const hw = HEADING_LEXICON_FEATURES.length;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as number;
    const k = position[r] as number;
    const w = s.own.ownWords[r] as number;
    const p = s.scores[r] as number;
    let c = i * width;
    f.fill(NaN, c, c + nc); // the context features left missing stay NaN; the own features are all copied
    f[c++] = p;
    f[c++] = p - s.threshold;
    f[c++] = Math.log1p(w);
    f[c++] = total ? w / total : 0;
    f[c++] = total ? kept / total : 0;
    f[c++] = total ? mean / total : 0;
    f[c++] = max;
    f[c++] = total ? above(p) / total : 0;
    f[c++] = k > 0 ? (s.scores[leaves[k - 1] as number] as number) : NaN;
    f[c++] = k >= 0 && k + 1 < leaves.length ? (s.scores[leaves[k + 1] as number] as number) : NaN;
    f[c++] = k >= 0 ? windowMean(s, leaves, k, -1) : NaN;
    f[c++] = k >= 0 ? windowMean(s, leaves, k, 1) : NaN;
    ancestorFeatures(s, sums, r, totals, f, c);
    c += 4 * ANCESTOR_LEVELS;
    for (let t = 0; t < CONTEXT_TYPES.length; t++) f[c++] = t === typeIndex ? 1 : 0;
    if (s.lexicon) for (let j = 0; j < lw; j++) f[c + j] = s.lexicon[r * lw + j] as number;
    c += lw;
    if (pathStats) samePath(s, pathStats, r, total, f, c);
    c += PATH_FEATURES.length;
    if (s.headings) for (let j = 0; j < hw; j++) f[c + j] = s.headings[r * hw + j] as number;
    f.set(s.values.subarray(r * s.nCols, (r + 1) * s.nCols), i * width + nc);
  }
  return X;
}

/**
 * The context stage on one page: new P(main) per row (NaN where the row
 * owns no words) and the threshold to use.
 */
export function applyContext(model: ContextModel, s: StageOne): { scores: Float32Array; threshold: number } {
  const leaves = leafRows(s.own);
  const out = new Float32Array(s.scores.length).fill(NaN);
  const threshold = model.thresholds[s.pageType] ?? model.thresholds["general"] ?? s.threshold;
  if (!leaves.length) return { scores: out, threshold };
  const X = contextMatrixIn(s, leaves, scratchMatrix(leaves.length, CONTEXT_FEATURES.length + s.nCols));
  const p = model.classifier.predictProba(model.columns ? modelColumns(X, model.columns, s.nCols) : X);
  leaves.forEach((r, k) => (out[r] = p[k] as number));
  return { scores: out, threshold };
}

/**
 * The context matrix in a model's column order: its context features
 * (`columns`), then the leaf's own features.
 */
function modelColumns(X: Matrix, columns: Int32Array, nCols: number): Matrix {
  const nc = CONTEXT_FEATURES.length;
  const map = Int32Array.from([...columns, ...Array.from({ length: nCols }, (_, k) => nc + k)]);
  return matrixFromData(selectColumns(X.data, X.nRows, X.nCols, map), X.nRows, map.length);
}
