/**
 * Where a set name leads (src/io/dataset.ts): $PITH_DATA, then the repository's data/, then
 * ../shared/data; paths are taken as they are. And data/sample against its own spec (data/README.md).
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, test } from "node:test";
import {
  DatasetError,
  DEFAULT_DATA_DIR,
  dataDirs,
  listDatasets,
  loadDataset,
  readDatasetPage,
  REPO_DATA_DIR,
  resolveDatasetDir,
} from "../src/io/dataset.ts";
import { siteOf } from "../src/train/sites.ts";
import { tempDir } from "./helpers.ts";

const SAMPLE = join(REPO_DATA_DIR, "sample");
const ENV = process.env["PITH_DATA"];

afterEach(() => {
  if (ENV === undefined) delete process.env["PITH_DATA"];
  else process.env["PITH_DATA"] = ENV;
});

/** A one-page set `name` under `root` (html uncompressed, to read the .html form too). */
function writeSet(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "html"), { recursive: true });
  mkdirSync(join(dir, "gold"));
  writeFileSync(join(dir, "index.jsonl"), `${JSON.stringify({ id: "p1", domain: "a.test" })}\n`);
  writeFileSync(join(dir, "html", "p1.html"), "<html><body><p>Plain page text.</p></body></html>");
  writeFileSync(join(dir, "gold", "p1.txt"), "Plain page text.\n");
  return dir;
}

test("a bare name is looked up in $PITH_DATA, then data/, then ../shared/data", () => {
  const root = tempDir("pith-data-");
  process.env["PITH_DATA"] = root;
  assert.deepEqual(dataDirs(), [root, REPO_DATA_DIR, DEFAULT_DATA_DIR]);
  delete process.env["PITH_DATA"];
  assert.deepEqual(dataDirs(), [REPO_DATA_DIR, DEFAULT_DATA_DIR]);
  assert.equal(resolveDatasetDir("sample"), SAMPLE);
});

test("a set in $PITH_DATA shadows data/'s set of that name; without one there, the name falls back to data/", () => {
  const root = tempDir("pith-data-");
  process.env["PITH_DATA"] = root;
  assert.equal(resolveDatasetDir("sample"), SAMPLE, "nothing of that name in PITH_DATA");
  const own = writeSet(root, "sample");
  assert.equal(resolveDatasetDir("sample"), own);
  const ds = loadDataset("sample");
  assert.equal(ds.dir, own);
  assert.equal(ds.pages.length, 1);
  // listed once, whichever folder holds it
  assert.equal(listDatasets().filter((n) => n === "sample").length, 1);
});

test("a name found nowhere is one error naming the places looked in and how to point pith at data", () => {
  const root = tempDir("pith-data-");
  for (const env of [root, undefined]) {
    if (env) process.env["PITH_DATA"] = env;
    else delete process.env["PITH_DATA"];
    assert.throws(
      () => resolveDatasetDir("no-such-set"),
      (e: unknown) => {
        assert.ok(e instanceof DatasetError);
        const m = e.message;
        assert.ok(!m.includes("\n"), m);
        assert.match(m, /^no dataset "no-such-set": looked for no-such-set\/index\.jsonl in /);
        assert.ok(m.includes(env ? `$PITH_DATA (${root})` : "$PITH_DATA (unset)"), m);
        for (const place of [REPO_DATA_DIR, DEFAULT_DATA_DIR]) assert.ok(m.includes(place), m);
        assert.match(
          m,
          /set PITH_DATA to the folder that holds the sets, or give the set's folder as a path$/,
        );
        return true;
      },
    );
  }
});

test("a path is that folder only: no lookup in the data folders", () => {
  const root = tempDir("pith-data-");
  const dir = writeSet(root, "elsewhere");
  assert.equal(resolveDatasetDir(dir), dir);
  process.env["PITH_DATA"] = root;
  assert.equal(resolveDatasetDir("elsewhere"), dir);
  assert.throws(
    () => resolveDatasetDir("./sample-nowhere/x"),
    /^DatasetError: no dataset at \.\/sample-nowhere\/x: expected /,
  );
  assert.throws(
    () => resolveDatasetDir(join(root, "sample")),
    /no dataset at .*expected .*sample\/index\.jsonl/,
  );
});

test("html/<id>.html is read when there is no .html.gz", async () => {
  const root = tempDir("pith-data-");
  const ds = loadDataset(writeSet(root, "plain"));
  const page = await readDatasetPage(ds, ds.pages[0]!);
  assert.match(page.html, /Plain page text/);
  assert.equal(page.source, "plain/p1");
});

test("data/sample satisfies data/README.md: every indexed page has its html and gold, and nothing else is there", () => {
  const rows = readFileSync(join(SAMPLE, "index.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const ids = rows.map((r) => r["id"] as string);
  assert.ok(ids.length >= 20, `${ids.length} pages`);
  assert.equal(new Set(ids).size, ids.length, "ids are unique");
  for (const r of rows) {
    assert.equal(typeof r["id"], "string");
    assert.equal(typeof r["domain"], "string", `${String(r["id"])} has a domain`);
    assert.ok(typeof r["page_type"] === "string" || typeof r["genre"] === "string");
  }
  const html = readdirSync(join(SAMPLE, "html")).sort();
  const gold = readdirSync(join(SAMPLE, "gold")).sort();
  assert.deepEqual(html, ids.map((id) => `${id}.html.gz`).sort());
  assert.deepEqual(gold, ids.map((id) => `${id}.txt`).sort());
  for (const id of ids) {
    const page = gunzipSync(readFileSync(join(SAMPLE, "html", `${id}.html.gz`))).toString("utf8");
    assert.match(page, /^<!-- source: [a-z0-9-]+\/[\w-]+, cut down -->/, id);
    assert.ok(readFileSync(join(SAMPLE, "gold", `${id}.txt`), "utf8").trim().length > 0, `${id}: gold`);
  }
  for (const l of readFileSync(join(SAMPLE, "snippets.jsonl"), "utf8").split("\n").filter(Boolean))
    assert.ok(ids.includes((JSON.parse(l) as { id: string }).id));
  // several sites with 2+ pages, so site-grouped folds have whole sites to hold out
  const ds = loadDataset("sample");
  const perSite = new Map<string, number>();
  for (const p of ds.pages) perSite.set(siteOf(p), (perSite.get(siteOf(p)) ?? 0) + 1);
  assert.ok([...perSite.values()].filter((n) => n >= 2).length >= 6, JSON.stringify([...perSite]));
  assert.ok(new Set(ds.pages.map((p) => p.pageType)).size >= 6);
  assert.notEqual(ds.license, "unknown");
  assert.ok(existsSync(join(SAMPLE, "README.md")));
  const bytes = [SAMPLE, join(SAMPLE, "html"), join(SAMPLE, "gold")]
    .flatMap((d) => readdirSync(d).map((f) => join(d, f)))
    .filter((f) => statSync(f).isFile())
    .reduce((n, f) => n + statSync(f).size, 0);
  assert.ok(bytes < 600_000, `${bytes} bytes`);
});
