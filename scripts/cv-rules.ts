/**
 * `npm run cv:rules`: measures the rules after the classifier (src/pipeline/rules/) held out by
 * site, without a final fit and without retraining per rule. A rule only changes what happens after
 * the fold models score a page, so the fold models of `npm run train:default`'s cross-validation
 * (same sets, seed, folds and recipe) are fitted once per seed and kept in
 * data/cv/folds-<seed>/ (the folds themselves are dealt again from the seed); then every held-out
 * page runs end to end with its fold's model once per configuration (run options such as
 * `containment=false`) and the
 * script prints word P/R/F1 per set for each configuration, and the pages whose F1 moved.
 *
 * "base" is the pipeline as it stands; a configuration with every rule of this change switched off
 * reproduces the cross-validation's "plain" column (the shipped one while the model ships no
 * refiner) of models/default-<mode>.cv.txt for the same seed, which checks the fold models.
 *
 * Usage: npm run cv:rules -- [--seed S] [--config NAME:K=V,K=V ...] [--sets A,B] [--by-type] [--json FILE]
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { featureSchema } from "../src/features/index.ts";
import { loadDataset, readGold, type Dataset } from "../src/io/dataset.ts";
import { groupKFold } from "../src/ml/split.ts";
import type { PipelineModel } from "../src/pipeline/model/model.ts";
import type { RunOptions } from "../src/pipeline/options.ts";
import { modelView, runOnTable } from "../src/pipeline/run.ts";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";
import { repeatedParagraphs } from "../src/evaluate/repeats.ts";
import { datasetSnapshot, type PageRecord } from "../src/train/page-record.ts";
import { wordF1, type PageScore } from "../src/train/score.ts";
import { loadAll } from "../src/train/train.ts";
import { DEFAULT_GENERAL_SETS, DEFAULT_SETS } from "../src/train/recipes.ts";
import { intOption, scriptArgs } from "./args.ts";
import { loadFoldModel, saveFoldModels } from "./fold-models.ts";

const USAGE = `Usage: npm run cv:rules -- [--seed S] [--config NAME:K=V,K=V ...] [--sets A,B] [--by-type] [--json FILE]

Held-out word P/R/F1 per set of the learned pipeline under rule configurations, with the fold
models of npm run train:default's cross-validation (fitted once per seed into data/cv/folds-<seed>/).
A configuration is a name and run options that switch rules off, e.g. --config before:containment=false;
"base" (the defaults) is always run first. --by-type adds a row per set and page type (wcxb-dev's
page_type, the genre elsewhere).`;

const DEFAULT_SEED = 42;
const DEFAULT_FOLDS = 3;

const values = scriptArgs(USAGE, {
  seed: { type: "string" },
  config: { type: "string", multiple: true },
  sets: { type: "string" },
  "by-type": { type: "boolean" },
  json: { type: "string" },
});
const seed = intOption(USAGE, "seed", values.seed, DEFAULT_SEED, 0);
const foldDir = join("data", "cv", `folds-${seed}`);

/** The trace steps of the rules SWITCHES turn off: where none fires, turning them off changes nothing. */
const RULE_STEPS: ReadonlySet<string> = new Set([
  "containment-rule",
  "table-rule",
  "teaser-rule",
  "records-refiner",
  "fill",
]);
const SWITCHES: ReadonlySet<string> = new Set(["containment", "wholeTables", "teasers", "docFill"]);

/** A named set of run options. */
interface Config {
  name: string;
  options: RunOptions;
}

function parseConfig(spec: string): Config {
  const [name, rest = ""] = spec.split(":");
  const options: Record<string, unknown> = {};
  for (const kv of rest.split(",").filter(Boolean)) {
    const [k, v = ""] = kv.split("=");
    options[k as string] =
      v === "true" ? true : v === "false" ? false : /^\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  }
  return { name: name as string, options: options as RunOptions };
}
const configs: Config[] = [{ name: "base", options: {} }, ...(values.config ?? []).map(parseConfig)];

function log(s: string): void {
  process.stderr.write(`[${(performance.now() / 1000).toFixed(0)} s] ${s}\n`);
}

/** Fits the fold models as train:default's cross-validation does (the context stage included) into foldDir. */
function fitFolds(records: PageRecord[], dirs: Map<string, string>): Promise<void> {
  const config = {
    kind: "gbdt",
    params: {},
    seed,
    perType: true,
    segment: true,
    borrow: true,
    generalSets: DEFAULT_GENERAL_SETS,
  } as const;
  const nCols = featureSchema().names.length;
  const variants = [{ name: "plain", refiners: {} }];
  const options = {
    folds: DEFAULT_FOLDS,
    config,
    nCols,
    mode: "static",
    datasetDirs: dirs,
    variants,
    context: true,
  } as const;
  return saveFoldModels(records, options, foldDir, log);
}

const datasets = new Map<string, Dataset>();
function datasetOf(name: string, dirs: Map<string, string>): Dataset {
  let ds = datasets.get(name);
  if (!ds) datasets.set(name, (ds = loadDataset(dirs.get(name) as string)));
  return ds;
}

function loadFold(f: number): Promise<PipelineModel> {
  return loadFoldModel(foldDir, f, "static");
}

/** One held-out page's scores per configuration. */
interface PageRun {
  dataset: string;
  id: string;
  /** The page's labeled type (wcxb-dev's page_type, the genre elsewhere). */
  pageType: string;
  scores: Record<string, PageScore>;
  /** Per configuration: 1 when the output repeats a paragraph the page does not (repeats.ts). */
  repeats: Record<string, number>;
}

async function evaluateRecord(
  rec: PageRecord,
  model: PipelineModel,
  dirs: Map<string, string>,
): Promise<PageRun> {
  const ds = datasetOf(rec.dataset, dirs);
  const page = ds.pages.find((p) => p.id === rec.id);
  if (!page) throw new Error(`no page ${rec.id}`);
  const gold = (await readGold(ds, page)) ?? "";
  const raw = await datasetSnapshot(ds, page, "static");
  const snap = modelView(model, raw);
  const tree = buildTree(snap);
  const rawTree = raw === snap ? tree : buildTree(raw);
  const pageText = textOf(raw, rawTree, [0]);
  const table = { nodes: rec.nodes, values: rec.values, nCols: model.artifact.featureSchema.names.length };
  const scores: Record<string, PageScore> = {};
  const repeats: Record<string, number> = {};
  // "base" runs with the trace: where none of RULE_STEPS fires there, a configuration that switches
  // rules off has the same output, and is not run again
  let fired = true;
  for (const c of configs) {
    if (!fired && Object.keys(c.options).every((k) => SWITCHES.has(k))) {
      scores[c.name] = scores["base"] as PageScore;
      repeats[c.name] = repeats["base"] as number;
      continue;
    }
    const run = runOnTable(model, snap, tree, table, { trace: c.name === "base", ...c.options });
    if (c.name === "base") fired = (run.extraction.trace ?? []).some((t) => RULE_STEPS.has(t.step));
    scores[c.name] = wordF1(run.extraction.text, gold);
    repeats[c.name] = repeatedParagraphs(run.extraction.text, pageText).introduced.length ? 1 : 0;
  }
  return { dataset: rec.dataset, id: rec.id, pageType: page.pageType, scores, repeats };
}

function mean(runs: readonly PageRun[], config: string): PageScore {
  const n = runs.length || 1;
  const sum = (k: keyof PageScore): number =>
    runs.reduce((a, r) => a + (r.scores[config] as PageScore)[k], 0);
  return { precision: sum("precision") / n, recall: sum("recall") / n, f1: sum("f1") / n };
}

function report(runs: PageRun[]): void {
  const groups = new Map<string, PageRun[]>([["all", runs]]);
  for (const r of runs) groups.set(r.dataset, [...(groups.get(r.dataset) ?? []), r]);
  if (values["by-type"])
    for (const r of runs) {
      const key = `${r.dataset}/${r.pageType}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
  const f = (x: number): string => x.toFixed(4);
  const width = values["by-type"] ? 24 : 16;
  process.stdout.write(`seed ${seed}, ${runs.length} held-out pages; word P / R / F1 per configuration\n`);
  process.stdout.write(
    `${"set".padEnd(width)} ${"pages".padStart(5)}  ${configs.map((c) => c.name.padEnd(22)).join(" ")}\n`,
  );
  for (const [name, rs] of groups) {
    const cells = configs.map((c) => {
      const m = mean(rs, c.name);
      return `${f(m.precision)} ${f(m.recall)} ${f(m.f1)}`.padEnd(22);
    });
    process.stdout.write(`${name.padEnd(width)} ${String(rs.length).padStart(5)}  ${cells.join(" ")}\n`);
  }
  const repeats = configs.map((c) => `${c.name} ${runs.reduce((a, r) => a + (r.repeats[c.name] ?? 0), 0)}`);
  process.stdout.write(`outputs repeating a paragraph the page does not: ${repeats.join(", ")}\n`);
  for (const c of configs.slice(1)) {
    const moved = runs.filter(
      (r) => Math.abs((r.scores[c.name] as PageScore).f1 - (r.scores["base"] as PageScore).f1) > 1e-9,
    );
    const up = moved.filter(
      (r) => (r.scores[c.name] as PageScore).f1 > (r.scores["base"] as PageScore).f1,
    ).length;
    const units = moved.reduce(
      (a, r) => a + (r.scores[c.name] as PageScore).f1 - (r.scores["base"] as PageScore).f1,
      0,
    );
    process.stdout.write(
      `${c.name}: ${moved.length} pages moved, ${up} up, ${moved.length - up} down, ${units.toFixed(3)} page-units\n`,
    );
  }
}

const sets = values.sets ? values.sets.split(",") : DEFAULT_SETS;
const { records, dirs } = await loadAll({ datasets: DEFAULT_SETS, mode: "static" });
log(`${records.length} records`);
if (!existsSync(join(foldDir, `fold-${DEFAULT_FOLDS - 1}.json`))) {
  mkdirSync(foldDir, { recursive: true });
  await fitFolds(records, dirs);
}
const folds = groupKFold(
  records.map((r) => r.site),
  DEFAULT_FOLDS,
  seed,
);
const runs: PageRun[] = [];
let done = 0;
const todo = folds.reduce(
  (a, f) => a + f.test.filter((i) => sets.includes((records[i] as PageRecord).dataset)).length,
  0,
);
for (const [f, fold] of folds.entries()) {
  const model = await loadFold(f);
  for (const i of fold.test) {
    const rec = records[i] as PageRecord;
    if (!sets.includes(rec.dataset)) continue;
    try {
      runs.push(await evaluateRecord(rec, model, dirs));
    } catch (e) {
      log(`${rec.dataset}/${rec.id}: ${(e as Error).message.split("\n")[0]}`);
    }
    if (++done % 500 === 0) log(`${done}/${todo} pages`);
  }
}
report(runs);
if (values.json) writeFileSync(values.json, JSON.stringify(runs));
