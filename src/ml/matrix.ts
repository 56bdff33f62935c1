/**
 * The dense numeric matrix every pith classifier reads: row-major Float32Array, one row
 * per DOM node, one column per named feature. NaN means "missing" (e.g. visual features
 * in static mode) and is kept as NaN: each learner decides what missing means.
 * Row-major + Float32 keeps 500k × 150 features at 300 MB and rows contiguous for prediction.
 */

export interface Matrix {
  /** Row-major values: cell (r, c) is data[r * nCols + c]. */
  readonly data: Float32Array;
  readonly nRows: number;
  readonly nCols: number;
}

/** What fit/predictProba accept: a Matrix or an array of rows (each one Float32Array). */
export type MatrixInput = Matrix | readonly Float32Array[];

/** A zero-filled nRows × nCols matrix. */
export function createMatrix(nRows: number, nCols: number): Matrix {
  return { data: new Float32Array(nRows * nCols), nRows, nCols };
}

/** Wraps existing row-major data (no copy). */
export function matrixFromData(data: Float32Array, nRows: number, nCols: number): Matrix {
  if (data.length !== nRows * nCols) {
    throw new RangeError(`matrix data has ${data.length} values, expected ${nRows} × ${nCols}`);
  }
  return { data, nRows, nCols };
}

/** Copies rows (number arrays or typed arrays; null/undefined cells become NaN) into a Matrix. */
export function matrixFromRows(
  rows: readonly ArrayLike<number | null | undefined>[],
  nCols?: number,
): Matrix {
  const cols = nCols ?? rows[0]?.length ?? 0;
  const m = createMatrix(rows.length, cols);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    if (row.length !== cols) throw new RangeError(`row ${r} has ${row.length} values, expected ${cols}`);
    const off = r * cols;
    for (let c = 0; c < cols; c++) m.data[off + c] = row[c] ?? NaN;
  }
  return m;
}

export function isMatrix(x: unknown): x is Matrix {
  return (
    typeof x === "object" &&
    x !== null &&
    (x as Matrix).data instanceof Float32Array &&
    typeof (x as Matrix).nRows === "number" &&
    typeof (x as Matrix).nCols === "number"
  );
}

/** Normalises MatrixInput to a Matrix (copies only when given an array of rows). */
export function toMatrix(x: MatrixInput): Matrix {
  if (isMatrix(x)) return x;
  return matrixFromRows(x as readonly Float32Array[]);
}

/** A view of one row (no copy). */
export function getRow(m: Matrix, r: number): Float32Array {
  return m.data.subarray(r * m.nCols, (r + 1) * m.nCols);
}

/** A new matrix with the given rows, in the given order. */
export function selectRows(m: Matrix, rows: ArrayLike<number>): Matrix {
  const out = createMatrix(rows.length, m.nCols);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    out.data.set(m.data.subarray(r * m.nCols, (r + 1) * m.nCols), i * m.nCols);
  }
  return out;
}

/** Values of typed array `a` at the given indices. */
export function selectIndices<T extends Float32Array | Uint8Array | Int32Array | Uint32Array>(
  a: T,
  idx: ArrayLike<number>,
): T {
  const out = new (a.constructor as new (n: number) => T)(idx.length);
  for (let i = 0; i < idx.length; i++) out[i] = a[idx[i]!]!;
  return out;
}

/** Column c as a new Float32Array. */
export function getColumn(m: Matrix, c: number): Float32Array {
  const out = new Float32Array(m.nRows);
  for (let r = 0; r < m.nRows; r++) out[r] = m.data[r * m.nCols + c]!;
  return out;
}

/** Throws a one-line error unless X, y (and optional per-row arrays) agree in length. */
export function checkShapes(X: Matrix, y: ArrayLike<number>, weights?: ArrayLike<number>): void {
  if (y.length !== X.nRows) throw new RangeError(`y has ${y.length} labels for ${X.nRows} rows`);
  if (weights && weights.length !== X.nRows)
    throw new RangeError(`weights has ${weights.length} values for ${X.nRows} rows`);
  if (X.nRows === 0) throw new RangeError("cannot fit on 0 rows");
}
