/** The training cache (src/train/cache.ts): a data file that does not match its header is rebuilt, never read as rows. */
import assert from "node:assert/strict";
import { appendFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cacheDir, loadRecords } from "../src/train/cache.ts";
import { syntheticSetFixture } from "./helpers.ts";

const set = syntheticSetFixture("cache", ["a.example", "b.example"], 3);

/** The cache's .bin file of the synthetic set (one schema folder, static mode). */
function binFile(): string {
  const [schema] = readdirSync(cacheDir());
  const dir = join(cacheDir(), schema as string, "static");
  const bin = readdirSync(dir).find((f) => f.endsWith(".bin"));
  assert.ok(bin, "the set was cached");
  return join(dir, bin);
}

test("a cached set is read back as it was computed; one whose data file grew is recomputed", async () => {
  let computed = 0;
  const first = await loadRecords(set.dir, { workers: 1, onPage: () => computed++ });
  assert.equal(computed, 6);
  const again = await loadRecords(set.dir, { workers: 1, onPage: () => computed++ });
  assert.equal(computed, 6, "the second load reads the cache");
  assert.deepEqual(again.map((r) => [r.id, Array.from(r.values)]), first.map((r) => [r.id, Array.from(r.values)]));
  const bin = binFile();
  const size = statSync(bin).size;
  appendFileSync(bin, Buffer.alloc(4 * 7)); // as if rows of another width had been written
  const rebuilt = await loadRecords(set.dir, { workers: 1, onPage: () => computed++ });
  assert.equal(computed, 12, "a data file that does not match its header is recomputed");
  assert.equal(statSync(bin).size, size);
  assert.deepEqual(rebuilt.map((r) => [r.id, Array.from(r.values)]), first.map((r) => [r.id, Array.from(r.values)]));
});
