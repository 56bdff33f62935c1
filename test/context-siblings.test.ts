import assert from "node:assert/strict";
import test from "node:test";
import { sameTagSiblings } from "../src/features/context.ts";
import { createRng } from "../src/ml/prng.ts";

test("sameTagSiblings counts the other rows of a row's group with its tag, as counting by (group, tag) does", () => {
  const rng = createRng(5);
  for (let t = 0; t < 300; t++) {
    const m = rng.int(120);
    const groups = 1 + rng.int(10);
    const tags = 1 + rng.int(6);
    const group = Array.from({ length: m }, () => rng.int(groups));
    const tagOf = Int32Array.from({ length: m }, () => rng.int(tags));
    // the chains siblings() builds: prev (-1 at a group's first row) and the next row of the same group
    const prev = new Int32Array(m).fill(-1);
    const nextRow = new Int32Array(m).fill(-1);
    const last = new Map<number, number>();
    group.forEach((g, r) => {
      const before = last.get(g);
      if (before !== undefined) {
        prev[r] = 1000 + before; // a node index in siblings(): only its sign is read
        nextRow[before] = r;
      }
      last.set(g, r);
    });
    const byKey = new Map<string, number>();
    group.forEach((g, r) => byKey.set(`${g} ${tagOf[r]}`, (byKey.get(`${g} ${tagOf[r]}`) ?? 0) + 1));
    const want = group.map((g, r) => (byKey.get(`${g} ${tagOf[r]}`) as number) - 1);
    assert.deepEqual([...sameTagSiblings(prev, nextRow, tagOf, tags)], want, `case ${t}`);
  }
});
