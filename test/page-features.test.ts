import assert from "node:assert/strict";
import test from "node:test";
import { createRng } from "../src/ml/prng.ts";
import { pageFeatureCount, pageFeatures } from "../src/pipeline/page-features.ts";
import type { Ownership } from "../src/pipeline/own-text.ts";

/** The definition: per column, the mean of the non-NaN cells of word-bearing rows weighted by their words, one add a cell. */
function reference(values: Float32Array, nCols: number, own: Ownership): Float32Array {
  const out = new Float32Array(pageFeatureCount(nCols));
  const wsum = new Float64Array(nCols);
  const sum = new Float64Array(nCols);
  let leaves = 0;
  let maxWords = 0;
  own.ownWords.forEach((w, r) => {
    if (w <= 0) return;
    leaves++;
    maxWords = Math.max(maxWords, w);
    for (let c = 0; c < nCols; c++) {
      const v = values[r * nCols + c] as number;
      if (Number.isNaN(v)) continue;
      sum[c] = (sum[c] as number) + w * v;
      wsum[c] = (wsum[c] as number) + w;
    }
  });
  for (let c = 0; c < nCols; c++)
    out[c] = (wsum[c] as number) > 0 ? (sum[c] as number) / (wsum[c] as number) : NaN;
  out[nCols] = Math.log1p(own.totalWords);
  out[nCols + 1] = Math.log1p(own.ownWords.length);
  out[nCols + 2] = Math.log1p(leaves);
  out[nCols + 3] = own.totalWords > 0 ? maxWords / own.totalWords : 0;
  return out;
}

test("pageFeatures equals the per-cell weighted mean bit for bit (NaN cells, rows without words, large word counts)", () => {
  const rng = createRng(3);
  for (let t = 0; t < 300; t++) {
    const rows = rng.int(40);
    const nCols = 1 + rng.int(12);
    const values = new Float32Array(rows * nCols);
    for (let k = 0; k < values.length; k++)
      values[k] = rng.int(4) === 0 ? NaN : (rng.next() - 0.3) * 10 ** rng.int(6);
    const ownWords = new Int32Array(rows);
    for (let r = 0; r < rows; r++)
      ownWords[r] = rng.int(3) === 0 ? 0 : 1 + rng.int(rng.int(2) ? 5 : 2_000_000);
    const totalWords = ownWords.reduce((a, b) => a + b, 0) + rng.int(10);
    const own = { ownWords, totalWords } as Ownership;
    const got = pageFeatures(values, nCols, own);
    const want = reference(values, nCols, own);
    assert.deepEqual(Buffer.from(got.buffer), Buffer.from(want.buffer), `case ${t}`);
  }
});
