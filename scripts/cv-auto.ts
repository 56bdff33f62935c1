/**
 * `npm run cv:auto`: measures `pith extract --mode auto` (src/batch/auto-mode.ts) held out by site
 * on one labeled set (default wcxb-dev). Fold models are fitted for both render modes on the same
 * site-grouped folds (`pith train --data SET --folds 3`'s recipe: per-type models, segment
 * classifier, context stage), once per seed, and kept in data/cv/auto-<set>-<mode>-<seed>/. Every
 * held-out page then runs end to end with its fold's static model and, from the Chromium render
 * cache (`pith train --mode chromium --prepare` fills it), its fold's Chromium model: the static
 * pass gives the decision's signals. The decision's threshold (AUTO_MAX_KEPT_SHARE, or with
 * `--signal words` a fewest-kept-words threshold) is chosen on two folds' pages (the best mean
 * word F1; a tie: fewer renders) and scored on the third's; the script prints word F1 and the
 * share of pages rendered for static, chromium, auto (nested) and the per-page best of both (the
 * ceiling of any decision), and the figures of every threshold over all pages.
 *
 * Usage: npm run cv:auto -- [--set NAME] [--seed S] [--signal share|words] [--json FILE]
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { autoSignals, type AutoSignals } from "../src/batch/auto-mode.ts";
import { buildTree } from "../src/dom/tree.ts";
import { wordCount } from "../src/dom/text.ts";
import { featureSchema } from "../src/features/index.ts";
import { loadDataset, readGold, type Dataset } from "../src/io/dataset.ts";
import { groupKFold } from "../src/ml/split.ts";
import type { PipelineModel } from "../src/pipeline/model/model.ts";
import { modelView, runOnTable } from "../src/pipeline/run.ts";
import { datasetSnapshot, type PageRecord } from "../src/train/page-record.ts";
import { wordF1 } from "../src/train/score.ts";
import { loadAll } from "../src/train/train.ts";
import type { RenderMode } from "../src/types.ts";
import { intOption, scriptArgs, usageError } from "./args.ts";
import { loadFoldModel, saveFoldModels } from "./fold-models.ts";

const USAGE = `Usage: npm run cv:auto -- [--set NAME] [--seed S] [--signal share|words] [--json FILE]

Held-out word F1 of --mode static, chromium and auto on one labeled set (default wcxb-dev), with
fold models of both modes fitted once per seed into data/cv/auto-<set>-<mode>-<seed>/. Needs the
set's Chromium renders cached (pith train --data SET --mode chromium --prepare). --signal share
(default): the share of visible words the static extraction kept; words: the words it kept.`;

const FOLDS = 3;
/** Thresholds tried, per signal: AUTO_MAX_KEPT_SHARE, or fewest kept words. */
const GRIDS = {
  share: [0, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3],
  words: [0, 1, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300],
};

const values = scriptArgs(USAGE, {
  set: { type: "string" },
  seed: { type: "string" },
  signal: { type: "string" },
  json: { type: "string" },
});
const signal = values.signal ?? "share";
if (signal !== "share" && signal !== "words")
  usageError(USAGE, `--signal must be share or words, not "${signal}"`);
const GRID = GRIDS[signal];
const seed = intOption(USAGE, "seed", values.seed, 42, 0);
const set = values.set ?? "wcxb-dev";

function log(s: string): void {
  process.stderr.write(`[${(performance.now() / 1000).toFixed(0)} s] ${s}\n`);
}

/** Fits the fold models of `mode` with pith train's default recipe and keeps them in `dir`. */
function fitFolds(records: PageRecord[], dirs: Map<string, string>, mode: RenderMode, dir: string) {
  const config = { kind: "gbdt", params: {}, seed, perType: true, segment: true, borrow: false } as const;
  const nCols = featureSchema().names.length;
  const variants = [{ name: "plain", refiners: {} }];
  const options = { folds: FOLDS, config, nCols, mode, datasetDirs: dirs, variants, context: true };
  return saveFoldModels(records, options, dir, log);
}

interface PageRun extends AutoSignals {
  id: string;
  pageType: string;
  fold: number;
  static: number;
  chromium: number;
  /** Words the Chromium extraction kept. */
  chromiumWords: number;
}

async function runPage(ds: Dataset, rec: PageRecord, model: PipelineModel, mode: RenderMode) {
  const page = ds.pages.find((p) => p.id === rec.id);
  if (!page) throw new Error(`no page ${rec.id}`);
  const raw = await datasetSnapshot(ds, page, mode);
  const snap = modelView(model, raw);
  const table = { nodes: rec.nodes, values: rec.values, nCols: model.artifact.featureSchema.names.length };
  const run = runOnTable(model, snap, buildTree(snap), table, { trace: false });
  const gold = (await readGold(ds, page)) ?? "";
  return { raw, extraction: run.extraction, f1: wordF1(run.extraction.text, gold).f1 };
}

async function recordsOf(mode: RenderMode) {
  const { records, dirs } = await loadAll({ datasets: [set], mode });
  log(`${mode}: ${records.length} records`);
  return { records, dirs };
}

const st = await recordsOf("static");
const ch = await recordsOf("chromium");
// the same pages in both modes, so that both get the same folds
const inChromium = new Map(ch.records.map((r) => [r.id, r]));
const common = st.records.filter((r) => inChromium.has(r.id));
const chromiumRecords = common.map((r) => inChromium.get(r.id) as PageRecord);
log(`${common.length} pages in both modes`);
const foldDir = (mode: RenderMode) => join("data", "cv", `auto-${set}-${mode}-${seed}`);
for (const [mode, recs, dirs] of [
  ["static", common, st.dirs],
  ["chromium", chromiumRecords, ch.dirs],
] as const) {
  const dir = foldDir(mode);
  if (existsSync(join(dir, `fold-${FOLDS - 1}.json`))) continue;
  mkdirSync(dir, { recursive: true });
  await fitFolds(recs, dirs, mode, dir);
}
const ds = loadDataset(st.dirs.get(set) as string);
const folds = groupKFold(
  common.map((r) => r.site),
  FOLDS,
  seed,
);
const runs: PageRun[] = [];
for (const [f, fold] of folds.entries()) {
  const sm = await loadFoldModel(foldDir("static"), f, "static");
  const cm = await loadFoldModel(foldDir("chromium"), f, "chromium");
  for (const i of fold.test) {
    const rec = common[i] as PageRecord;
    try {
      const s = await runPage(ds, rec, sm, "static");
      const c = await runPage(ds, chromiumRecords[i] as PageRecord, cm, "chromium");
      const signals = autoSignals(s.raw, s.extraction);
      const chromiumWords = wordCount(c.extraction.text);
      runs.push({
        id: rec.id,
        pageType: rec.pageType,
        fold: f,
        static: s.f1,
        chromium: c.f1,
        chromiumWords,
        ...signals,
      });
    } catch (e) {
      log(`${rec.id}: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  log(`fold ${f} done`);
}

/** Whether the decision at threshold `t` renders the page (as autoDecision does, without --js). */
const rendered = (r: PageRun, t: number) =>
  r.visibleWords > 0 && (signal === "share" ? r.keptWords < t * r.visibleWords : r.keptWords < t);
const autoF1 = (r: PageRun, t: number) => (rendered(r, t) ? r.chromium : r.static);
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / (xs.length || 1);

/** The threshold with the best mean F1 on `rs` (ties: the smaller, fewer renders). */
function fit(rs: readonly PageRun[]): number {
  let best = GRID[0] as number;
  let bestF1 = -1;
  for (const t of GRID) {
    const f1 = mean(rs.map((r) => autoF1(r, t)));
    if (f1 > bestF1 + 1e-9) [best, bestF1] = [t, f1];
  }
  return best;
}

const chosen = Array.from({ length: FOLDS }, (_, f) => fit(runs.filter((r) => r.fold !== f)));
const nested = runs.map((r) => ({ r, t: chosen[r.fold] as number }));
const out: string[] = [
  `${set}, seed ${seed}, ${runs.length} held-out pages; signal ${signal}, thresholds per fold: ${chosen.join(", ")}`,
];
const row = (name: string, f1: number, share: string) =>
  `${name.padEnd(24)} F1 ${f1.toFixed(4)}  rendered ${share}`;
const percent = (n: number) => `${((100 * n) / runs.length).toFixed(1)} %`;
out.push(row("static", mean(runs.map((r) => r.static)), percent(0)));
out.push(row("chromium", mean(runs.map((r) => r.chromium)), percent(runs.length)));
const autoRendered = nested.filter(({ r, t }) => rendered(r, t)).length;
out.push(row("auto (nested)", mean(nested.map(({ r, t }) => autoF1(r, t))), percent(autoRendered)));
out.push(row("best of both (ceiling)", mean(runs.map((r) => Math.max(r.static, r.chromium))), "-"));
out.push("", "threshold: F1 over all pages, rendered share, mean F1 gain on the rendered pages");
for (const t of GRID) {
  const pages = runs.filter((r) => rendered(r, t));
  const gain = mean(pages.map((r) => r.chromium - r.static)).toFixed(4);
  const f1 = mean(runs.map((r) => autoF1(r, t))).toFixed(4);
  out.push(`${String(t).padStart(5)}  ${f1}  ${percent(pages.length)}  ${gain} (${pages.length} pages)`);
}
process.stdout.write(out.join("\n") + "\n");
if (values.json) writeFileSync(values.json, JSON.stringify(runs));
