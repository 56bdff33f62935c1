/**
 * Seeded pseudo-random numbers for pith's learners: every random choice in src/ml
 * (bagging, feature sampling, shuffles, splits, weight init) goes through this, so a
 * training run is reproducible from its seed alone. mulberry32 (Tommy Ettinger's 32-bit
 * generator): tiny, fast, good enough for sampling; not for cryptography.
 */

/** Seed used when a caller does not pass one. */
export const DEFAULT_SEED = 42;

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** A fresh 32-bit seed drawn from this stream (to seed a child generator). */
  seed(): number;
}

/** mulberry32 generator seeded with a 32-bit integer. */
export function createRng(seed: number = DEFAULT_SEED): Rng {
  let a = seed >>> 0;
  const nextU32 = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return {
    next: () => nextU32() / 4294967296,
    int: (n: number) => Math.floor((nextU32() / 4294967296) * n),
    seed: () => nextU32(),
  };
}

/** Fisher-Yates shuffle in place. */
export function shuffleInPlace<T extends Uint32Array | Int32Array | number[]>(arr: T, rng: Rng): T {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const tmp = arr[i]!;
    arr[i] = arr[j]!;
    arr[j] = tmp;
  }
  return arr;
}

/**
 * Draws k distinct integers from [0, n) into the first k slots of `perm` (a permutation
 * of 0..n-1, kept a permutation so it can be reused without resetting) and returns a sorted
 * copy. For repeated small draws (features per node) without allocating an n-array each time.
 */
export function drawFromPermutation(perm: Int32Array, k: number, rng: Rng): Int32Array {
  const n = perm.length;
  const take = Math.max(0, Math.min(n, Math.floor(k)));
  for (let i = 0; i < take; i++) {
    const j = i + rng.int(n - i);
    const tmp = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = tmp;
  }
  return perm.slice(0, take).sort();
}

/** k distinct integers from [0, n), in increasing order. */
export function sampleWithoutReplacement(n: number, k: number, rng: Rng): Uint32Array {
  const take = Math.max(0, Math.min(n, Math.floor(k)));
  if (take === n) return Uint32Array.from({ length: n }, (_, i) => i);
  const pool = Uint32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < take; i++) {
    const j = i + rng.int(n - i);
    const tmp = pool[i]!;
    pool[i] = pool[j]!;
    pool[j] = tmp;
  }
  return pool.slice(0, take).sort();
}
