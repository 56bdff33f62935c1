// `npm run compare:models` (scripts/compare-models.ts, src/train/compare.ts) end to end on
// data/sample with --quick settings: every kind cross-validated on the same folds, one table.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { samplePerSet, type Comparison } from "../src/train/compare.ts";
import type { PageRecord } from "../src/train/page-record.ts";
import { tempDir } from "./helpers.ts";

const run = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/compare-models.ts", ...args], {
    encoding: "utf8",
  });

describe("compare:models", () => {
  it("cross-validates gbdt, rf, ml-rf, mlp, seq and their gbdt+seq mean on the same folds of data/sample", () => {
    const dir = tempDir("pith-compare-");
    const json = join(dir, "compare.json");
    const res = run("--sets", "data/sample", "--quick", "--folds", "2", "--workers", "1", "--json", json);
    assert.equal(res.status, 0, res.stderr.slice(-500));
    const lines = res.stdout.split("\n");
    assert.match(
      res.stdout,
      /\| word F1, held out \(pages\) \| gbdt \| rf \| ml-rf \(200 rows\) \| mlp \| seq \| gbdt\+seq \|/,
    );
    for (const row of ["all (21)", "sample (21)", "type article (7)", "fit, CPU s per fold", "model, KB"]) {
      const line = lines.find((l) => l.startsWith(`| ${row} |`));
      assert.ok(line, `no row ${row}`);
      assert.equal(line.split("|").length, 9, line);
      assert.doesNotMatch(line, /–/, `${row} has an empty cell`);
    }
    const c = JSON.parse(readFileSync(json, "utf8")) as Comparison;
    assert.deepEqual(
      c.results.map((r) => r.kind),
      ["gbdt", "rf", "ml-rf", "mlp", "seq", "gbdt+seq"],
    );
    // each kind's paired per-page gain over gbdt on the same pages
    const paired = lines.find((l) => l.startsWith("| paired gain over gbdt ± s.e., seed 42 |"));
    assert.ok(paired, "no paired row");
    assert.match(paired, /^\| [^|]+ \| – \|( [+−]\d\.\d{3} ± \d\.\d{3} \|){5}$/);
    // the mean's fit and size are its members' together
    const of = (k: string) => c.results.find((r) => r.kind === k)!;
    assert.ok(Math.abs(of("gbdt+seq").fitSeconds - of("gbdt").fitSeconds - of("seq").fitSeconds) < 1e-9);
    assert.ok(of("gbdt+seq").modelBytes > of("gbdt").modelBytes + of("seq").modelBytes);
    for (const r of c.results) {
      assert.equal(r.f1["all"]?.pages, 21, r.kind);
      assert.ok(r.f1["all"]!.f1 > 0.3 && r.f1["all"]!.f1 <= 1, `${r.kind} F1 ${r.f1["all"]!.f1}`);
      assert.ok(r.modelBytes > 0 && r.inferMs > 0, r.kind);
    }
    // the --json of a run prints the same table again, and refuses a run on other folds
    const again = run("--from-json", json);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.stdout, res.stdout);
    const other = join(dir, "other.json");
    writeFileSync(other, JSON.stringify({ ...c, folds: 3 }));
    const refused = run("--from-json", `${json},${other}`);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /^error: cannot merge comparisons of other pages or folds/);
  });

  it("--max-pages keeps the same seeded sample of at most N pages of each set, in order", () => {
    const records = [
      ...Array.from({ length: 30 }, (_, i) => ({ dataset: "a", id: `a${i}` })),
      ...Array.from({ length: 5 }, (_, i) => ({ dataset: "b", id: `b${i}` })),
    ] as PageRecord[];
    const kept = samplePerSet(records, 10);
    assert.equal(kept.filter((r) => r.dataset === "a").length, 10);
    assert.equal(kept.filter((r) => r.dataset === "b").length, 5);
    assert.deepEqual(
      kept,
      [...kept].sort((x, y) => records.indexOf(x) - records.indexOf(y)),
    );
    assert.deepEqual(samplePerSet(records, 10), kept);
    assert.notDeepEqual(
      kept.filter((r) => r.dataset === "a").map((r) => r.id),
      records.slice(0, 10).map((r) => r.id),
    );
  });

  it("refuses an unknown kind with a one-line error and exit code 2", () => {
    const res = run("--kinds", "gbdt,forest");
    assert.equal(res.status, 2);
    assert.match(res.stderr, /^error: --kinds: unknown kind "forest"/);
    const alone = run("--kinds", "seq,gbdt+seq");
    assert.equal(alone.status, 2);
    assert.match(alone.stderr, /^error: --kinds: gbdt\+seq needs gbdt and seq before it/);
  });
});
