/**
 * `pith train`'s command line (src/cli/train.ts): options that cannot do what they say are usage
 * errors (exit 2, one line) before any training, and the exit code follows the README's rules.
 */
import assert from "node:assert/strict";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { PITH, pith, syntheticSetFixture, writeSyntheticSet, tempDir } from "./helpers.ts";

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
  assertUsage(
    res,
    /^pith: train: --domain-experiment 50: no domain has at least 75 labeled pages \(1\.5×N\); largest: alpha\.example \(4\), beta\.example \(4\), gamma\.example \(4\)$/,
  );
  assertUsage(
    await pith(["train", "--data", set.dir, "--domain-experiment", "0"]),
    /--domain-experiment expects a whole number of training pages ≥ 1, got "0"/,
  );
});

test("options train would silently ignore are usage errors (exit 2) before anything is read or written", async () => {
  const dir = tempDir("pith-train-cli-");
  const out = join(dir, "m.json");
  const cases: [string[], RegExp][] = [
    [
      ["--domain-experiment", "2", "--model-dir", dir],
      /^pith: train: --domain-experiment does not take --model-dir \(/,
    ],
    [
      ["--domain-experiment", "2", "--out", out, "--folds", "3"],
      /^pith: train: --domain-experiment does not take --out, --folds \(/,
    ],
    [
      ["--baseline", "models/default-static.json", "--out", out],
      /^pith: train: --baseline is the baseline of --domain-experiment/,
    ],
    [
      ["--prepare", "--out", out],
      /^pith: train: --prepare does not take --out \(it only caches feature tables and writes no model\)$/,
    ],
    [
      ["--folds", "1", "--out", out],
      /^pith: train: --folds expects 0 \(no cross-validation\) or a whole number ≥ 2, got "1"$/,
    ],
    [["--folds", "2.5", "--out", out], /--folds expects 0 .* got "2\.5"$/],
    [
      ["--model-dir", dir, "--out", out],
      /^pith: train: --model-dir places a --domain model when --out is not given/,
    ],
    [["--model-dir", dir], /^pith: train: --model-dir places a --domain model when --out is not given/],
    // options another option makes meaningless: the model would be the same without them
    [
      ["--borrow", "--no-types", "--out", out],
      /^pith: train: --borrow does nothing with --no-types: it lends pages to the per-type models, and --no-types trains none$/,
    ],
    [
      ["--borrow", "--domain", "alpha.example", "--out", out],
      /^pith: train: --borrow does nothing with --domain: .*a --domain model has none$/,
    ],
    [
      ["--no-types", "--domain", "alpha.example", "--out", out],
      /^pith: train: --no-types does nothing with --domain: a --domain model is one general model already$/,
    ],
    [
      ["--no-context", "--domain", "alpha.example", "--out", out],
      /^pith: train: --no-context does nothing with --domain: a --domain model has no context stage already$/,
    ],
    [
      ["--no-context", "--folds", "0", "--out", out],
      /^pith: train: --no-context does nothing with --folds 0: the context stage trains on cross-validation scores/,
    ],
    [
      ["--json", "--folds", "0", "--out", out],
      /^pith: train: --json does nothing with --folds 0: it prints the cross-validation report, and --folds 0 makes none$/,
    ],
  ];
  try {
    for (const [args, message] of cases)
      assertUsage(await pith(["train", "--data", set.dir, ...args]), message);
    assertUsage(await pith(["train", "--prepare"]), /^pith: train: --prepare needs --data SETS$/);
    assertUsage(
      await pith(["train", "--prepare", "--data", join(dir, "no-such-set")]),
      /^pith: train: no dataset at /,
    );
    assert.deepEqual(readdirSync(dir), [], "no model was written");
    // each of them where it does something is no error
    const ok = await pith([
      "train",
      "--data",
      set.dir,
      "--borrow",
      "--no-context",
      "--json",
      "--folds",
      "2",
      "--workers",
      "1",
      "--out",
      out,
    ]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(JSON.parse(readFileSync(out, "utf8")).hyperParameters.borrow, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--domain-experiment with --domain runs on that domain only", async () => {
  const res = await pith([
    "train",
    "--data",
    set.dir,
    "--domain-experiment",
    "2",
    "--domain",
    "beta.example",
  ]);
  assert.equal(res.status, 0, res.stderr);
  const rows = res.stdout
    .trim()
    .split("\n")
    .slice(2)
    .map((l) => l.split("|")[1]?.trim());
  assert.deepEqual(rows, ["beta.example", "mean"]);
});

test("train exits 1 when a labeled page was skipped, each an error line, after writing the model; the same when the features come from the cache, and a page whose bytes changed is computed again", async () => {
  const dir = tempDir("pith-train-exit-");
  const data = join(dir, "set");
  const out = join(dir, "m.json");
  try {
    mkdirSync(data);
    writeSyntheticSet(data, ["a.example", "b.example", "c.example", "d.example"], 2);
    rmSync(join(data, "html", "p-0-1.html.gz"));
    const args = ["train", "--data", data, "--out", out, "--folds", "2", "--workers", "1"];
    for (const run of ["computed", "from the cache"]) {
      const res = await pith(args);
      assert.equal(res.status, 1, `${run}: ${res.stderr}`);
      assert.match(res.stderr, /^error\tset\/p-0-1\tfeatures\t.*ENOENT/m, run);
      assert.ok(existsSync(out), `${run}: the model is written`);
      rmSync(out);
    }
    // its HTML garbled with its size and time kept: the cache keys on content, so the page is computed again, not read stale, and fails
    const page = join(data, "html", "p-1-0.html.gz");
    const { atime, mtime } = statSync(page);
    const bytes = readFileSync(page);
    bytes.fill(0x41, 10, bytes.length - 8);
    writeFileSync(page, bytes);
    utimesSync(page, atime, mtime);
    const res = await pith(args);
    assert.equal(res.status, 1, res.stderr);
    assert.match(res.stderr, /^error\tset\/p-1-0\tfeatures\t/m);
    assert.equal(res.stderr.match(/^error\t/gm)?.length, 2, res.stderr);
    // a model of one domain: the other domains' skipped pages are not its failures
    const domain = await pith([
      "train",
      "--data",
      data,
      "--domain",
      "c.example",
      "--out",
      out,
      "--workers",
      "1",
    ]);
    assert.equal(domain.status, 0, domain.stderr);
    assert.doesNotMatch(domain.stderr, /^error\t/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a set too small for every classifier trains what it can: no segment classifier from a few tiny pages, a clear error when no leaf is left (no stack trace)", async () => {
  const dir = tempDir("pith-train-tiny-");
  const tiny = join(dir, "tiny");
  cpSync(new URL("./fixtures/evaluate/tiny", import.meta.url).pathname, tiny, { recursive: true });
  const out = join(dir, "m.json");
  rmSync(join(tiny, "html", "t-2.html.gz")); // two pages left, one with empty gold: "cannot fit on 0 rows" and a stack trace before
  const res = await pith(["train", "--data", tiny, "--folds", "0", "--out", out]);
  assert.equal(res.status, 1, res.stderr);
  assert.match(
    res.stderr,
    /segment classifier: no structural node sampled from so few pages; the model has none/,
  );
  assert.match(res.stderr, /^error\ttiny\/t-2\tfeatures\t/m);
  assert.ok(existsSync(out));
  writeFileSync(join(tiny, "gold", "t-1.txt"), "");
  const none = await pith(["train", "--data", tiny, "--folds", "0", "--out", join(dir, "n.json")]);
  assert.equal(none.status, 2, none.stderr);
  assert.doesNotMatch(none.stderr, /\n\s+at /, "no stack trace");
});

test("pith train on a terminal ends and gives the cursor back whether its features are computed or come from the cache", async () => {
  const dir = tempDir("pith-train-tty-");
  const data = join(dir, "set");
  mkdirSync(data);
  writeSyntheticSet(data, ["a.example", "b.example", "c.example", "d.example"], 2);
  const out = join(dir, "m.json");
  const command = `node ${PITH} train --data ${data} --out ${out} --folds 2 --workers 1`;
  for (const run of ["computed", "from the cache"]) {
    // util-linux `script` gives the command a pseudo-terminal, so the progress bar is drawn
    const res = spawnSync("script", ["-qec", command, "/dev/null"], {
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, CI: "" },
    });
    assert.equal(res.error, undefined, `${run}: ${res.error?.message} (the process did not end)`);
    assert.equal(res.status, 0, `${run}: ${res.stdout}`);
    assert.match(res.stdout, /wrote .*m\.json/, run);
    // a hidden cursor (ESC[?25l) is shown again (ESC[?25h) before the end
    const hidden = res.stdout.lastIndexOf("\x1b[?25l");
    assert.ok(hidden < res.stdout.lastIndexOf("\x1b[?25h") || hidden < 0, `${run}: the cursor is given back`);
    rmSync(out);
  }
});
