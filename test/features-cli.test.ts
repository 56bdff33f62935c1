/** `pith features` table output, and the linear-time node paths it writes. */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { test } from "node:test";
import { nodePath } from "../src/dom/path.ts";
import { buildTree } from "../src/dom/tree.ts";
import { featureSchema, structuralNodes } from "../src/features/index.ts";
import { nodePaths, PATH_TAIL_PARTS } from "../src/features/paths.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { pith, tempDir } from "./helpers.ts";

const fixture = (name: string): string => new URL(`./fixtures/${name}`, import.meta.url).pathname;
const snap = (html: string) =>
  staticSnapshot({ id: "t", source: "t", url: null, html, encoding: "utf-8", remote: false });

test("nodePaths equals nodePath for every node of the fixtures", () => {
  for (const f of ["features/mixed.html", "pages/article.html"]) {
    const page = snap(readFileSync(fixture(f), "utf8"));
    const tree = buildTree(page);
    const all = Array.from({ length: tree.n }, (_, i) => i);
    assert.deepEqual(
      nodePaths(page, tree, all),
      all.map((i) => nodePath(page, tree, i)),
    );
  }
});

test("nodePaths and nodePath: deep nodes keep only their last parts", () => {
  const page = snap(`<html><body>${"<div>".repeat(5_000)}<p>x</p>${"</div>".repeat(5_000)}</body></html>`);
  const tree = buildTree(page);
  const [p] = nodePaths(page, tree, [tree.n - 2]);
  assert.equal(
    p,
    `…>${Array(PATH_TAIL_PARTS - 1)
      .fill("div")
      .join(">")}>p`,
  );
  assert.equal(
    nodePath(page, tree, tree.n - 2),
    p,
    "JSON output and traces (nodePath) cut deep paths the same way",
  );
});

test("pith features writes one JSONL row per structural node with features and no labels for plain files", () => {
  const dir = tempDir("pith-features-");
  const out = join(dir, "t.jsonl");
  execFileSync(process.execPath, ["bin/pith.js", "features", fixture("features/mixed.html"), "--out", out], {
    cwd: new URL("..", import.meta.url).pathname,
    stdio: "pipe",
  });
  const rows = readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const page = snap(readFileSync(fixture("features/mixed.html"), "utf8"));
  assert.equal(rows.length, structuralNodes(page, buildTree(page)).length);
  assert.deepEqual(
    rows.map((r) => r["path"]),
    [
      "html>body",
      "html>body>div#nav",
      "html>body>div#main",
      "html>body>div#main>#text",
      "html>body>div#main>p",
      "html>body>div#main>div",
    ],
  );
  for (const r of rows) {
    for (const n of featureSchema().names) assert.ok(n in r, n);
    assert.equal(r["main"], null);
    assert.equal(r["vis_x"], null); // NaN → null
  }
  assert.equal(rows[4]!["txt_words"], 5);
});

test("pith features: a set folder without gold/ gets rows without labels; a long export waits for the file without leaking listeners", async () => {
  const dir = tempDir("pith-features-nogold-");
  const set = join(dir, "nogold");
  mkdirSync(join(set, "html"), { recursive: true });
  const html = `<html><body>${Array.from({ length: 300 }, (_, k) => `<div class="c${k}"><p>Paragraph ${k} of the page, with a few words.</p></div>`).join("")}</body></html>`;
  writeFileSync(join(set, "html", "p1.html.gz"), gzipSync(html));
  writeFileSync(join(set, "index.jsonl"), `{"id": "p1"}\n`);
  const out = join(dir, "rows.jsonl");
  const res = await pith(["features", set, "--out", out]);
  assert.equal(res.status, 0, res.stderr);
  assert.doesNotMatch(res.stderr, /MaxListenersExceededWarning|Warning/);
  const rows = readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.ok(rows.length > 300, `${rows.length} rows`);
  assert.ok(rows.every((r) => r["main"] === null && r["dataset"] === "nogold"));
});

test("an output file that cannot be written is one usage error (exit 2) before any page is read: features --out, evaluate --json, train --out", async () => {
  const dir = tempDir("pith-outfile-");
  const taken = join(dir, "taken");
  writeFileSync(taken, "");
  const features = await pith([
    "features",
    fixture("pages/article.html"),
    "--out",
    join(taken, "rows.jsonl"),
  ]);
  const evaluate = await pith([
    "evaluate",
    "--method",
    "cnr",
    "--data",
    fixture("evaluate/tiny"),
    "--json",
    join(taken, "report.json"),
  ]);
  const asDir = await pith([
    "evaluate",
    "--method",
    "cnr",
    "--data",
    fixture("evaluate/tiny"),
    "--json",
    dir,
  ]);
  const train = await pith(["train", "--data", fixture("evaluate/tiny"), "--out", join(taken, "model.json")]);
  for (const [res, what] of [
    [features, "features: cannot write --out"],
    [evaluate, "evaluate: cannot write --json"],
    [asDir, "evaluate: cannot write --json"],
    [train, "train: cannot write --out"],
  ] as const) {
    assert.equal(res.status, 2, res.stderr);
    assert.equal(res.stderr.trim().split("\n").length, 1, res.stderr);
    assert.ok(res.stderr.startsWith(`pith: ${what}`), res.stderr);
    assert.equal(res.stdout, "", "nothing was evaluated or written");
  }
  const ok = await pith([
    "evaluate",
    "--method",
    "cnr",
    "--data",
    fixture("evaluate/tiny"),
    "--json",
    join(dir, "new", "report.json"),
  ]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(
    (JSON.parse(readFileSync(join(dir, "new", "report.json"), "utf8")) as { runs: unknown[] }).runs.length >
      0,
    true,
    "its folder is made",
  );
});
