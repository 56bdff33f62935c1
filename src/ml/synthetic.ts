/**
 * Synthetic feature tables shaped like pith's node features, for tests and
 * scripts/bench-ml.ts: heavy-tailed lengths, [0, 1] ratios (link density, text share),
 * small counts, binary flags, and a block of "visual" columns missing (NaN) on a share of
 * the pages as in static mode. Rows are grouped by site, each site shifting the labels a
 * little. The label depends on thresholds, an XOR interaction and missingness, so a
 * learner must model all three to score well.
 */
import { createMatrix, type Matrix } from "./matrix.ts";
import { createRng, DEFAULT_SEED, type Rng } from "./prng.ts";

export interface SyntheticOptions {
  nRows: number;
  /** Default 100 (at least 12). */
  nCols?: number;
  /** Default 50 rows per site on average. */
  nGroups?: number;
  seed?: number;
  /** Share of sites whose visual block is missing. Default 0.3. */
  missingShare?: number;
  /** Scale of the logistic label noise. Default 0.5. */
  noise?: number;
}

export interface SyntheticData {
  X: Matrix;
  y: Uint8Array;
  groups: Int32Array;
  names: string[];
}

/** Standard normal via Box-Muller. */
function gauss(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

/** Feature kind by column: 0 length-like, 1 ratio, 2 count, 3 flag, 4 visual (missing-prone). */
function kindOf(c: number, nCols: number): number {
  if (c >= nCols - Math.max(2, Math.floor(nCols / 10))) return 4;
  return c % 4;
}

export function makeSyntheticData(opts: SyntheticOptions): SyntheticData {
  const nCols = Math.max(12, opts.nCols ?? 100);
  const nRows = opts.nRows;
  const nGroups = Math.max(2, opts.nGroups ?? Math.ceil(nRows / 50));
  const rng = createRng(opts.seed ?? DEFAULT_SEED);
  const siteShift = Float64Array.from({ length: nGroups }, () => 0.5 * gauss(rng));
  const siteStatic = Uint8Array.from({ length: nGroups }, () =>
    rng.next() < (opts.missingShare ?? 0.3) ? 1 : 0,
  );
  const X = createMatrix(nRows, nCols);
  const y = new Uint8Array(nRows);
  const groups = new Int32Array(nRows);
  const noise = opts.noise ?? 0.5;
  for (let r = 0; r < nRows; r++) {
    const g = Math.min(nGroups - 1, Math.floor((r / nRows) * nGroups));
    groups[r] = g;
    fillRow(X.data.subarray(r * nCols, (r + 1) * nCols), nCols, siteStatic[g] === 1, rng);
    const z = latent(X.data.subarray(r * nCols, (r + 1) * nCols), nCols) + siteShift[g]!;
    const u = Math.min(Math.max(rng.next(), 1e-9), 1 - 1e-9);
    y[r] = z + noise * Math.log(u / (1 - u)) > 0 ? 1 : 0;
  }
  const names = Array.from(
    { length: nCols },
    (_, c) => `${["len", "ratio", "count", "flag", "visual"][kindOf(c, nCols)]}_${c}`,
  );
  return { X, y, groups, names };
}

function fillRow(row: Float32Array, nCols: number, isStatic: boolean, rng: Rng): void {
  for (let c = 0; c < nCols; c++) {
    switch (kindOf(c, nCols)) {
      case 0:
        row[c] = Math.round(Math.exp(3 + 1.5 * gauss(rng)));
        break;
      case 1:
        row[c] = rng.next() ** 2;
        break;
      case 2:
        row[c] = Math.floor(-Math.log(1 - rng.next()) * 3);
        break;
      case 3:
        row[c] = rng.next() < 0.2 ? 1 : 0;
        break;
      default:
        row[c] = isStatic ? NaN : 400 * rng.next();
    }
  }
}

/** The true log-odds (before site shift and noise). */
function latent(row: Float32Array, nCols: number): number {
  const len = Math.log1p(row[0]!);
  const linkDensity = row[1]!;
  const xor = row[5]! > 0.25 !== row[9]! > 0.25 ? 1 : 0;
  const visual = row[nCols - 1]!;
  const vis = visual !== visual ? 0.8 : visual > 200 ? 1.2 : -1.2;
  return (
    0.9 * (len - 3) - 3 * (linkDensity - 0.33) + 2.5 * (xor - 0.5) + vis + (row[3]! === 1 ? 0.7 : 0) - 0.6
  );
}

export type ToyProblem = "xor" | "threshold" | "missing" | "imbalanced";

/**
 * Small problems with one known structure each, for tests: "xor" (y = [x0 > .5] xor
 * [x1 > .5], no single feature helps), "threshold" (y = [x2 > .3]), "missing" (y = 1 iff
 * x0 is NaN), "imbalanced" (≈10 % positives, overlapping classes). Columns 0-4, the
 * rest noise; `flip` is the label-noise rate (default 0.02).
 */
export function makeToyData(
  problem: ToyProblem,
  nRows: number,
  seed = DEFAULT_SEED,
  flip = 0.02,
): { X: Matrix; y: Uint8Array } {
  const rng = createRng(seed);
  const nCols = 5;
  const X = createMatrix(nRows, nCols);
  const y = new Uint8Array(nRows);
  for (let r = 0; r < nRows; r++) {
    const row = X.data.subarray(r * nCols, (r + 1) * nCols);
    for (let c = 0; c < nCols; c++) row[c] = rng.next();
    let label: boolean;
    if (problem === "xor") label = row[0]! > 0.5 !== row[1]! > 0.5;
    else if (problem === "threshold") label = row[2]! > 0.3;
    else if (problem === "missing") {
      label = rng.next() < 0.5;
      if (label) row[0] = NaN;
    } else label = row[0]! + 0.5 * gauss(rng) > 1.05;
    y[r] = (rng.next() < flip ? !label : label) ? 1 : 0;
  }
  return { X, y };
}

/**
 * A toy sequence problem no row classifier can learn: pages of 20-80 rows, 4 features of
 * uniform noise; the main block is a contiguous run, and a row is main exactly when the row
 * before or after it has feature 0 above 0.8 (a "marker" neighbour) or it lies in the run.
 * Rows are in page order; `sequences` names each row's page.
 */
export function makeToySequences(
  nPages: number,
  seed = DEFAULT_SEED,
): { X: Matrix; y: Uint8Array; sequences: Int32Array } {
  const rng = createRng(seed);
  const lengths = Array.from({ length: nPages }, () => 20 + Math.floor(rng.next() * 61));
  const nRows = lengths.reduce((a, b) => a + b, 0);
  const nCols = 4;
  const X = createMatrix(nRows, nCols);
  const y = new Uint8Array(nRows);
  const sequences = new Int32Array(nRows);
  let at = 0;
  lengths.forEach((n, page) => {
    for (let r = at; r < at + n; r++) {
      for (let c = 0; c < nCols; c++) X.data[r * nCols + c] = rng.next();
      sequences[r] = page;
    }
    for (let r = at; r < at + n; r++) {
      const marked = (k: number) => k >= at && k < at + n && X.data[k * nCols]! > 0.8;
      y[r] = marked(r - 1) || marked(r + 1) ? 1 : 0;
    }
    at += n;
  });
  return { X, y, sequences };
}
