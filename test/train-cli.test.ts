/**
 * `pith train`'s command line (src/cli/train.ts): options that cannot do what they say are usage
 * errors (exit 2, one line) before any training, and the exit code follows the README's rules.
 */
import assert from "node:assert/strict";
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
