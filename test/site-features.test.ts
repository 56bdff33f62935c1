/**
 * Site features that are real: `pith train --site-features` fills the site_* columns of pages whose
 * site has at least SITE_MIN_PAGES labeled pages, and `pith extract --site-features on` computes
 * them for a page whose batch holds that many pages of its site, the same on worker threads as in
 * this thread, and uses the site-aware model there (the single-page model elsewhere).
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { featureIndex } from "../src/features/index.ts";
import { SITE_MIN_PAGES, siteContexts } from "../src/io/site-group.ts";
import { runOptionsFrom } from "../src/pipeline/extractor.ts";
import { loadPipelineModel } from "../src/pipeline/model/model.ts";
import { modelTable, modelView } from "../src/pipeline/run.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { loadRecords } from "../src/train/cache.ts";
import { decodePage } from "../src/io/inputs.ts";
import type { PageSnapshot } from "../src/types.ts";
import { pith, tempDir } from "./helpers.ts";

process.env["PITH_CACHE"] = tempDir("pith-site-cache-");
const SAMPLE = new URL("../data/sample/", import.meta.url).pathname;
const SITE_COLUMNS = [
  "site_occurrences",
  "site_occurrence_share",
  "site_ibdf",
  "site_template_word_share",
  "site_pages",
];
/** data/sample's only site with three pages, and two of its two-page sites. */
const UCD = ["wx-0368", "wx-4180", "wx-4558"];
const PCWORLD = ["wx-4014", "wx-4603"];
const ALMANAC = ["wx-0214", "wx-4661"];

/** How many of a table's rows have each site column filled (not NaN). */
function filledRows(values: Float32Array, rows: number, nCols: number): number[] {
  const index = featureIndex();
  return SITE_COLUMNS.map((name) => {
    const c = index.get(name) as number;
    let n = 0;
    for (let r = 0; r < rows; r++) if (!Number.isNaN(values[r * nCols + c])) n++;
    return n;
  });
}

/**
 * With siblings every row has an occurrence count, IBDF and page count, and the template word
 * share wherever the row has words (a ratio, NaN over none); without, every site column is NaN.
 */
function assertSiteFeatures(filled: number[], rows: number, withSite: boolean, what: string): void {
  if (!withSite) return assert.deepEqual(filled, [0, 0, 0, 0, 0], what);
  const [occurrences, share, ibdf, words, pages] = filled as [number, number, number, number, number];
  assert.deepEqual([occurrences, share, ibdf, pages], [rows, rows, rows, rows], what);
  assert.ok(words > rows / 2, `${what}: template word share on ${words} of ${rows} rows`);
}

/** A batch folder: ucd/ with three pages of one site, pcw/ and alm/ with two each. */
function batchDir(): string {
  const dir = tempDir("pith-site-batch-");
  const groups: [string, string[]][] = [
    ["ucd", UCD],
    ["pcw", PCWORLD],
    ["alm", ALMANAC],
  ];
  for (const [sub, ids] of groups) {
    mkdirSync(join(dir, sub));
    for (const id of ids)
      copyFileSync(join(SAMPLE, "html", `${id}.html.gz`), join(dir, sub, `${id}.html.gz`));
  }
  return dir;
}

let siteModel: Promise<string> | null = null;
/** A site-aware model trained on data/sample (the final fit only, to keep it quick). */
function trainedSiteModel(): Promise<string> {
  siteModel ??= (async () => {
    const out = join(tempDir("pith-site-model-"), "site.json");
    const res = await pith(["train", "--data", SAMPLE, "--site-features", "--folds", "0", "--out", out]);
    assert.equal(res.status, 0, res.stderr);
    return out;
  })();
  return siteModel;
}

test("training rows carry site features on pages of a site with ≥ 3 labeled pages, NaN elsewhere", async () => {
  const records = await loadRecords(SAMPLE, { site: true, workers: 1 });
  const nCols = featureIndex().size;
  assert.equal(records.length, 21);
  for (const r of records) {
    assertSiteFeatures(filledRows(r.values, r.nodes.length, nCols), r.nodes.length, UCD.includes(r.id), r.id);
  }
  // the same set without --site-features: NaN everywhere, as the bundled models were trained
  const plain = await loadRecords(SAMPLE, { workers: 1 });
  for (const r of plain) assert.deepEqual(filledRows(r.values, r.nodes.length, nCols), [0, 0, 0, 0, 0]);
});

test("the learned pipeline computes the site features of a page given ≥ 2 siblings and a site model", async () => {
  const file = await trainedSiteModel();
  const model = await loadPipelineModel(file, "static");
  const dir = batchDir();
  const snaps: PageSnapshot[] = [...UCD.map((id) => `ucd/${id}`), ...PCWORLD.map((id) => `pcw/${id}`)].map(
    (rel) => {
      const path = join(dir, `${rel}.html.gz`);
      const page = decodePage({
        id: rel,
        source: path,
        url: null,
        remote: false,
        charset: null,
        bytes: readFileSync(path),
      });
      assert.ok(page.ok);
      return staticSnapshot(page.value);
    },
  );
  const contexts = siteContexts(snaps, SITE_MIN_PAGES);
  for (const snap of snaps) {
    const site = contexts.get(snap);
    const options = runOptionsFrom({ siteModel: file, ...(site ? { site } : {}) });
    const view = modelView(model, snap, options);
    const { table } = modelTable(model, view, buildTree(view), options, true);
    const filled = filledRows(table.values, table.nodes.length, table.nCols);
    const ucd = snap.id.startsWith("ucd/");
    assert.equal(site !== undefined, ucd, snap.id);
    assertSiteFeatures(filled, table.nodes.length, ucd, snap.id);
  }
});

test("pith extract --site-features on: the site model on a batch's 3-page site, the same output on workers and in-thread", async () => {
  const file = await trainedSiteModel();
  const dir = batchDir();
  const run = (workers: string) =>
    pith([
      "extract",
      dir,
      "--format",
      "json",
      "--site-features",
      "on",
      "--site-model",
      file,
      "--workers",
      workers,
    ]);
  const [inThread, onWorkers] = await Promise.all([run("0"), run("2")]);
  assert.equal(inThread.status, 0, inThread.stderr);
  assert.equal(onWorkers.status, 0, onWorkers.stderr);
  assert.equal(onWorkers.stdout, inThread.stdout);
  const models = new Map(
    inThread.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; model: string })
      .map((o) => [o.id, o.model]),
  );
  assert.equal(models.size, 7);
  for (const [id, used] of models)
    if (id.startsWith("ucd/")) assert.match(used, /^site \(site: 2 other pages, /, id);
    else assert.match(used, /^default-static \(default, /, id);
  // without the option the batch is extracted page by page, as before
  const plain = await pith(["extract", dir, "--format", "json", "--workers", "0"]);
  const off = await pith(["extract", dir, "--format", "json", "--workers", "0", "--site-features", "off"]);
  assert.equal(off.stdout, plain.stdout);
  assert.doesNotMatch(plain.stdout, /site: \d other pages/);
});

test("pith extract --site-features: bad values and missing models are usage errors", async () => {
  const page = join(SAMPLE, "html", "wx-0368.html.gz");
  const cases: [string[], RegExp][] = [
    [["--site-features", "yes"], /--site-features must be on or off/],
    [["--site-model", "x.json"], /--site-model needs --site-features on/],
    [["--site-features", "on", "--method", "cnr"], /--site-features applies to --method ml/],
    [["--site-features", "on"], /--site-features on needs a site-aware model: none is bundled/],
  ];
  for (const [args, message] of cases) {
    const res = await pith(["extract", page, ...args]);
    assert.equal(res.status, 2, args.join(" "));
    assert.match(res.stderr, message);
    assert.equal(res.stderr.trim().split("\n").length, 1, res.stderr);
  }
});

test("pith train --domain --site-features: a per-domain model trained with them reads them on its site's pages", async () => {
  const dir = tempDir("pith-site-domains-");
  const trained = await pith([
    "train",
    "--domain",
    "health.ucdavis.edu",
    "--data",
    SAMPLE,
    "--site-features",
    "--model-dir",
    dir,
  ]);
  assert.equal(trained.status, 0, trained.stderr);
  const file = join(dir, "domains", "health.ucdavis.edu.json");
  const model = JSON.parse(readFileSync(file, "utf8")) as { hyperParameters: Record<string, unknown> };
  assert.equal(model.hyperParameters["siteFeatures"], true);
  // wx-0368 names its canonical URL on health.ucdavis.edu: its domain model, with the site features
  const res = await pith([
    "extract",
    join(batchDir(), "ucd"),
    "--format",
    "json",
    "--workers",
    "0",
    "--site-features",
    "on",
    "--site-model",
    await trainedSiteModel(),
    "--model-dir",
    dir,
  ]);
  assert.equal(res.status, 0, res.stderr);
  const used = res.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { id: string; model: string })
    .find((o) => o.id === "wx-0368.html.gz");
  assert.match(used?.model ?? "", /\(domain:health\.ucdavis\.edu, site: 2 other pages, /);
});
