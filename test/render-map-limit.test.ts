import assert from "node:assert/strict";
import test from "node:test";
import { MAX_PENDING_OUTPUTS, mapLimit } from "../src/render/index.ts";

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
    (i) => {
      seen.push(i);
    },
  );
  assert.deepEqual(seen, [0, 1, 2, 3, 4, 5]);
  assert.equal(maxInFlight, 2);
});

test("mapLimit: slow outputs hold back new items (bounded memory), and a failed output rejects the map", async () => {
  let started = 0;
  let written = 0;
  let maxAhead = 0;
  await mapLimit(
    Array.from({ length: 100 }, (_, i) => i),
    2,
    async (i) => {
      started++;
      maxAhead = Math.max(maxAhead, started - written);
      return i;
    },
    async () => {
      await new Promise((r) => setTimeout(r, 1));
      written++;
    },
  );
  assert.equal(written, 100);
  assert.ok(maxAhead <= MAX_PENDING_OUTPUTS + 3, `items started ahead of their output: ${maxAhead}`);
  await assert.rejects(
    mapLimit(
      [1, 2, 3],
      1,
      async (i) => i,
      async (i) => {
        if (i === 2) throw new Error("disk full");
      },
    ),
    /disk full/,
  );
});
