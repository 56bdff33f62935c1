/**
 * Site-grouped data splits. Pages of one site share a template, so a random row or page
 * split leaks the template into the test set (dragnet's lesson, shared/STYLE.md): every
 * split here keeps each group (site) whole on one side. Deterministic given the seed:
 * groups are sorted, shuffled with the seeded PRNG, then dealt to the lightest fold.
 */
import { createRng, DEFAULT_SEED, shuffleInPlace } from "./prng.ts";

export interface Fold {
  /** Row indices, ascending. */
  train: Uint32Array;
  test: Uint32Array;
}

/** Distinct groups in a canonical order (numbers numerically, strings by code unit), with row counts. */
function distinctGroups(groups: ArrayLike<number | string>): {
  keys: (number | string)[];
  index: Map<number | string, number>;
  sizes: number[];
} {
  const seen = new Set<number | string>();
  for (let i = 0; i < groups.length; i++) seen.add(groups[i]!);
  const keys = [...seen].sort((a, b) =>
    typeof a === "number" && typeof b === "number"
      ? a - b
      : String(a) < String(b)
        ? -1
        : String(a) > String(b)
          ? 1
          : 0,
  );
  const index = new Map(keys.map((k, i) => [k, i] as const));
  const sizes = new Array<number>(keys.length).fill(0);
  for (let i = 0; i < groups.length; i++) sizes[index.get(groups[i]!)!]! += 1;
  return { keys, index, sizes };
}

/** Fold id per row: groups dealt in seeded-shuffled order, each to the fold with the fewest rows. */
export function assignGroupFolds(
  groups: ArrayLike<number | string>,
  k: number,
  seed: number = DEFAULT_SEED,
): Int32Array {
  const { keys, index, sizes } = distinctGroups(groups);
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`k-fold needs k ≥ 2, got ${k}`);
  if (keys.length < k) throw new RangeError(`cannot make ${k} group folds from ${keys.length} groups`);
  const order = shuffleInPlace(
    Array.from(keys, (_, i) => i),
    createRng(seed),
  );
  const foldOfGroup = new Int32Array(keys.length);
  const load = new Array<number>(k).fill(0);
  for (const g of order) {
    let best = 0;
    for (let f = 1; f < k; f++) if (load[f]! < load[best]!) best = f;
    foldOfGroup[g] = best;
    load[best]! += sizes[g]!;
  }
  return Int32Array.from({ length: groups.length }, (_, i) => foldOfGroup[index.get(groups[i]!)!]!);
}

/** k folds whose test sets partition the rows and never split a group. */
export function groupKFold(
  groups: ArrayLike<number | string>,
  k: number,
  seed: number = DEFAULT_SEED,
): Fold[] {
  const fold = assignGroupFolds(groups, k, seed);
  return Array.from({ length: k }, (_, f) => ({
    train: rowsWhere(fold, (x) => x !== f),
    test: rowsWhere(fold, (x) => x === f),
  }));
}

/** The fold that holds out each of `n` rows (the inverse of the folds' test sets). */
export function foldOfRows(folds: readonly Fold[], n: number): Int32Array {
  const out = new Int32Array(n);
  folds.forEach((f, i) => f.test.forEach((r) => (out[r] = i)));
  return out;
}

/** Plain k-fold over n rows (each row its own group). */
export function kFold(n: number, k: number, seed: number = DEFAULT_SEED): Fold[] {
  return groupKFold(
    Int32Array.from({ length: n }, (_, i) => i),
    k,
    seed,
  );
}

/**
 * Holds out about `fraction` of the rows as whole groups (rows are their own groups when
 * `groups` is absent). Both sides keep at least one group.
 */
export function groupHoldout(
  n: number,
  fraction: number,
  seed: number = DEFAULT_SEED,
  groups?: ArrayLike<number | string>,
): Fold {
  const g = groups ?? Int32Array.from({ length: n }, (_, i) => i);
  if (g.length !== n) throw new RangeError(`groups has ${g.length} values for ${n} rows`);
  const { keys, index, sizes } = distinctGroups(g);
  if (keys.length < 2) throw new RangeError("a holdout needs at least 2 groups");
  const order = shuffleInPlace(
    Array.from(keys, (_, i) => i),
    createRng(seed),
  );
  const isTest = new Uint8Array(keys.length);
  let taken = 0;
  for (let i = 0; i < order.length - 1 && (i === 0 || taken < fraction * n); i++) {
    isTest[order[i]!] = 1;
    taken += sizes[order[i]!]!;
  }
  const testRow = Uint8Array.from({ length: n }, (_, i) => isTest[index.get(g[i]!)!]!);
  return { train: rowsWhere(testRow, (x) => x === 0), test: rowsWhere(testRow, (x) => x === 1) };
}

function rowsWhere(a: ArrayLike<number>, pred: (x: number) => boolean): Uint32Array {
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (pred(a[i]!)) out.push(i);
  return Uint32Array.from(out);
}
