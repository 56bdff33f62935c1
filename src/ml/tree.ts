/**
 * Decision trees shared by the histogram learners: the growing form (bin thresholds, used
 * while training on BinnedData) and the flat form (raw float32 thresholds in typed arrays,
 * serialised to JSON; tree-predict.ts compiles them for prediction). Traversal is iterative.
 *
 * A node sends x left when x ≤ threshold, and a missing x (NaN) left iff missingLeft.
 */
import { type BinnedData, MISSING_BIN } from "./binning.ts";

/** A tree while it grows: parallel arrays, local node ids, root = 0, feature −1 = leaf. */
export interface GrownTree {
  feature: number[];
  bin: number[];
  missingLeft: boolean[];
  left: number[];
  right: number[];
  value: number[];
  /** Split gain per node (0 for leaves), summed into feature importance. */
  gain: number[];
}

export function newGrownTree(): GrownTree {
  return { feature: [], bin: [], missingLeft: [], left: [], right: [], value: [], gain: [] };
}

/** Appends a leaf and returns its id (it becomes a split via setSplit). */
export function addLeaf(t: GrownTree, value: number): number {
  t.feature.push(-1);
  t.bin.push(0);
  t.missingLeft.push(false);
  t.left.push(-1);
  t.right.push(-1);
  t.value.push(Math.fround(value));
  t.gain.push(0);
  return t.feature.length - 1;
}

/** The part of a split a grown tree records (hist.ts's Split is one). */
export interface TreeSplit {
  feature: number;
  bin: number;
  missingLeft: boolean;
  gain: number;
}

/** Turns leaf `node` into a split on `s` with children `left` and `right`. */
export function setSplit(t: GrownTree, node: number, s: TreeSplit, left: number, right: number): void {
  t.feature[node] = s.feature;
  t.gain[node] = s.gain;
  t.bin[node] = s.bin;
  t.missingLeft[node] = s.missingLeft;
  t.left[node] = left;
  t.right[node] = right;
}

/** out[i] += leaf value of binned row i, for every row of `data`. */
export function addTreeBinned(t: GrownTree, data: BinnedData, out: Float64Array, scale = 1): void {
  const { bins, nRows } = data;
  for (let i = 0; i < nRows; i++) {
    let n = 0;
    for (;;) {
      const f = t.feature[n]!;
      if (f < 0) break;
      const v = bins[f * nRows + i]!;
      const left = v === MISSING_BIN ? t.missingLeft[n]! : v <= t.bin[n]!;
      n = left ? t.left[n]! : t.right[n]!;
    }
    out[i] = out[i]! + t.value[n]! * scale;
  }
}

/** Total split gain per feature over the given trees. */
export function gainImportance(trees: readonly GrownTree[], nCols: number): Float64Array {
  const out = new Float64Array(nCols);
  for (const t of trees) {
    for (let n = 0; n < t.feature.length; n++) {
      const f = t.feature[n]!;
      if (f >= 0) out[f] = out[f]! + t.gain[n]!;
    }
  }
  return out;
}

/** An ensemble of trees in typed arrays; node ids are global, roots[k] is tree k's root. */
export interface FlatTrees {
  feature: Int32Array;
  threshold: Float32Array;
  missingLeft: Uint8Array;
  left: Int32Array;
  right: Int32Array;
  value: Float32Array;
  roots: Int32Array;
}

/** Converts grown trees to flat form; bin thresholds become raw edges (edges[f][bin − 1]). */
export function flattenTrees(trees: readonly GrownTree[], edges: readonly Float32Array[]): FlatTrees {
  const total = trees.reduce((s, t) => s + t.feature.length, 0);
  const flat: FlatTrees = {
    feature: new Int32Array(total),
    threshold: new Float32Array(total),
    missingLeft: new Uint8Array(total),
    left: new Int32Array(total),
    right: new Int32Array(total),
    value: new Float32Array(total),
    roots: new Int32Array(trees.length),
  };
  let off = 0;
  trees.forEach((t, k) => {
    flat.roots[k] = off;
    for (let n = 0; n < t.feature.length; n++) {
      const f = t.feature[n]!;
      flat.feature[off + n] = f;
      flat.threshold[off + n] = f < 0 ? 0 : edges[f]![t.bin[n]! - 1]!;
      flat.missingLeft[off + n] = t.missingLeft[n] ? 1 : 0;
      flat.left[off + n] = f < 0 ? -1 : off + t.left[n]!;
      flat.right[off + n] = f < 0 ? -1 : off + t.right[n]!;
      flat.value[off + n] = f < 0 ? t.value[n]! : 0; // only leaf values are read
    }
    off += t.feature.length;
  });
  return flat;
}

/** One ensemble of every tree of `parts`, leaf values multiplied by `scale` (an average of ensembles). */
export function concatTrees(parts: readonly FlatTrees[], scale: number): FlatTrees {
  const total = parts.reduce((s, p) => s + p.feature.length, 0);
  const nTrees = parts.reduce((s, p) => s + p.roots.length, 0);
  const out: FlatTrees = {
    feature: new Int32Array(total),
    threshold: new Float32Array(total),
    missingLeft: new Uint8Array(total),
    left: new Int32Array(total),
    right: new Int32Array(total),
    value: new Float32Array(total),
    roots: new Int32Array(nTrees),
  };
  let off = 0;
  let k = 0;
  for (const p of parts) {
    out.feature.set(p.feature, off);
    out.threshold.set(p.threshold, off);
    out.missingLeft.set(p.missingLeft, off);
    for (let n = 0; n < p.feature.length; n++) {
      const leaf = (p.feature[n] as number) < 0;
      out.left[off + n] = leaf ? -1 : (p.left[n] as number) + off;
      out.right[off + n] = leaf ? -1 : (p.right[n] as number) + off;
      out.value[off + n] = Math.fround((p.value[n] as number) * scale);
    }
    for (const r of p.roots) out.roots[k++] = r + off;
    off += p.feature.length;
  }
  return out;
}

/** Shortest decimal that reads back (through Math.fround) as the same float32. */
export function f32(v: number): number {
  if (!Number.isFinite(v)) return v;
  for (let p = 6; p < 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return s;
  }
  return Number(v.toPrecision(9));
}

export interface FlatTreesJSON {
  feature: number[];
  /** null = +Infinity (JSON has no Infinity). */
  threshold: (number | null)[];
  missingLeft: number[];
  left: number[];
  right: number[];
  value: number[];
  roots: number[];
}

export function encodeTrees(flat: FlatTrees): FlatTreesJSON {
  return {
    feature: Array.from(flat.feature),
    threshold: Array.from(flat.threshold, (v) => (v === Infinity ? null : f32(v))),
    missingLeft: Array.from(flat.missingLeft),
    left: Array.from(flat.left),
    right: Array.from(flat.right),
    value: Array.from(flat.value, f32),
    roots: Array.from(flat.roots),
  };
}

/**
 * Set (to nCols) on serialised trees whose typed arrays this pith decoded and checked already, for
 * the same nCols (a model cache, src/pipeline/model/cache.ts): decodeTrees does not check them
 * again. A symbol, so no JSON can carry it.
 */
export const CHECKED_TREES = Symbol("pith.checkedTrees");

type TreesFields = (Partial<Record<keyof FlatTreesJSON, unknown>> & { [CHECKED_TREES]?: number }) | null;
type TypedArray = Int32Array | Float32Array | Uint8Array;

/** Field `name` of serialised trees: its typed array as is (a model cache's), else the JSON array converted. */
function treesField<T extends TypedArray>(
  j: TreesFields,
  name: keyof FlatTreesJSON,
  Typed: abstract new (...args: never[]) => T,
  convert: (a: unknown[]) => T,
): T {
  const v = j?.[name];
  if (v instanceof Typed) return v;
  if (!Array.isArray(v)) throw new Error(`serialised trees lack the "${name}" array`);
  return convert(v);
}

/**
 * Rebuilds flat trees from JSON, checking that every array is present and every node id in range.
 * A field may already be the typed array it decodes to (src/pipeline/model/cache.ts): it is kept.
 */
export function decodeTrees(json: unknown, nCols: number): FlatTrees {
  const j = json as TreesFields;
  const ints = (a: unknown[]) => Int32Array.from(a as number[]);
  const flat: FlatTrees = {
    feature: treesField(j, "feature", Int32Array, ints),
    threshold: treesField(j, "threshold", Float32Array, thresholds),
    missingLeft: treesField(j, "missingLeft", Uint8Array, (a) => Uint8Array.from(a as number[])),
    left: treesField(j, "left", Int32Array, ints),
    right: treesField(j, "right", Int32Array, ints),
    value: treesField(j, "value", Float32Array, (a) => Float32Array.from(a as number[])),
    roots: treesField(j, "roots", Int32Array, ints),
  };
  if (j?.[CHECKED_TREES] !== nCols) checkFlatTrees(flat, flat.feature.length, nCols);
  return flat;
}

/**
 * The thresholds read back (null = +Infinity) in a loop: Float32Array.from with a map function
 * goes through the iterator protocol, 2-3 ms a classifier at every model load.
 */
function thresholds(json: readonly unknown[]): Float32Array {
  const out = new Float32Array(json.length);
  for (let i = 0; i < json.length; i++) {
    const v = json[i];
    out[i] = v === null ? Infinity : Number(v);
  }
  return out;
}

function checkFlatTrees(flat: FlatTrees, n: number, nCols: number): void {
  const lens = [flat.threshold, flat.missingLeft, flat.left, flat.right, flat.value].map((a) => a.length);
  if (lens.some((l) => l !== n)) throw new Error("serialised trees have arrays of different lengths");
  for (let i = 0; i < n; i++) {
    const f = flat.feature[i]!;
    if (f >= nCols) throw new Error(`serialised tree node ${i} uses feature ${f} of ${nCols}`);
    // children always come after their parent, so traversal cannot loop
    if (f >= 0 && !(flat.left[i]! > i && flat.left[i]! < n && flat.right[i]! > i && flat.right[i]! < n)) {
      throw new Error(`serialised tree node ${i} has children out of range`);
    }
    if (Number.isNaN(flat.value[i]!) || Number.isNaN(flat.threshold[i]!))
      throw new Error(`serialised tree node ${i} is not a number`);
  }
  for (const r of flat.roots)
    if (r < 0 || r >= n) throw new Error(`serialised tree root ${r} is out of range`);
}
