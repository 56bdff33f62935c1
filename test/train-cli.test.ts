/**
 * `pith train`'s command line (src/cli/train.ts): options that cannot do what they say are usage
 * errors (exit 2, one line) before any training, and the exit code follows the README's rules.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { pith, syntheticSetFixture } from "./helpers.ts";

const SITES = ["alpha.example", "beta.example", "gamma.example"];
const PAGES_PER_SITE = 4;
const set = syntheticSetFixture("train-cli", SITES, PAGES_PER_SITE);

/** A usage error: exit 2, one line on stderr matching `message`, nothing on stdout. */
function assertUsage(res: { status: number | null; stdout: string; stderr: string }, message: RegExp): void {
  assert.equal(res.status, 2, res.stderr);
  assert.equal(res.stderr.trim().split("\n").length, 1, res.stderr);
  assert.match(res.stderr.trim(), message);
  assert.equal(res.stdout, "");
}

test("--domain-experiment N with no domain of 1.5N pages says so and names the largest domains (exit 2), not an empty table", async () => {
  const res = await pith(["train", "--data", set.dir, "--domain-experiment", "50"]);
  assertUsage(res, /^pith: train: --domain-experiment 50: no domain has at least 75 labeled pages \(1\.5×N\); largest: alpha\.example \(4\), beta\.example \(4\), gamma\.example \(4\)$/);
  assertUsage(await pith(["train", "--data", set.dir, "--domain-experiment", "0"]), /--domain-experiment expects a whole number of training pages ≥ 1, got "0"/);
});

test("options train would silently ignore are usage errors (exit 2) before anything is read or written", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pith-train-cli-"));
  const out = join(dir, "m.json");
  const cases: [string[], RegExp][] = [
    [["--domain-experiment", "2", "--model-dir", dir], /^pith: train: --domain-experiment does not take --model-dir \(/],
    [["--domain-experiment", "2", "--out", out, "--folds", "3"], /^pith: train: --domain-experiment does not take --out, --folds \(/],
    [["--baseline", "models/default-static.json", "--out", out], /^pith: train: --baseline is the baseline of --domain-experiment/],
    [["--prepare", "--out", out], /^pith: train: --prepare does not take --out \(it only caches feature tables and writes no model\)$/],
    [["--folds", "1", "--out", out], /^pith: train: --folds expects 0 \(no cross-validation\) or a whole number ≥ 2, got "1"$/],
    [["--folds", "2.5", "--out", out], /--folds expects 0 .* got "2\.5"$/],
    [["--model-dir", dir, "--out", out], /^pith: train: --model-dir places a --domain model when --out is not given/],
    [["--model-dir", dir], /^pith: train: --model-dir places a --domain model when --out is not given/],
  ];
  try {
    for (const [args, message] of cases) assertUsage(await pith(["train", "--data", set.dir, ...args]), message);
    assertUsage(await pith(["train", "--prepare"]), /^pith: train: --prepare needs --data SETS$/);
    assertUsage(await pith(["train", "--prepare", "--data", join(dir, "no-such-set")]), /^pith: train: no dataset at /);
    assert.deepEqual(readdirSync(dir), [], "no model was written");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--domain-experiment with --domain runs on that domain only", async () => {
  const res = await pith(["train", "--data", set.dir, "--domain-experiment", "2", "--domain", "beta.example"]);
  assert.equal(res.status, 0, res.stderr);
  const rows = res.stdout.trim().split("\n").slice(2).map((l) => l.split("|")[1]?.trim());
  assert.deepEqual(rows, ["beta.example", "mean"]);
});
