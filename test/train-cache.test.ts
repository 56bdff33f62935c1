/** The training cache (src/train/cache.ts): a data file that does not match its header, or a set whose files changed, is rebuilt, never read stale. */
import assert from "node:assert/strict";
import { appendFileSync, cpSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { test } from "node:test";
import { cacheDir, loadRecords } from "../src/train/cache.ts";
import { moduleClosure } from "../src/train/cache-dir.ts";
import { PITH_ROOT } from "../src/paths.ts";
import { syntheticSetFixture, tempDir } from "./helpers.ts";

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
  assert.deepEqual(
    again.map((r) => [r.id, Array.from(r.values)]),
    first.map((r) => [r.id, Array.from(r.values)]),
  );
  const bin = binFile();
  const size = statSync(bin).size;
  appendFileSync(bin, Buffer.alloc(4 * 7)); // as if rows of another width had been written
  const rebuilt = await loadRecords(set.dir, { workers: 1, onPage: () => computed++ });
  assert.equal(computed, 12, "a data file that does not match its header is recomputed");
  assert.equal(statSync(bin).size, size);
  assert.deepEqual(
    rebuilt.map((r) => [r.id, Array.from(r.values)]),
    first.map((r) => [r.id, Array.from(r.values)]),
  );
});

test("an edited gold text is recomputed, not read stale; a copy of the set in another folder of the same name is its own cache", async () => {
  let computed = 0;
  const before = await loadRecords(set.dir, { workers: 1, onPage: () => computed++ });
  computed = 0;
  const first = before[0] as (typeof before)[number];
  const goldPath = join(set.dir, "gold", `${first.id}.txt`);
  writeFileSync(goldPath, "");
  const after = await loadRecords(set.dir, { workers: 1, onPage: () => computed++ });
  assert.equal(computed, 6, "the set is recomputed after its gold changed");
  assert.equal(
    (after.find((r) => r.id === first.id) as (typeof after)[number]).goldWords,
    0,
    "the emptied gold is read",
  );
  const copy = join(tempDir("pith-cache-copy-"), basename(set.dir));
  cpSync(set.dir, copy, { recursive: true });
  writeFileSync(join(copy, "gold", `${first.id}.txt`), "Words of another gold text.");
  computed = 0;
  const other = await loadRecords(copy, { workers: 1, onPage: () => computed++ });
  assert.equal(computed, 6, "the copy is computed, not read from the original's cache");
  assert.ok((other.find((r) => r.id === first.id) as (typeof other)[number]).goldWords > 0);
  computed = 0;
  await loadRecords(set.dir, { workers: 1, onPage: () => computed++ });
  assert.equal(computed, 0, "the original's cache survived the copy's");
  rmSync(dirname(copy), { recursive: true, force: true });
});

test("a set whose files were written again with the same bytes (new mtimes, as a data folder provisioned anew) is read from the cache", async () => {
  let computed = 0;
  await loadRecords(set.dir, { workers: 1, onPage: () => computed++ });
  computed = 0;
  const later = new Date(Date.now() + 60_000);
  for (const folder of ["html", "gold"])
    for (const f of readdirSync(join(set.dir, folder))) utimesSync(join(set.dir, folder, f), later, later);
  utimesSync(join(set.dir, "index.jsonl"), later, later);
  await loadRecords(set.dir, { workers: 1, onPage: () => computed++ });
  assert.equal(computed, 0, "the same bytes keep their cache");
});

test("the cache keys on the code that makes a record and all it imports, so a stale cache is never read after an edit there; classifier code is not part of it", () => {
  const dir = tempDir("pith-closure-");
  writeFileSync(
    join(dir, "a.ts"),
    `// see "./commented.ts"\nimport type { T } from "./types-only.ts";\nimport { b } from "./b.ts";\nexport const a = b;\n`,
  );
  writeFileSync(
    join(dir, "b.ts"),
    `import { c } from "../up/c.ts";\nexport const b = c; // not "./trailing.ts"\n`,
  );
  const closure = moduleClosure([join(dir, "a.ts")])
    .map((p) => relative(dir, p))
    .sort();
  assert.deepEqual(
    closure,
    ["../up/c.ts", "a.ts", "b.ts"],
    "value imports, transitively (a missing file is still named, so it counts once it exists); not comments or type-only imports",
  );
  const record = moduleClosure([join(PITH_ROOT, "src/train/page-record.ts")]).map((p) =>
    relative(PITH_ROOT, p),
  );
  // the first four were missing from the hand-kept list this replaced: an edit there left an older cache valid
  for (const f of [
    "src/features/text.ts",
    "src/features/dom.ts",
    "src/pipeline/own-text.ts",
    "src/pipeline/rules/dedupe.ts",
    "src/render/static.ts",
    "src/train/labels.ts",
  ])
    assert.ok(record.includes(f), `${f} is part of a record's code`);
  for (const f of ["src/ml/gbdt.ts", "src/train/cv.ts", "src/train/fit.ts", "src/pipeline/run.ts"])
    assert.ok(!record.includes(f), `${f} does not make records: editing it must not recompute them`);
});
