import assert from "node:assert/strict";
import test from "node:test";
import { ranks } from "../src/features/cnr.ts";
import { createRng } from "../src/ml/prng.ts";

/** The definition: row indices sorted by value, each run of equal values at the mean of its positions over m - 1. */
function reference(vals: Float64Array): Float64Array {
  const m = vals.length;
  const order = Array.from({ length: m }, (_, r) => r).sort(
    (a, b) => (vals[a] as number) - (vals[b] as number),
  );
  const rank = new Float64Array(m);
  for (let k = 0; k < m;) {
    let e = k;
    while (e + 1 < m && vals[order[e + 1] as number] === vals[order[k] as number]) e++;
    for (let t = k; t <= e; t++) rank[order[t] as number] = m > 1 ? (k + e) / 2 / (m - 1) : 1;
    k = e + 1;
  }
  return rank;
}

test("cnr ranks equal the comparator sort's tie-averaged ranks bit for bit (ties, zeros, one value, none)", () => {
  const rng = createRng(11);
  for (let t = 0; t < 500; t++) {
    const m = rng.int(t < 10 ? 3 : 300);
    const distinct = 1 + rng.int(rng.int(2) ? 4 : 1000);
    const vals = new Float64Array(m);
    for (let r = 0; r < m; r++) vals[r] = Math.fround(rng.int(distinct) / (1 + rng.int(3)));
    assert.deepEqual(Buffer.from(ranks(vals).buffer), Buffer.from(reference(vals).buffer), `case ${t}`);
  }
});
