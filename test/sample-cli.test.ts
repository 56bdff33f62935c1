/**
 * The shipped sample set works by name out of the box, as the README's examples use it: no
 * PITH_DATA, run from a folder with no sets of its own (a fresh clone has no ../shared either).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fixturePath, pith, tempDir } from "./helpers.ts";

delete process.env["PITH_DATA"];
process.env["PITH_CACHE"] = tempDir("pith-sample-cache-");
const cwd = tempDir("pith-sample-cwd-");

test("pith evaluate --method ml --data sample prints the figures of the 21 pages (exit 0)", async () => {
  const res = await pith(["evaluate", "--method", "ml", "--data", "sample"], undefined, cwd);
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /^## sample \(21 pages\)$/m);
  const all = /^\| all \| ml \| 21 \| [\d.]+ \| [\d.]+ \| \*\*([\d.]+)\*\* \|/m.exec(res.stdout);
  assert.ok(all, res.stdout);
  assert.ok(Number(all[1]) > 0.5, `word F1 ${all[1]}`);
  for (const type of ["article", "forum", "product", "listing", "documentation", "service"])
    assert.match(res.stdout, new RegExp(`^\\| ${type} \\| ml \\| \\d+ \\|`, "m"));
  assert.match(res.stderr, /evaluated 21 page\(s\) × 1 method\(s\) in [\d.]+ s, 0 failure\(s\)/);
});

test("pith train --data sample --folds 2 (no context stage, to keep it quick) writes a model that pith extract --model loads", async () => {
  const out = join(tempDir("pith-sample-model-"), "m.json");
  const res = await pith(
    ["train", "--data", "sample", "--folds", "2", "--no-context", "--out", out],
    undefined,
    cwd,
  );
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout + res.stderr, /cross-validation: 2 site-grouped folds, 21 pages, 10 sites/);
  assert.ok(existsSync(out));
  const model = JSON.parse(readFileSync(out, "utf8")) as {
    trainingSets?: { name: string; license: string }[];
  };
  assert.deepEqual(
    model.trainingSets?.map((s) => s.name),
    ["sample"],
  );
  const ex = await pith(["extract", "--model", out, fixturePath("pages/article.html")], undefined, cwd);
  assert.equal(ex.status, 0, ex.stderr);
  assert.ok(ex.stdout.trim().length > 0, "extracted some text");
  assert.match(ex.stderr, /models: m \(explicit\)/);
});

test("pith features sample writes labeled rows for every page", async () => {
  const out = join(tempDir("pith-sample-features-"), "f.jsonl");
  const res = await pith(["features", "sample", "--out", out], undefined, cwd);
  assert.equal(res.status, 0, res.stderr);
  const rows = readFileSync(out, "utf8").trim().split("\n");
  const first = JSON.parse(rows[0] as string) as Record<string, unknown>;
  assert.equal(first["dataset"], "sample");
  assert.ok("main" in first && "gold_share" in first, Object.keys(first).slice(0, 8).join(","));
  assert.equal(new Set(rows.map((r) => (JSON.parse(r) as { page: string }).page)).size, 21);
});
