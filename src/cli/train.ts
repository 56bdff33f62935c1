/**
 * `pith train`: labeled sets → cross-validated pipeline model (src/train/train.ts). Prints the
 * held-out-site report (node P/R/F1 of the content classifier, end-to-end word F1 per set and
 * page type) and writes the artifact.
 */
import { DatasetError } from "../io/dataset.ts";
import { saveModel } from "../ml/artifact.ts";
import { CLASSIFIER_KINDS, type ClassifierKind } from "../ml/classifier.ts";
import { DEFAULT_SEED } from "../ml/prng.ts";
import {
  BUNDLED_MODEL_DIR,
  checkedDomain,
  defaultModelPath,
  domainKey,
  domainModelPath,
} from "../pipeline/model/resolve.ts";
import { WITH_CONTEXT, type CvReport } from "../train/cv.ts";
import {
  domainExperiment,
  type DomainResult,
  largestPublishers,
  MIN_PAGES_FACTOR,
  publishers,
} from "../train/domain-experiment.ts";
import type { FitConfig } from "../train/fit.ts";
import type { PageRecord } from "../train/page-record.ts";
import { filterRecords, keptBy, loadAll, train, TrainError, type PageFailure } from "../train/train.ts";
import type { TrainOptions } from "../train/train.ts";
import { recipe, RECIPES, type Recipe, type RecipeName } from "../train/recipes.ts";
import type { RenderMode } from "../types.ts";
import { EXIT, UsageError, intOption, listOption, parse, type Command } from "./command.ts";
import { checkOutputFile } from "./output-path.ts";
import { progress } from "../batch/progress.ts";

/** Default folds of the site-grouped cross-validation. */
export const DEFAULT_FOLDS = 5;
/** Domains (with their page counts) named when none is large enough for --domain-experiment. */
const LARGEST_DOMAINS_NAMED = 5;
const KIND_ALIASES: Record<string, ClassifierKind> = {
  gbdt: "gbdt",
  rf: "rf",
  "hist-rf": "rf",
  "ml-rf": "ml-rf",
  mlp: "mlp",
  seq: "seq",
};

const HELP = `Usage: pith train --data SETS --out FILE [options]

Train the learned pipeline (content + segment classifiers, page-type router and per-type
models) on labeled sets, report site-grouped cross-validation, write a model artifact.

Options:
  --data SETS        comma-separated set names ($PITH_DATA, data/, ../shared/data) or folders
  --out FILE         where to write the model JSON (required, except with --domain: then
                     MODEL-DIR/domains/HOST.json, or HOST.chromium.json with --mode chromium,
                     where pith extract finds it)
  --model-dir DIR    model directory for --domain models without --out (default: models/)
  --genre TYPES      keep only these page types (article, forum, product, …; news/blog = article)
  --domain HOST      train a per-domain model from that site's pages (use it with pith export)
  --model KIND       gbdt (default), rf (histogram random forest), ml-rf, mlp, seq (a
                     TensorFlow.js 1-D convolution over each page's leaf blocks in document
                     order); npm run compare:models compares them on the same folds
  --bags N           gbdt: average N boosters per classifier, each from its own seed (default 1).
                     More accurate and slower: 3 bags gave +0.002 held-out word F1 over the
                     training sets (harvest-forums +0.016), 2.4× the training time and 17 %
                     fewer pages/s in pith extract (docs/experiments.md)
  --recipe NAME      the training choices of a method's model: louvan (the model of pith extract
                     --method louvan: random forests for the segment and content classifiers,
                     article and forum models, LBS / TP fixed, no context stage; src/train/recipes.ts).
                     It sets --model, --borrow, --no-segment, --no-context and --no-types itself
  --mode MODE        static (default) or chromium: chromium first renders every page without a
                     cached render with headless Chromium (JS off, offline, 15 s per page) into
                     data/cache/snapshots/chromium/, then trains on the rendered pages; the
                     model only loads in pith extract --mode chromium
  --folds K          site-grouped CV folds: 0 (no CV) or ≥ 2 (default ${DEFAULT_FOLDS})
  --no-types         no per-type models and no router (one general model; not with --domain,
                     whose model is one already)
  --borrow           page types with few pages also train on other types' pages (npm run
                     train:default does; src/train/fit.ts BORROW_*); not with --no-types or
                     --domain, which train no per-type model
  --no-segment       no segment classifier
  --no-context       no context stage (a second classifier that rescores each leaf from the
                     first one's scores around it, trained on the CV's out-of-fold scores;
                     on by default except with --domain); not with --domain or --folds 0,
                     which train none
  --site-features    fill the site features (template occurrence counts, block IBDF) of each page
                     of a site with at least 3 labeled pages from up to 8 of its other pages, as
                     pith extract --site-features on does on a batch: a site-aware model for
                     --site-model (with --domain: a per-domain model that reads them)
  --min-site-pages N keep only pages whose site has at least N labeled pages in the sets
  --seed N           random seed (default ${DEFAULT_SEED})
  --workers N        threads for feature extraction, classifier fits and evaluation (default:
                     all cores; with 1, classifiers fit in this thread, using less memory)
  --name NAME        model name shown by pith extract (default: the --out file's base name)
  --json             print the report as JSON, with every held-out page's word F1 per variant
                     (not with --folds 0, which makes no report)
  --domain-experiment N
                     instead of training: for every domain with ≥ 1.5N pages (with --domain: that
                     domain; with --genre: pages of those types), fit a per-domain model on N
                     pages and compare it on up to N others with --baseline (default: the bundled
                     model); no such domain is a usage error
  --baseline FILE    baseline model for --domain-experiment
  --prepare          only compute and cache the feature tables of --data (and, with --mode
                     chromium, the renders), then exit; takes only --data, --mode, --workers,
                     --site-features

Feature tables are cached under data/cache/, so retraining skips feature extraction; chromium
renders are cached separately, so a feature change does not render again.

A labeled page whose HTML is missing or unreadable (or has no chromium render) is skipped, and
one whose held-out end-to-end evaluation fails counts in no figure; each is reported on stderr
as error<TAB>set/page<TAB>stage<TAB>reason (stage features or evaluate), also when its set's
features come from the cache. Pages without a gold file are left out and named, as in evaluate.
An option that the others make meaningless (one the run would ignore) is a usage error.
Exit codes: 0 every labeled page was used, 1 some pages were skipped or failed (the model, the
report, the cache or the experiment's table is still written), 2 usage error, 3 fatal.`;

function fmt(x: number): string {
  return x.toFixed(3);
}

export function formatReport(r: CvReport): string {
  const lines = [`cross-validation: ${r.folds} site-grouped folds, ${r.pages} pages, ${r.sites} sites`];
  const c = r.content;
  lines.push(
    `content classifier (out-of-fold, word-weighted): ` +
      `P ${fmt(c.precision)} R ${fmt(c.recall)} F1 ${fmt(c.f1)} AUC ${fmt(c.auc)}`,
  );
  const thresholds = (t: Record<string, number>): string =>
    Object.entries(t)
      .map(([k, v]) => `${k} ${v.toFixed(3)}`)
      .join(", ");
  if (r.context) {
    const lost = `not shipped (lost to the pipeline without it; every column but ${WITH_CONTEXT} is without it)`;
    lines.push(
      `context stage: ${r.context.shipped ? "shipped" : lost}; thresholds ${thresholds(r.context.thresholds)}`,
    );
  }
  lines.push(
    `thresholds: ${thresholds(r.thresholds)}; refiners: ${JSON.stringify(r.refiners)}; ` +
      `on the general model: ${JSON.stringify(r.generalFor ?? [])}`,
  );
  const variants = Object.keys(r.endToEnd);
  lines.push(
    `end-to-end word F1 on held-out sites:`,
    `  ${"group".padEnd(30)} ${"pages".padStart(5)}  ${variants.map((v) => v.padStart(12)).join(" ")}`,
  );
  for (const g of Object.keys(r.endToEnd[variants[0] as string] ?? {})) {
    const pages = r.endToEnd[variants[0] as string]?.[g]?.pages ?? 0;
    const f1s = variants.map((v) => fmt(r.endToEnd[v]?.[g]?.f1 ?? NaN).padStart(12));
    lines.push(`  ${g.padEnd(30)} ${String(pages).padStart(5)}  ${f1s.join(" ")}`);
  }
  lines.push(`routing (true type → routed): ${JSON.stringify(r.routedAs)}`);
  return lines.join("\n");
}

/** What --domain-experiment reads of the flags. */
interface ExperimentFlags {
  data?: string | undefined;
  "domain-experiment"?: string | undefined;
  baseline?: string | undefined;
  seed?: string | undefined;
  domain?: string | undefined;
  genre?: string | undefined;
  workers: number;
}

/** The Markdown table of a domain experiment: a row per domain and their mean. */
function experimentTable(results: readonly DomainResult[]): string[] {
  const mean = (f: (r: DomainResult) => number): number =>
    results.reduce((a, r) => a + f(r), 0) / (results.length || 1);
  const signed = (x: number): string => (x >= 0 ? "+" : "") + fmt(x);
  const lines = [
    "| domain | train pages | test pages | baseline F1 | domain model F1 | blended F1 | lift (blended) | train s |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const r of results)
    lines.push(
      `| ${r.domain} | ${r.trainPages} | ${r.testPages} | ${fmt(r.baseline)} | ${fmt(r.domainModel)} ` +
        `| ${fmt(r.blended)} | ${signed(r.blended - r.baseline)} | ${r.seconds.toFixed(1)} |`,
    );
  lines.push(
    `| mean | | | ${fmt(mean((r) => r.baseline))} | ${fmt(mean((r) => r.domainModel))} ` +
      `| ${fmt(mean((r) => r.blended))} | ${signed(mean((r) => r.blended - r.baseline))} ` +
      `| ${mean((r) => r.seconds).toFixed(1)} |`,
  );
  return lines;
}

/** A usage error when no domain of `records` has enough pages for an experiment with N = n. */
function requirePublishers(records: readonly PageRecord[], n: number): void {
  if (publishers(records, n).size) return;
  // an empty table with a mean of zeros read as a result; the sets cannot run this experiment at this N
  const largest = largestPublishers(records, LARGEST_DOMAINS_NAMED)
    .map(([d, k]) => `${d} (${k})`)
    .join(", ");
  throw new UsageError(
    `train: --domain-experiment ${n}: no domain has at least ${Math.ceil(MIN_PAGES_FACTOR * n)} ` +
      `labeled pages (${MIN_PAGES_FACTOR}×N); largest: ${largest || "none"}`,
  );
}

/** pith train --domain-experiment N: prints the per-domain table; returns the exit code. */
async function runDomainExperiment(values: ExperimentFlags): Promise<number> {
  const datasets = listOption(values.data);
  if (!datasets.length) throw new UsageError("train: --domain-experiment needs --data SETS");
  const n = intOption("train", "domain-experiment", values["domain-experiment"], 20);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(
      `train: --domain-experiment expects a whole number of training pages ≥ 1, ` +
        `got "${values["domain-experiment"]}"`,
    );
  const log = (s: string): void => void process.stderr.write(`${s}\n`);
  const {
    records: all,
    dirs,
    skipped,
  } = await loadAll({ datasets, mode: "static", ...(values.workers > 0 ? { workers: values.workers } : {}) });
  const filters = { genres: listOption(values.genre), domain: values.domain ?? null };
  const records = filterRecords(all, filters); // only these pages' domains take part
  requirePublishers(records, n);
  const config: FitConfig = {
    kind: "gbdt",
    params: {},
    seed: intOption("train", "seed", values.seed, DEFAULT_SEED),
    perType: false,
    segment: false,
  };
  const results = await domainExperiment(
    records,
    dirs,
    n,
    values.baseline ?? defaultModelPath("static"),
    config,
    log,
  );
  process.stdout.write(experimentTable(results).join("\n") + "\n");
  return reportFailures(skipped.filter((p) => keptBy(p, filters)));
}

/**
 * Each page the run could not use as one error record on stderr (the README's format);
 * EXIT.pageErrors when there is one.
 */
export function reportFailures(failures: readonly PageFailure[]): number {
  for (const f of failures)
    process.stderr.write(`error\t${f.dataset}/${f.id}\t${f.stage}\t${f.reason.replace(/\s+/g, " ")}\n`);
  return failures.length ? EXIT.pageErrors : EXIT.ok;
}

/** What --prepare reads; it writes no model, so any training option given with it would be ignored. */
const PREPARE_OPTIONS = ["prepare", "data", "mode", "workers", "site-features"];
/** What --domain-experiment reads (static renders, gbdt, no model written). */
const EXPERIMENT_OPTIONS = ["domain-experiment", "data", "baseline", "seed", "domain", "genre", "workers"];

/**
 * Options that another option makes meaningless (src/train/train.ts: a --domain model has no
 * per-type models and no context stage; the context stage and the report come from the
 * cross-validation): [option, the option that voids it, why]. Each would be silently ignored
 * (--borrow would still be recorded in the model's hyper-parameters), so the pair is a usage error.
 */
const VOIDED: readonly (readonly [option: string, by: string, why: string])[] = [
  ["borrow", "no-types", "it lends pages to the per-type models, and --no-types trains none"],
  ["borrow", "domain", "it lends pages to the per-type models, and a --domain model has none"],
  ["no-types", "domain", "a --domain model is one general model already"],
  ["no-context", "domain", "a --domain model has no context stage already"],
  [
    "no-context",
    "folds 0",
    "the context stage trains on cross-validation scores, and --folds 0 runs no cross-validation",
  ],
  ["json", "folds 0", "it prints the cross-validation report, and --folds 0 makes none"],
];

/** A usage error for the first option given that another given option makes meaningless (VOIDED). */
function refuseVoided(values: Record<string, unknown>, folds: number): void {
  const given = (flag: string): boolean => (flag === "folds 0" ? folds === 0 : Boolean(values[flag]));
  const voided = VOIDED.find(([option, by]) => given(option) && given(by));
  if (voided) throw new UsageError(`train: --${voided[0]} does nothing with --${voided[1]}: ${voided[2]}`);
}

/** A usage error naming every option given that `job` does not read (it would be silently ignored). */
function refuseUnread(
  values: Record<string, unknown>,
  reads: readonly string[],
  job: string,
  why: string,
): void {
  const unread = Object.keys(values).filter((k) => values[k] !== undefined && !reads.includes(k));
  if (unread.length)
    throw new UsageError(`train: ${job} does not take ${unread.map((k) => `--${k}`).join(", ")} (${why})`);
}

export const trainCommand: Command = {
  name: "train",
  help: HELP,
  async run(argv) {
    try {
      return await runTrain(argv);
    } catch (e) {
      // a set that is not there or not labeled, an unknown domain, no page left: the user's to fix
      if (e instanceof TrainError || e instanceof DatasetError) throw new UsageError(`train: ${e.message}`);
      throw e;
    }
  },
};

/** pith train's flags. */
const FLAGS = {
  data: { type: "string" },
  out: { type: "string" },
  genre: { type: "string" },
  domain: { type: "string" },
  model: { type: "string" },
  mode: { type: "string" },
  folds: { type: "string" },
  "no-types": { type: "boolean" },
  borrow: { type: "boolean" },
  "no-segment": { type: "boolean" },
  "no-context": { type: "boolean" },
  seed: { type: "string" },
  workers: { type: "string" },
  name: { type: "string" },
  json: { type: "boolean" },
  "model-dir": { type: "string" },
  "domain-experiment": { type: "string" },
  baseline: { type: "string" },
  prepare: { type: "boolean" },
  bags: { type: "string" },
  "site-features": { type: "boolean" },
  "min-site-pages": { type: "string" },
  recipe: { type: "string" },
} as const;

/** pith train's parsed flags. */
type TrainFlags = ReturnType<typeof parse<typeof FLAGS>>["values"];

/** pith train --prepare: caches the feature tables of --data; returns the exit code. */
async function runPrepare(values: TrainFlags, mode: RenderMode, workers: number): Promise<number> {
  refuseUnread(values, PREPARE_OPTIONS, "--prepare", "it only caches feature tables and writes no model");
  const datasets = listOption(values.data);
  if (!datasets.length) throw new UsageError("train: --prepare needs --data SETS");
  const { records, skipped } = await loadAll({
    datasets,
    mode,
    ...(workers > 0 ? { workers } : {}),
    ...(values["site-features"] ? { siteFeatures: true } : {}),
  });
  process.stderr.write(`cached feature tables of ${records.length} pages\n`);
  return reportFailures(skipped);
}

/** The model file to write: --out, else the --domain model's place in --model-dir. */
function outputFile(values: TrainFlags, mode: RenderMode): string {
  if (values["model-dir"] !== undefined && (!values.domain || values.out !== undefined))
    throw new UsageError(
      "train: --model-dir places a --domain model when --out is not given; here it would be ignored",
    );
  if (values.domain) {
    try {
      checkedDomain(values.domain);
    } catch (e) {
      throw new UsageError(`train: --domain: ${(e as Error).message}`);
    }
  }
  const out =
    values.out ??
    (values.domain
      ? domainModelPath(values["model-dir"] ?? BUNDLED_MODEL_DIR, values.domain, mode)
      : undefined);
  if (!out) throw new UsageError("train: --out FILE is required");
  return out;
}

/** The classifier choices of a training run, checked. */
interface ModelChoice {
  kind: ClassifierKind;
  bags: number;
  folds: number;
}

/** Reads and checks --model, --bags and --folds. */
function modelChoice(values: TrainFlags): ModelChoice {
  const kind = KIND_ALIASES[values.model ?? "gbdt"];
  if (!kind) throw new UsageError(`train: --model must be one of ${CLASSIFIER_KINDS.join(", ")}`);
  const bags = intOption("train", "bags", values.bags, 1);
  if (!Number.isInteger(bags) || bags < 1)
    throw new UsageError(`train: --bags expects a whole number ≥ 1, got "${values.bags}"`);
  if (bags > 1 && kind !== "gbdt") throw new UsageError("train: --bags applies to --model gbdt only");
  const folds = intOption("train", "folds", values.folds, DEFAULT_FOLDS);
  // one fold would hold out every site and train on none
  if (!Number.isInteger(folds) || folds < 0 || folds === 1)
    throw new UsageError(
      `train: --folds expects 0 (no cross-validation) or a whole number ≥ 2, got "${values.folds}"`,
    );
  return { kind, bags, folds };
}

/** --site-features and --min-site-pages, checked. */
function siteOptions(values: TrainFlags): { siteFeatures?: boolean; minSitePages?: number } {
  const min = intOption("train", "min-site-pages", values["min-site-pages"], 1);
  if (!Number.isInteger(min) || min < 1)
    throw new UsageError(
      `train: --min-site-pages expects a whole number ≥ 1, got "${values["min-site-pages"]}"`,
    );
  return {
    ...(values["site-features"] ? { siteFeatures: true } : {}),
    ...(min > 1 ? { minSitePages: min } : {}),
  };
}

/** What a recipe sets itself: given beside --recipe, each would be overridden or fight it. */
const RECIPE_SETS = ["model", "bags", "borrow", "no-segment", "no-context", "no-types", "domain"];

/** The recipe --recipe names (null without one); a usage error for an unknown one or a flag it sets. */
function recipeOf(values: TrainFlags): Recipe | null {
  const name = values.recipe;
  if (name === undefined) return null;
  if (!(RECIPES as readonly string[]).includes(name))
    throw new UsageError(`train: --recipe must be one of ${RECIPES.join(", ")}, not "${name}"`);
  const clash = RECIPE_SETS.find((k) => values[k as keyof TrainFlags] !== undefined);
  if (clash)
    throw new UsageError(`train: --${clash} does nothing with --recipe ${name}, which sets it itself`);
  return recipe(name as RecipeName);
}

/** The training options a recipe sets (src/train/recipes.ts). */
function recipeOptions(r: Recipe, name: string): Partial<TrainOptions> {
  return {
    recipe: name,
    kind: r.kind,
    params: r.params,
    perType: true,
    types: r.types,
    borrow: r.borrow,
    segment: r.segment,
    context: r.context,
    variants: r.variants,
    fixed: r.fixed,
  };
}

/** The model's name: --name, else the domain's or the --out file's base name. */
function modelName(values: TrainFlags, out: string): string {
  if (values.name !== undefined) return values.name;
  if (values.domain) return `domain-${domainKey(values.domain)}`;
  return (out.split("/").pop() ?? "model").replace(/\.json$/, "");
}

/** pith train without --prepare or --domain-experiment: trains and writes a model. */
async function runTrain(argv: string[]): Promise<number> {
  const { values } = parse("train", argv, FLAGS);
  const mode = values.mode ?? "static";
  if (mode !== "static" && mode !== "chromium")
    throw new UsageError(`train: --mode must be static or chromium`);
  const workers = intOption("train", "workers", values.workers, 0);
  if (values.prepare) return runPrepare(values, mode, workers);
  if (values["domain-experiment"] !== undefined) {
    refuseUnread(
      values,
      EXPERIMENT_OPTIONS,
      "--domain-experiment",
      "it fits gbdt models on static renders and writes none",
    );
    return runDomainExperiment({ ...values, workers });
  }
  if (values.baseline !== undefined)
    throw new UsageError("train: --baseline is the baseline of --domain-experiment; nothing else reads it");
  const datasets = listOption(values.data);
  if (!datasets.length) throw new UsageError("train: --data SETS is required (e.g. --data wcxb-dev)");
  const chosenRecipe = recipeOf(values);
  const out = outputFile(values, mode);
  const { kind, bags, folds } = modelChoice(values);
  refuseVoided(values, folds);
  await checkOutputFile("train", "--out", out); // before minutes of training, not after
  const bar = progress("features", 0);
  // lines go above the bar while it is drawn (a cached run draws none: no page is computed)
  const log = (s: string): void => bar.note(s);
  const result = await train({
    datasets,
    mode,
    kind,
    params: bags > 1 ? { bags } : {},
    seed: intOption("train", "seed", values.seed, DEFAULT_SEED),
    folds,
    perType: !values["no-types"],
    borrow: values.borrow === true,
    segment: !values["no-segment"],
    ...(values["no-context"] ? { context: false } : {}),
    genres: listOption(values.genre),
    domain: values.domain ?? null,
    ...siteOptions(values),
    name: modelName(values, out),
    log,
    ...(workers > 0 ? { workers } : {}),
    onPage: (_d, done, total) => {
      bar.setTotal(total);
      bar.tick();
      if (done === total) bar.stop();
    },
    ...(chosenRecipe ? recipeOptions(chosenRecipe, values.recipe as string) : {}),
  }).finally(() => bar.stop()); // every path, or the terminal keeps a hidden cursor and the process waits
  await saveModel(out, result.artifact);
  if (values.json) process.stdout.write(JSON.stringify(result.report, null, 2) + "\n");
  else if (result.report) process.stdout.write(formatReport(result.report) + "\n");
  log(`wrote ${out} (${result.records} pages, ${result.seconds.toFixed(1)} s)`);
  return reportFailures(result.failures);
}
