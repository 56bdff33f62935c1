/** `pith predict`: one row per structural node, in agreement with what `pith extract` decides. */
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import { fixturePath, pith, tempDir } from "./helpers.ts";

const ARTICLE = fixturePath("pages/article.html");
const BBC = new URL("./pages/article-big9-bbc-technology-2017/source.html", import.meta.url).pathname;

interface Row {
  page: string;
  node: number;
  path: string;
  tag: string;
  pageType: string;
  segment: number | null;
  content: number | null;
  threshold: number;
  label: 0 | 1 | null;
  words: number;
}

function rowsOf(jsonl: string): Row[] {
  return jsonl
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
}

test("predict: one row per feature-table row, unique paths, scores in [0, 1] or null, the routed type", async () => {
  const dir = tempDir("pith-predict-");
  const table = join(dir, "features.jsonl");
  const [res, features] = await Promise.all([
    pith(["predict", ARTICLE]),
    pith(["features", ARTICLE, "--out", table]),
  ]);
  assert.equal(res.status, 0, res.stderr);
  assert.equal(features.status, 0, features.stderr);
  const rows = rowsOf(res.stdout);
  const featureRows = rowsOf(readFileSync(table, "utf8"));
  assert.ok(rows.length > 5);
  assert.equal(rows.length, featureRows.length);
  assert.deepEqual(
    rows.map((r) => r.path),
    featureRows.map((r) => r.path),
  );
  assert.equal(new Set(rows.map((r) => r.path)).size, rows.length, "paths are unique");
  for (const r of rows) {
    assert.ok(r.pageType, "pageType present");
    assert.ok(r.tag);
    for (const v of [r.content, r.segment]) assert.ok(v === null || (v >= 0 && v <= 1), `${r.path}: ${v}`);
    assert.equal(r.content === null, r.words === 0, "content exactly for rows that own words");
    assert.equal(r.label, r.content === null ? null : r.content >= r.threshold ? 1 : 0);
  }
  assert.ok(rows.some((r) => r.label === 1) && rows.some((r) => r.label === 0));
  assert.match(res.stderr, /predict: 1 page\(s\), \d+ row\(s\), 0 error\(s\)/);
});

test("predict agrees with extract's classifier trace: same scores, label 1 at P(main) ≥ threshold", async () => {
  for (const page of [ARTICLE, BBC]) {
    const [pred, ext] = await Promise.all([
      pith(["predict", page]),
      pith(["extract", page, "--format", "json"]),
    ]);
    assert.equal(pred.status, 0, pred.stderr);
    assert.equal(ext.status, 0, ext.stderr);
    const rows = rowsOf(pred.stdout).filter((r) => r.content !== null);
    const trace = (
      JSON.parse(ext.stdout) as { trace: { step: string; node: number; path: string; score: number }[] }
    ).trace.filter((t) => t.step === "content-classifier");
    assert.ok(trace.length > 0);
    assert.deepEqual(
      rows.map((r) => [r.node, r.path, r.content]),
      trace.map((t) => [t.node, t.path, t.score]),
    );
    const threshold = rows[0]?.threshold as number;
    assert.match(ext.stdout, new RegExp(`≥ ${threshold.toFixed(3)}`), "the trace's threshold");
    assert.deepEqual(
      rows.filter((r) => r.label === 1).map((r) => r.node),
      trace.filter((t) => t.score >= threshold).map((t) => t.node),
    );
  }
});

test("predict on a directory: binary and empty pages reported on stderr, the other rows written", async () => {
  const dir = tempDir("pith-predict-dir-");
  const out = join(tempDir("pith-predict-out-"), "rows.jsonl");
  copyFileSync(ARTICLE, join(dir, "good.html"));
  writeFileSync(join(dir, "binary.html"), Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 7)));
  writeFileSync(join(dir, "empty.html"), "");
  const res = await pith(["predict", dir, "--out", out]);
  assert.equal(res.status, 1, res.stderr);
  assert.match(res.stderr, /^error\tbinary\.html\tdecode\t/m);
  assert.match(res.stderr, /^empty\tempty\.html\tthe page has no visible text$/m);
  assert.doesNotMatch(res.stderr, /\n\s+at /, "no stack trace");
  assert.equal(res.stdout, "");
  const rows = rowsOf(readFileSync(out, "utf8"));
  assert.ok(rows.length > 5);
  assert.deepEqual([...new Set(rows.map((r) => r.page))], ["good.html"]);
  assert.match(res.stderr, /predict: 2 page\(s\), \d+ row\(s\) → .*rows\.jsonl, 1 error\(s\)/);
});

test("predict --help says how it differs from extract; bad flags and models are usage and fatal errors", async () => {
  const help = await pith(["predict", "--help"]);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: pith predict/);
  assert.match(help.stdout, /How it differs from `pith extract`/);
  assert.match(help.stdout, /before\s+them/);
  const unknown = await pith(["predict", ARTICLE, "--format", "json"]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /predict: unknown option --format/);
  const param = await pith(["predict", ARTICLE, "--param", "bias=sideways"]);
  assert.equal(param.status, 2, param.stderr);
  const model = await pith(["predict", ARTICLE, "--model", join(tempDir("pith-predict-m-"), "none.json")]);
  assert.equal(model.status, 3, model.stderr);
  assert.equal(model.stdout, "");
});
