/**
 * `pith train` as a library call: labeled sets → cached PageRecords → optional filters (page
 * types, one domain) → site-grouped cross-validation (thresholds, refiner choice, report) →
 * final fit on every page → a pipeline artifact. Deterministic for a given seed.
 */
import { TrainError } from "./errors.ts";
import { featureSchema } from "../features/index.ts";
import { loadDatasets } from "../io/dataset.ts";
import type { TrainingSet } from "../ml/artifact.ts";
import type { ModelArtifact } from "../ml/artifact.ts";
import type { ClassifierKind } from "../ml/classifier.ts";
import { DEFAULT_THRESHOLD, type RefinerName } from "../pipeline/model/model.ts";
import { domainKey } from "../pipeline/model/resolve.ts";
import type { RenderMode } from "../types.ts";
import { pipelineArtifact } from "./artifact.ts";
import { DOMAIN_BLEND_WEIGHT } from "./domain-experiment.ts";
import { loadRecords } from "./cache.ts";
import { crossValidate, type CvReport, type FixedChoices } from "./cv.ts";
import type { Variant } from "./evaluate-page.ts";
import type { ContextModel } from "../pipeline/context/context.ts";
import { DEFAULT_GBDT, fitPipeline, type FitConfig, type FittedPipeline } from "./fit.ts";
import { formatTrees } from "./final-trees.ts";
import { MIN_ALIGNED_GOLD_SHARE, trainable } from "./label-quality.ts";
import type { PageFailure, PageRecord } from "./page-record.ts";

export type { PageFailure } from "./page-record.ts";
import { pageTypeOf } from "./page-types.ts";
import { siteOf } from "./sites.ts";
import { defaultWorkers, WorkerPool } from "./pool.ts";

/** Cross-validation needs at least this many sites per fold. */
export const MIN_SITES_PER_FOLD = 2;

export interface TrainOptions {
  datasets: string[];
  mode: RenderMode;
  kind: ClassifierKind;
  params: Record<string, unknown>;
  seed: number;
  folds: number;
  perType: boolean;
  /** Only these page types get their own content model (FitConfig.types; default every type with enough pages). */
  types?: string[];
  segment: boolean;
  /** The recipe that set these options (`pith train --recipe`), recorded in the model. */
  recipe?: string;
  /** The cross-validation's variants (CvOptions.variants; default DEFAULT_VARIANTS). */
  variants?: Variant[];
  /** A recipe's refiner and segment choices, shipped as they are (CvOptions.fixed). */
  fixed?: FixedChoices;
  /** Small page-type models borrow pages of other types (FitConfig.borrow; default false). */
  borrow?: boolean;
  /** Sets that train the general content model (FitConfig.generalSets; default all). */
  generalSets?: string[];
  /**
   * Train the context stage from the cross-validation's out-of-fold scores (default: when not
   * --domain); it ships when it beat the pipeline without it on the held-out pages, or always
   * with "always" (experiments, tests).
   */
  context?: boolean | "always";
  /** Keep only pages of these page types (article, forum, …; genres news/blog map to article). */
  genres: string[];
  domain: string | null;
  /** Held-out pages for a domain model (page-level folds inside one site). */
  name: string;
  workers?: number;
  log?: (s: string) => void;
  onPage?: (dataset: string, done: number, total: number) => void;
  /** Called with the cross-validation report before the final fit. */
  onReport?: (report: CvReport) => void;
  /**
   * The final fit's GBDTs keep at least the fold models' mean tree count (final-trees.ts;
   * default true); false: each stops early on its own holdout alone.
   */
  finalTrees?: boolean;
}

export { TrainError };

/** A page without a record, with what --genre and --domain read of it (from the set's index). */
export type SkippedPage = PageFailure & Pick<PageRecord, "site" | "pageType" | "genre">;

export interface TrainResult {
  artifact: ModelArtifact;
  report: CvReport | null;
  records: number;
  seconds: number;
  /** Pages skipped or failed (the model was still trained and written without them). */
  failures: PageFailure[];
}

/**
 * Every page of the sets, from the feature cache (computed on first
 * use), and the labeled pages that have no record.
 */
export async function loadAll(
  options: Pick<TrainOptions, "datasets" | "mode" | "workers" | "onPage">,
): Promise<{
  records: PageRecord[];
  sets: TrainingSet[];
  dirs: Map<string, string>;
  skipped: SkippedPage[];
}> {
  const records: PageRecord[] = [];
  const sets: TrainingSet[] = [];
  const dirs = new Map<string, string>();
  const skipped: SkippedPage[] = [];
  for (const ds of loadDatasets(options.datasets)) {
    if (dirs.has(ds.name)) continue; // the same set named twice
    sets.push({ name: ds.name, license: ds.license });
    dirs.set(ds.name, ds.dir);
    const recs = await loadRecords(ds.dir, {
      mode: options.mode,
      ...(options.workers ? { workers: options.workers } : {}),
      onPage: (d, t) => options.onPage?.(ds.name, d, t),
      onSkip: (id, reason) => {
        const page = ds.pages.find((p) => p.id === id);
        skipped.push({
          dataset: ds.name,
          id,
          stage: "features",
          reason,
          site: page ? siteOf(page) : "",
          pageType: page?.pageType ?? "",
          genre: page?.genre ?? "",
        });
      },
    });
    for (const r of recs) records.push(r);
  }
  return { records, sets, dirs, skipped };
}

/**
 * Whether a site (as a set's index names it: maybe Unicode) is the
 * domain (a domainKey) or a sub-domain of it.
 */
function inDomain(site: string, domain: string): boolean {
  const s = site.startsWith("page:") ? site : domainKey(site);
  return s === domain || s.endsWith(`.${domain}`);
}

/** Pages of one domain (the site key or any sub-domain of it). */
export function domainRecords(records: readonly PageRecord[], domain: string): PageRecord[] {
  const d = domainKey(domain);
  return records.filter((r) => inDomain(r.site, d));
}

/**
 * Whether --genre and --domain keep a page (filterRecords, which also refuses a domain without
 * pages).
 */
export function keptBy(
  page: Pick<PageRecord, "site" | "pageType" | "genre">,
  options: Pick<TrainOptions, "genres" | "domain">,
): boolean {
  const genres = options.genres;
  if (genres.length && !genres.includes(pageTypeOf(page) ?? page.genre) && !genres.includes(page.pageType))
    return false;
  return !options.domain || inDomain(page.site, domainKey(options.domain));
}

function knownDomains(records: readonly PageRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) if (!r.site.startsWith("page:")) counts.set(r.site, (counts.get(r.site) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 8);
  return top.map(([d, n]) => `${d} (${n})`).join(", ");
}

/** Applies --genre and --domain. */
export function filterRecords(
  records: PageRecord[],
  options: Pick<TrainOptions, "genres" | "domain">,
): PageRecord[] {
  let out = options.genres.length
    ? records.filter((r) => keptBy(r, { genres: options.genres, domain: null }))
    : records;
  if (options.domain) {
    const d = domainRecords(out, options.domain);
    if (!d.length)
      throw new TrainError(
        `unknown domain "${options.domain}": no labeled page of it in the given sets ` +
          `(sites with most pages: ${knownDomains(out)})`,
      );
    out = d;
  }
  return out;
}

/** Trains a pipeline model (see the header). */
export async function train(options: TrainOptions): Promise<TrainResult> {
  const started = performance.now();
  const { records: all, sets, dirs, skipped } = await loadAll(options);
  const records = filterRecords(all, options);
  if (!records.length)
    throw new TrainError(`no labeled pages left to train on (sets: ${options.datasets.join(", ")})`);
  const workers = options.workers ?? defaultWorkers();
  const pool = workers > 1 ? new WorkerPool(workers) : null;
  try {
    const result = await trainOn(records, sets, dirs, options, pool, started);
    // a skipped page of a type or domain the filters leave out is no failure of this run
    const kept = skipped
      .filter((p) => keptBy(p, options))
      .map(({ dataset, id, stage, reason }): PageFailure => ({ dataset, id, stage, reason }));
    return { ...result, failures: [...kept, ...result.failures] };
  } finally {
    await pool?.close();
  }
}

/** What the cross-validation hands the final fit: its report, context stage, failures and fold trees. */
interface CvOutcome {
  report: CvReport | null;
  context: ContextModel | null;
  failures: PageFailure[];
  trees: Record<string, number>;
}

/** Whether the run trains a context stage (default: when not --domain). */
function contextWanted(options: TrainOptions): boolean {
  return options.context === undefined ? !options.domain : options.context !== false;
}

/** The classifier fits' configuration that `options` ask for. */
function fitConfigOf(options: TrainOptions, pool: WorkerPool | null): FitConfig {
  return {
    kind: options.kind,
    params: options.params,
    seed: options.seed,
    perType: options.perType && !options.domain,
    ...(options.types ? { types: options.types } : {}),
    segment: options.segment,
    borrow: options.borrow === true,
    ...(options.generalSets ? { generalSets: options.generalSets } : {}),
    ...(pool ? { pool } : {}),
  };
}

/** Refuses a run none of whose pages can train, and logs the pages that cannot. */
function checkTrainable(records: PageRecord[], log: (s: string) => void): void {
  const untrainable = records.filter((r) => !trainable(r));
  const share = MIN_ALIGNED_GOLD_SHARE * 100;
  if (untrainable.length === records.length)
    throw new TrainError(
      `none of the ${records.length} labeled pages can train: each has empty gold or holds under ` +
        `${share} % of its gold's words (src/train/label-quality.ts)`,
    );
  if (untrainable.length) {
    const named = untrainable
      .slice(0, 8)
      .map((r) => `${r.dataset}/${r.id}`)
      .join(", ");
    log(
      `label check: ${untrainable.length} of ${records.length} pages have empty gold or hold under ` +
        `${share} % of their gold's words; they are evaluated, not trained on ` +
        `(${named}${untrainable.length > 8 ? ", …" : ""})`,
    );
  }
}

/** The site-grouped cross-validation, when the pages span enough sites (else logs why not). */
async function crossValidateIfPossible(
  records: PageRecord[],
  options: TrainOptions,
  config: FitConfig,
  nCols: number,
  dirs: Map<string, string>,
  log: (s: string) => void,
): Promise<CvOutcome> {
  const sites = new Set(records.map((r) => r.site)).size;
  const none: CvOutcome = { report: null, context: null, failures: [], trees: {} };
  if (options.folds < 2) return none;
  if (sites < options.folds * MIN_SITES_PER_FOLD) {
    log(
      `cross-validation skipped: ${sites} site(s) < ${options.folds * MIN_SITES_PER_FOLD} ` +
        `(folds × ${MIN_SITES_PER_FOLD})`,
    );
    return none;
  }
  const withContext = contextWanted(options);
  const cv = await crossValidate(records, {
    folds: options.folds,
    config,
    nCols,
    mode: options.mode,
    datasetDirs: dirs,
    log,
    context: withContext && options.context === "always" ? "always" : withContext,
    finalTrees: options.finalTrees !== false,
    ...(options.workers ? { workers: options.workers } : {}),
    ...(options.variants ? { variants: options.variants } : {}),
    ...(options.fixed ? { fixed: options.fixed } : {}),
  });
  (options.onReport ?? (() => {}))(cv.report);
  let context = cv.context;
  if (cv.report.context && !cv.report.context.shipped) {
    log("the context stage lost to the pipeline without it on held-out pages: not shipped");
    context = null;
  }
  return { report: cv.report, context, failures: cv.failed, trees: cv.trees };
}

/** The model artifact of a fitted pipeline and its cross-validation. */
function artifactOf(
  options: TrainOptions,
  config: FitConfig,
  fitted: FittedPipeline,
  cv: CvOutcome,
  trainingSets: TrainingSet[],
): ModelArtifact {
  const { report, context } = cv;
  const thresholds = report?.thresholds ?? { general: DEFAULT_THRESHOLD };
  // a recipe's fixed choices ship with or without a cross-validation
  const refiners: Record<string, RefinerName> = report?.refiners ?? options.fixed?.refiners ?? {};
  return pipelineArtifact({
    kind: options.domain ? `domain:${domainKey(options.domain)}` : "pipeline",
    name: options.name,
    mode: options.mode,
    fitted,
    thresholds,
    refiners,
    segmentBlend: report?.segmentBlend ?? options.fixed?.segmentBlend ?? 0,
    ...(options.domain ? { baseWeight: DOMAIN_BLEND_WEIGHT } : {}),
    ...(report ? { routerConfidence: report.routerConfidence } : {}),
    ...(context ? { context } : {}),
    trainingSets,
    hyperParameters: {
      ...(options.recipe ? { recipe: options.recipe } : {}),
      classifier: options.kind,
      ...(options.kind === "gbdt" ? DEFAULT_GBDT : {}),
      ...options.params,
      seed: options.seed,
      folds: options.folds,
      perType: config.perType,
      ...(config.types ? { types: config.types } : {}),
      segment: config.segment,
      borrow: config.borrow,
      context: context !== null,
      genres: options.genres,
      ...(options.generalSets ? { generalSets: options.generalSets } : {}),
    },
    // per-page figures stay out of the artifact
    metrics: report ? { crossValidation: withoutPages(report) } : {},
  });
}

/** Cross-validates and fits the filtered pages of `train` (see the header). */
async function trainOn(
  records: PageRecord[],
  sets: TrainingSet[],
  dirs: Map<string, string>,
  options: TrainOptions,
  pool: WorkerPool | null,
  started: number,
): Promise<TrainResult> {
  const log = options.log ?? (() => {});
  const nCols = featureSchema().names.length;
  const config = fitConfigOf(options, pool);
  const sites = new Set(records.map((r) => r.site)).size;
  checkTrainable(records, log);
  const cv = await crossValidateIfPossible(records, options, config, nCols, dirs, log);
  if (contextWanted(options) && !cv.report)
    log("no context stage: it trains on cross-validation scores (--folds ≥ 2)");
  const fixed = options.finalTrees !== false && Object.keys(cv.trees).length > 0;
  log(
    `final fit on ${records.length} pages from ${sites} sites` +
      `${fixed ? `; at least the folds' mean trees: ${formatTrees(cv.trees)}` : ""}`,
  );
  const fitted = await fitPipeline(records, nCols, fixed ? { ...config, trees: cv.trees } : config, log);
  for (const t of cv.report?.generalFor ?? []) {
    fitted.byType.delete(t); // its routed pages do better on the general model (cv.ts chooseGeneralFor)
    log(`pages routed to ${t} use the general model (it scored higher on their held-out pages)`);
  }
  const trainingSets = sets.filter((s) => records.some((r) => r.dataset === s.name));
  return {
    artifact: artifactOf(options, config, fitted, cv, trainingSets),
    report: cv.report,
    records: records.length,
    seconds: (performance.now() - started) / 1000,
    failures: cv.failures,
  };
}

function withoutPages(report: CvReport): Omit<CvReport, "perPage"> {
  const { perPage: _perPage, ...rest } = report;
  return rest;
}
