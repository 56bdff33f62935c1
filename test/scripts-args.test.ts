/**
 * The npm scripts (train:default, bench:*, cache:prune, check:markdown) answer --help and refuse
 * bad options with a one-line error and exit 2, before doing any work (scripts/args.ts).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

const SCRIPTS = [
  "train-default",
  "bench-extract",
  "bench-render",
  "bench-features",
  "bench-pathological",
  "bench-ml",
  "bench-startup",
  "prune-cache",
  "check-markdown",
];

function run(script: string, args: string[]) {
  const url = new URL(`../scripts/${script}.ts`, import.meta.url);
  return spawnSync(process.execPath, ["--import", "tsx", url.pathname, ...args], {
    encoding: "utf8",
    timeout: 60_000,
  });
}

test("every script prints its usage on --help and exits 0", () => {
  for (const script of SCRIPTS) {
    const r = run(script, ["--help"]);
    assert.equal(r.status, 0, `${script}: ${r.stderr}`);
    assert.match(r.stdout, /^Usage: /, script);
  }
});

test("an unknown option is a usage error (exit 2, one error line, then the usage)", () => {
  for (const script of SCRIPTS) {
    const r = run(script, ["--no-such-option"]);
    assert.equal(r.status, 2, script);
    assert.match(r.stderr, /^error: Unknown option '--no-such-option'\n\nUsage: /, script);
    assert.equal(r.stdout, "", script);
  }
});

test("a number option that is not a whole number in range is refused before any work", () => {
  const cases: Array<[string, string[], RegExp]> = [
    ["train-default", ["--folds", "1"], /--folds must be a whole number ≥ 2, not "1"/],
    ["train-default", ["--seed", "x"], /--seed must be a whole number ≥ 0, not "x"/],
    ["train-default", ["--mode", "gpu"], /--mode must be static or chromium, not "gpu"/],
    ["bench-extract", ["--pages", "ten"], /--pages must be a whole number ≥ 1, not "ten"/],
    ["bench-render", ["--timeout-ms", "0"], /--timeout-ms must be a whole number ≥ 1, not "0"/],
    ["check-markdown", ["--mode", "gpu"], /--mode must be static or chromium, not "gpu"/],
  ];
  for (const [script, args, message] of cases) {
    const r = run(script, args);
    assert.equal(r.status, 2, `${script} ${args.join(" ")}`);
    assert.match(r.stderr.split("\n")[0] ?? "", message);
  }
});

test("check:markdown on a small dataset: every page's Markdown, rendered, says what its text says (exit 0)", () => {
  const tiny = new URL("./fixtures/evaluate/tiny", import.meta.url).pathname;
  const r = run("check-markdown", ["--sets", tiny]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^tiny: 0 of [1-9]\d* pages differ$/m);
});
