/**
 * `pith extract --method louvan` (src/pipeline/louvan.ts) and its model's recipe, `pith train
 * --recipe louvan` (src/train/recipes.ts): the recipe trains random forests on a tiny set and the
 * model loads in extract; the method gives text on article pages, runs LBS on an article and TP
 * on a forum page (the bundled model routes them), and a set without gold is a one-line error.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { pith, tempDir } from "./helpers.ts";

process.env["PITH_CACHE"] = tempDir("pith-louvan-cache-");
const SAMPLE = new URL("../data/sample/", import.meta.url).pathname;
const ARTICLES = ["wx-0368", "wx-4180", "wx-4558", "wx-4014", "wx-4603", "wx-0214", "wx-4661"];
const FORUM = "wx-4309";
const html = (id: string): string => join(SAMPLE, "html", `${id}.html.gz`);
const model = join(tempDir("pith-louvan-model-"), "louvan.json");
let report: {
  refiners: Record<string, string>;
  segmentBlend: number;
  endToEnd: Record<string, Record<string, { f1: number }>>;
};

interface PageJson {
  id: string;
  method: string;
  text: string;
  model: string;
  trace: { step: string; action: string }[];
}

function pages(stdout: string): PageJson[] {
  return stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as PageJson);
}

before(async () => {
  const res = await pith([
    "train",
    "--recipe",
    "louvan",
    "--data",
    SAMPLE,
    "--folds",
    "2",
    "--json",
    "--out",
    model,
  ]);
  assert.equal(res.status, 0, res.stderr);
  report = JSON.parse(res.stdout) as typeof report;
});

test("the recipe trains random forests with the paper's choices fixed, and its CV's shipped column is the louvan variant", () => {
  const artifact = JSON.parse(readFileSync(model, "utf8")) as {
    classifiers: Record<string, { kind: string }>;
    hyperParameters: Record<string, unknown>;
    extra: { refiners: Record<string, string>; segmentBlend: number; context?: unknown };
  };
  assert.equal(artifact.classifiers["content"]?.kind, "rf");
  assert.equal(artifact.classifiers["segment"]?.kind, "rf");
  assert.equal(artifact.hyperParameters["recipe"], "louvan");
  assert.equal(artifact.extra.context, undefined);
  assert.equal(artifact.extra.segmentBlend, 1);
  assert.equal(artifact.extra.refiners["forum"], "tp");
  assert.equal(artifact.extra.refiners["article"], "lbs");
  assert.equal(artifact.extra.refiners["general"], "lbs");
  assert.deepEqual(report.refiners, artifact.extra.refiners);
  assert.equal(report.endToEnd["shipped"]?.["all"]?.f1, report.endToEnd["louvan"]?.["all"]?.f1);
  for (const v of ["classifiers-only", "sls", "no-segments", "with-rules"]) assert.ok(report.endToEnd[v]);
});

test("the trained model loads in pith extract --method louvan, which gives text on every article page", async () => {
  const res = await pith([
    "extract",
    "--method",
    "louvan",
    "--model",
    model,
    "--format",
    "json",
    "--workers",
    "0",
    ...ARTICLES.map(html),
  ]);
  assert.equal(res.status, 0, res.stderr);
  const out = pages(res.stdout);
  assert.equal(out.length, ARTICLES.length);
  for (const p of out) {
    assert.equal(p.method, "louvan");
    assert.match(p.model, /^louvan \(explicit, /);
    assert.ok(p.text.split(/\s+/).length > 50, `${p.id}: ${p.text.slice(0, 200)}`);
  }
});

test("with the bundled model a forum page goes through Table Pattern and an article through LBS, without pith's rules", async () => {
  const res = await pith([
    "extract",
    "--method",
    "louvan",
    "--format",
    "json",
    html(FORUM),
    html(ARTICLES[0]!),
  ]);
  assert.equal(res.status, 0, res.stderr);
  const [forum, article] = pages(res.stdout);
  assert.match(forum!.model, /^louvan-static \(default, forum model\)$/);
  const steps = (p: PageJson) => new Set(p.trace.map((e) => e.step));
  assert.ok(steps(forum!).has("tp"), [...steps(forum!)].join(", "));
  assert.ok(!steps(forum!).has("lbs"));
  assert.ok(steps(article!).has("lbs"), [...steps(article!)].join(", "));
  for (const p of [forum!, article!]) {
    assert.ok(p.text.length > 200, p.text);
    for (const rule of ["fallback", "duplicates", "consent", "line-gaps"])
      assert.ok(!steps(p).has(rule), rule);
  }
  const sls = await pith([
    "extract",
    "--method",
    "louvan",
    "--format",
    "json",
    "--param",
    "refiner=sls",
    html(ARTICLES[0]!),
  ]);
  assert.equal(sls.status, 0, sls.stderr);
  const steps2 = new Set(pages(sls.stdout)[0]!.trace.map((e) => e.step));
  assert.ok(!steps2.has("lbs") && steps2.has("sls"), [...steps2].join(", "));
});

test("bad input: a set without gold, an unknown recipe, a flag the recipe sets, a bad refiner: one line, exit 2", async () => {
  const dir = tempDir("pith-louvan-nogold-");
  mkdirSync(join(dir, "html"));
  const index = readFileSync(join(SAMPLE, "index.jsonl"), "utf8").split("\n").slice(0, 2).join("\n") + "\n";
  writeFileSync(join(dir, "index.jsonl"), index);
  for (const id of ARTICLES.slice(0, 2)) copyFileSync(html(id), join(dir, "html", `${id}.html.gz`));
  const out = join(dir, "m.json");
  const cases: [string[], RegExp][] = [
    [
      ["train", "--recipe", "louvan", "--data", dir, "--out", out],
      /^pith: train: dataset ".*" has no gold\/ folder/,
    ],
    [
      ["train", "--recipe", "nope", "--data", dir, "--out", out],
      /^pith: train: --recipe must be one of louvan, not "nope"$/,
    ],
    [
      ["train", "--recipe", "louvan", "--model", "gbdt", "--data", dir, "--out", out],
      /^pith: train: --model does nothing with --recipe louvan, which sets it itself$/,
    ],
    [
      ["extract", "--method", "louvan", "--param", "refiner=tp", html(FORUM)],
      /--param refiner must be lbs, sls, none \(forums keep TP\), not "tp"/,
    ],
  ];
  for (const [args, message] of cases) {
    const res = await pith(args);
    assert.equal(res.status, 2, `${args.join(" ")}: ${res.stderr}`);
    assert.equal(res.stderr.trim().split("\n").length, 1, res.stderr);
    assert.match(res.stderr.trim(), message);
    assert.doesNotMatch(res.stderr, /\n\s+at /);
  }
});
