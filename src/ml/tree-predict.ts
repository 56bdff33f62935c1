/**
 * Prediction with flat trees (tree.ts): Σ over an ensemble's trees of the leaf value each row
 * reaches, each ensemble compiled (once, cached by its FlatTrees) into one of two layouts.
 *
 * Complete layout (ensembles no deeper than COMPLETE_MAX_DEPTH, the GBDT's): each tree padded to
 * a complete binary tree of its depth D, nodes in level order (node i's children at 2i + 1 and
 * 2i + 2, so a step computes its child instead of loading it), a leaf above the last level
 * repeated under dummy splits. Every walk takes exactly D steps, with no exit test that the CPU
 * mispredicts, and PREDICT_LANES rows walk a tree side by side: their walks are independent, so
 * the CPU overlaps one row's node loads with another's (the pointer walk waits on each). The
 * direction is arithmetic, not a branch: the predication and interleaving ("VPred") of Asadi,
 * Lin and de Vries (2014), "Runtime optimizations for tree-based machine learning models", IEEE TKDE.
 *
 * Packed layout (an ensemble's first COMPLETE_AFTER_ROWS rows, and deeper ensembles: the random
 * forest's, depth 16, would take 2^16 slots a tree): four 32-bit slots a node, walked from the
 * root to a leaf. Batches of fewer than PREDICT_LANES rows (the router's one row a page) walk
 * the flat arrays as they are, nothing compiled.
 *
 * All add the trees' leaf values to a row's sum in tree order with the same float64 adds, so
 * the sums are bit-identical to walking FlatTrees node by node (test/ml-tree-predict.test.ts).
 */
import type { Matrix } from "./matrix.ts";
import type { FlatTrees } from "./tree.ts";

/**
 * Rows per block: each tree walks a block of rows before the next tree, so one tree's nodes
 * and the block's rows stay in cache (deep forests are far larger than the cache; walking
 * all trees per row missed it at every step).
 */
export const PREDICT_BLOCK_ROWS = 256;
/**
 * Rows walked side by side through a tree in the complete layout: 8 beat 4, and the walk is
 * unrolled by hand, a loop over lanes being slower than the packed walk (docs/classifiers.md).
 */
export const PREDICT_LANES = 8;
/** Deepest ensemble compiled to the complete layout (2^D − 1 nodes and 2^D leaves a tree). */
export const COMPLETE_MAX_DEPTH = 10;

/**
 * Rows an ensemble walks packed before it is compiled to the complete layout: in a fresh process
 * the compile costs more than it saves on one page (docs/classifiers.md), so a one-page run never
 * pays it and a batch does after its first pages (about 300 rows a page).
 */
export const COMPLETE_AFTER_ROWS = 4096;

/** Bit 24 of a node's word: a missing value (NaN) goes right (complete) or left (packed). */
const MISSING_BIT_SHIFT = 24;
const MISSING_BIT = 1 << MISSING_BIT_SHIFT;
const FEATURE_MASK = MISSING_BIT - 1;

/** Per tree: depth, offset of its nodes and of its leaves; per node: word and threshold. */
interface CompleteTrees {
  depth: Int32Array;
  nodeStart: Int32Array;
  leafStart: Int32Array;
  /** The feature, plus MISSING_BIT when a missing value goes right. */
  words: Int32Array;
  thresholds: Float32Array;
  leaves: Float32Array;
}

/**
 * Four 32-bit slots a node: the feature (−1 at a leaf) plus MISSING_BIT when a missing value goes
 * left; the threshold, or the leaf value (float32); the left and right child's node index.
 */
interface PackedTrees {
  ints: Int32Array;
  floats: Float32Array;
  roots: Int32Array;
}

const NODE_SLOTS = 4;
/** Each ensemble's compiled layouts (null: too deep for the complete layout). */
const COMPLETE = new WeakMap<FlatTrees, CompleteTrees | null>();
const PACKED = new WeakMap<FlatTrees, PackedTrees>();
/** Rows each ensemble has walked (in batches of PREDICT_LANES rows or more). */
const WALKED = new WeakMap<FlatTrees, number>();

/** out[r] += Σ over trees of the leaf value reached by row r of X. */
export function addTreesRaw(flat: FlatTrees, X: Matrix, out: Float64Array): void {
  if (X.nRows < PREDICT_LANES) return addFlat(flat, X, out);
  const walked = (WALKED.get(flat) ?? 0) + X.nRows;
  WALKED.set(flat, walked);
  const compiled = walked > COMPLETE_AFTER_ROWS || COMPLETE.has(flat) ? complete(flat) : null;
  if (compiled) addComplete(compiled, X, out);
  else addPacked(packed(flat), X, out);
}

/**
 * Compiles the ensemble's complete layout now, as addTreesRaw does once it has walked
 * COMPLETE_AFTER_ROWS rows (false when a tree is too deep for it).
 */
export function compileComplete(flat: FlatTrees): boolean {
  return complete(flat) !== null;
}

/** A few rows (the router's one a page): walked on the flat arrays themselves, nothing compiled. */
function addFlat(flat: FlatTrees, X: Matrix, out: Float64Array): void {
  const { feature, threshold, missingLeft, left, right, value, roots } = flat;
  const { data, nCols } = X;
  for (let r = 0; r < X.nRows; r++) {
    const o = r * nCols;
    for (let k = 0; k < roots.length; k++) {
      let n = roots[k] as number;
      for (let f = feature[n] as number; f >= 0; f = feature[n] as number) {
        const v = data[o + f] as number;
        n = (
          v <= (threshold[n] as number) || (v !== v && missingLeft[n] === 1) ? left[n] : right[n]
        ) as number;
      }
      out[r] = (out[r] as number) + (value[n] as number);
    }
  }
}

function checkFeature(f: number): void {
  if (f > FEATURE_MASK) throw new RangeError(`tree feature ${f} is beyond the packed range`);
}

/**
 * Height of every node (a leaf: 0), children first: flat trees list a node's children after it
 * (tree.ts checks it on decode), so one backward pass sees them before their parent.
 */
function nodeHeights(flat: FlatTrees): Int32Array {
  const { feature, left, right } = flat;
  const height = new Int32Array(feature.length);
  for (let i = feature.length - 1; i >= 0; i--) {
    if ((feature[i] as number) < 0) continue;
    const l = height[left[i] as number] as number;
    const r = height[right[i] as number] as number;
    height[i] = 1 + (l > r ? l : r);
  }
  return height;
}

/** The complete layout of `flat` (cached), or null when a tree is deeper than COMPLETE_MAX_DEPTH. */
function complete(flat: FlatTrees): CompleteTrees | null {
  const cached = COMPLETE.get(flat);
  if (cached !== undefined) return cached;
  const K = flat.roots.length;
  const heights = nodeHeights(flat);
  const depth = new Int32Array(K);
  let nodes = 0;
  for (let k = 0; k < K; k++) {
    const d = heights[flat.roots[k] as number] as number;
    if (d > COMPLETE_MAX_DEPTH) {
      COMPLETE.set(flat, null);
      return null;
    }
    depth[k] = d;
    nodes += (1 << d) - 1;
  }
  const c: CompleteTrees = {
    depth,
    nodeStart: new Int32Array(K),
    leafStart: new Int32Array(K),
    words: new Int32Array(nodes),
    thresholds: new Float32Array(nodes),
    leaves: new Float32Array(nodes + K),
  };
  const stack = new Int32Array(3 * (COMPLETE_MAX_DEPTH + 2)); // depth first: at most D + 1 pending
  for (let k = 0, s = 0; k < K; k++) {
    c.nodeStart[k] = s;
    c.leafStart[k] = s + k;
    fillComplete(flat, c, k, stack);
    s += (1 << (depth[k] as number)) - 1;
  }
  COMPLETE.set(flat, c);
  return c;
}

/**
 * Lays out tree k from its real nodes only (depth first): a node at complete position i of depth d
 * writes its split there; a leaf fills the leaves below position i, a contiguous run of 2^(D − d)
 * in level order, and the positions between stay dummy splits (word 0, threshold 0) that lead
 * into that run whichever way a row goes.
 */
function fillComplete(flat: FlatTrees, c: CompleteTrees, k: number, stack: Int32Array): void {
  const D = c.depth[k] as number;
  const s = c.nodeStart[k] as number;
  const l = (c.leafStart[k] as number) - ((1 << D) - 1);
  let top = 0;
  stack[top++] = flat.roots[k] as number; // node, position, depth
  stack[top++] = 0;
  stack[top++] = 0;
  while (top > 0) {
    const d = stack[--top] as number;
    const i = stack[--top] as number;
    const n = stack[--top] as number;
    const f = flat.feature[n] as number;
    if (f < 0) {
      const span = 1 << (D - d);
      c.leaves.fill(flat.value[n] as number, l + (i + 1) * span - 1, l + (i + 2) * span - 1);
      continue;
    }
    checkFeature(f);
    c.words[s + i] = f | (flat.missingLeft[n] === 1 ? 0 : MISSING_BIT);
    c.thresholds[s + i] = flat.threshold[n] as number;
    stack[top++] = flat.left[n] as number;
    stack[top++] = 2 * i + 1;
    stack[top++] = d + 1;
    stack[top++] = flat.right[n] as number;
    stack[top++] = 2 * i + 2;
    stack[top++] = d + 1;
  }
}

/**
 * The complete-layout child of node i: right when v > threshold or v is missing and its node sends
 * missing values right (x ≤ t goes left, as in tree.ts), computed without a branch.
 */
function down(i: number, word: number, v: number, threshold: number): number {
  return 2 * i + 1 + (+(v > threshold) | (+(v !== v) & (word >>> MISSING_BIT_SHIFT)));
}

function addComplete(c: CompleteTrees, X: Matrix, out: Float64Array): void {
  const { depth, nodeStart, leafStart } = c;
  const walk = new LaneWalk(c, X, out);
  for (let r0 = 0; r0 < X.nRows; r0 += PREDICT_BLOCK_ROWS) {
    const r1 = Math.min(X.nRows, r0 + PREDICT_BLOCK_ROWS);
    for (let k = 0; k < depth.length; k++) {
      const D = depth[k] as number;
      const s = nodeStart[k] as number;
      const l = (leafStart[k] as number) - ((1 << D) - 1); // leaf j of the tree is position l + inner + j
      let r = r0;
      for (; r + PREDICT_LANES <= r1; r += PREDICT_LANES) walk.lanes(r, D, s, l);
      for (; r < r1; r++) walk.one(r, D, s, l);
    }
  }
}

/** Walks of one matrix through complete trees: D steps from position 0, then the leaf's value added. */
class LaneWalk {
  private readonly words: Int32Array;
  private readonly t: Float32Array;
  private readonly leaves: Float32Array;
  private readonly data: Float32Array;
  private readonly nCols: number;

  constructor(
    c: CompleteTrees,
    X: Matrix,
    private readonly out: Float64Array,
  ) {
    this.words = c.words;
    this.t = c.thresholds;
    this.leaves = c.leaves;
    this.data = X.data;
    this.nCols = X.nCols;
  }

  /** Row r through the tree of depth D whose nodes start at s and leaves at l + 2^D − 1. */
  one(r: number, D: number, s: number, l: number): void {
    const { words, t, data } = this;
    const o = r * this.nCols;
    let i = 0;
    for (let d = 0; d < D; d++) {
      const w = words[s + i] as number;
      i = down(i, w, data[o + (w & FEATURE_MASK)] as number, t[s + i] as number);
    }
    this.out[r] = (this.out[r] as number) + (this.leaves[l + i] as number);
  }

  /** Rows r … r + 7 side by side, as `one` walks each. */
  lanes(r: number, D: number, s: number, l: number): void {
    const { words, t, data, nCols, out, leaves } = this;
    const o0 = r * nCols;
    const o1 = o0 + nCols;
    const o2 = o1 + nCols;
    const o3 = o2 + nCols;
    const o4 = o3 + nCols;
    const o5 = o4 + nCols;
    const o6 = o5 + nCols;
    const o7 = o6 + nCols;
    let i0 = 0;
    let i1 = 0;
    let i2 = 0;
    let i3 = 0;
    let i4 = 0;
    let i5 = 0;
    let i6 = 0;
    let i7 = 0;
    for (let d = 0; d < D; d++) {
      const w0 = words[s + i0]!;
      const w1 = words[s + i1]!;
      const w2 = words[s + i2]!;
      const w3 = words[s + i3]!;
      const w4 = words[s + i4]!;
      const w5 = words[s + i5]!;
      const w6 = words[s + i6]!;
      const w7 = words[s + i7]!;
      i0 = down(i0, w0, data[o0 + (w0 & FEATURE_MASK)]!, t[s + i0]!);
      i1 = down(i1, w1, data[o1 + (w1 & FEATURE_MASK)]!, t[s + i1]!);
      i2 = down(i2, w2, data[o2 + (w2 & FEATURE_MASK)]!, t[s + i2]!);
      i3 = down(i3, w3, data[o3 + (w3 & FEATURE_MASK)]!, t[s + i3]!);
      i4 = down(i4, w4, data[o4 + (w4 & FEATURE_MASK)]!, t[s + i4]!);
      i5 = down(i5, w5, data[o5 + (w5 & FEATURE_MASK)]!, t[s + i5]!);
      i6 = down(i6, w6, data[o6 + (w6 & FEATURE_MASK)]!, t[s + i6]!);
      i7 = down(i7, w7, data[o7 + (w7 & FEATURE_MASK)]!, t[s + i7]!);
    }
    out[r] = out[r]! + leaves[l + i0]!;
    out[r + 1] = out[r + 1]! + leaves[l + i1]!;
    out[r + 2] = out[r + 2]! + leaves[l + i2]!;
    out[r + 3] = out[r + 3]! + leaves[l + i3]!;
    out[r + 4] = out[r + 4]! + leaves[l + i4]!;
    out[r + 5] = out[r + 5]! + leaves[l + i5]!;
    out[r + 6] = out[r + 6]! + leaves[l + i6]!;
    out[r + 7] = out[r + 7]! + leaves[l + i7]!;
  }
}

function packed(flat: FlatTrees): PackedTrees {
  const cached = PACKED.get(flat);
  if (cached) return cached;
  const n = flat.feature.length;
  const buffer = new ArrayBuffer(n * NODE_SLOTS * 4);
  const ints = new Int32Array(buffer);
  const floats = new Float32Array(buffer);
  for (let i = 0; i < n; i++) {
    const f = flat.feature[i]!;
    checkFeature(f);
    const b = i * NODE_SLOTS;
    ints[b] = f < 0 ? -1 : f | (flat.missingLeft[i] === 1 ? MISSING_BIT : 0);
    floats[b + 1] = f < 0 ? flat.value[i]! : flat.threshold[i]!;
    ints[b + 2] = flat.left[i]!;
    ints[b + 3] = flat.right[i]!;
  }
  const p = { ints, floats, roots: flat.roots };
  PACKED.set(flat, p);
  return p;
}

function addPacked(p: PackedTrees, X: Matrix, out: Float64Array): void {
  const { ints, floats, roots } = p;
  const { data, nCols } = X;
  for (let r0 = 0; r0 < X.nRows; r0 += PREDICT_BLOCK_ROWS) {
    const r1 = Math.min(X.nRows, r0 + PREDICT_BLOCK_ROWS);
    for (let k = 0; k < roots.length; k++) {
      const root = roots[k]! * NODE_SLOTS;
      for (let r = r0; r < r1; r++) {
        const off = r * nCols;
        let b = root;
        let f = ints[b]!;
        while (f >= 0) {
          const v = data[off + (f & FEATURE_MASK)]!;
          const goLeft = v <= floats[b + 1]! || (v !== v && f > FEATURE_MASK);
          b = ints[b + (goLeft ? 2 : 3)]! * NODE_SLOTS;
          f = ints[b]!;
        }
        out[r] = out[r]! + floats[b + 1]!;
      }
    }
  }
}
