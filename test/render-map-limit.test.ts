import assert from "node:assert/strict";
import test from "node:test";
import { mapLimit } from "../src/render/index.ts";

test("mapLimit: results in input order although they finish out of order, never more than `limit` in flight", async () => {
  const delays = [30, 5, 20, 1, 10, 2];
  let inFlight = 0;
  let maxInFlight = 0;
  const seen: number[] = [];
  await mapLimit(
    delays.map((d, i) => ({ d, i })),
    2,
    async ({ d, i }) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, d));
      inFlight--;
      return i;
    },
    (i) => seen.push(i),
  );
  assert.deepEqual(seen, [0, 1, 2, 3, 4, 5]);
  assert.equal(maxInFlight, 2);
});
