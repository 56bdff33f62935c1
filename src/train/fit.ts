/**
 * Fitting the pipeline's classifiers on PageRecords: the general content classifier (leaf
 * segments → main), the segment classifier (structural nodes with text → good segment,
 * Louvan §2.1), per-page-type content classifiers where a type has enough pages, and the
 * page-type router (one-vs-rest over page-level aggregate features). Histogram GBDT by
 * default (MODELING-NOTES: beat a random forest by 0.015-0.02 word F1); any Classifier kind works.
 */
import { TrainError } from "./errors.ts";
import type { Classifier, ClassifierKind } from "../ml/classifier.ts";
import { createClassifier } from "../ml/kinds.ts";
import { createMatrix, selectIndices, selectRows, type Matrix } from "../ml/matrix.ts";
import { createRng, shuffleInPlace } from "../ml/prng.ts";
import { pageFeatureCount, pageFeatures } from "../pipeline/page-features.ts";
import type { Ownership } from "../pipeline/own-text.ts";
import { buildRows, TRAINING_LEAF_ROWS, TEXT_ROWS, type RowFilter, type RowSet } from "./matrix.ts";
import { fitOnPool } from "./fit-pool.ts";
import type { PageRecord } from "./page-record.ts";
import { pageTypeOf, PAGE_TYPES } from "./page-types.ts";
import type { WorkerPool } from "./pool.ts";

/** A page type gets its own content model only with at least this many training pages. */
export const MIN_TYPE_PAGES = 60;
/** The router learns a type only with at least this many labeled pages. */
export const MIN_ROUTER_PAGES = 40;

/**
 * Borrowed pages: a page type with fewer than BORROW_BELOW training pages (every type but
 * article here: 60-260 pages each) trains its model on its own pages plus up to BORROW_RATIO ×
 * as many pages of other types from the general sets, which together weigh BORROW_SHARE of its
 * own pages. Its model then learns the page structure shared by all types from ~3× the data and
 * the type's own convention from its pages (with ~60 pages a type model lost to the general
 * model on products and listings: models/default-static.cv.txt).
 */
export const BORROW_BELOW = 1000;
export const BORROW_RATIO = 2;
export const BORROW_SHARE = 0.5;

/**
 * The segment classifier trains on one in SEGMENT_ROW_STRIDE structural nodes (chosen by a hash
 * of the row, so no template position is favoured; buildRows renormalises each page's weights
 * over the rows it keeps). All rows made it the costliest fit of training (725k rows, 67 s of a
 * fold's ~90 s), and its smoothing has not shipped in any cross-validation so far.
 */
export const SEGMENT_ROW_STRIDE = 3;
const SEGMENT_ROWS: RowFilter = (rec, r) =>
  TEXT_ROWS(rec, r) && (Math.imul(r + 1, 0x9e3779b1) >>> 0) % SEGMENT_ROW_STRIDE === 0;

/** Hyper-parameters of the default GBDT (GBDT_DEFAULTS otherwise). */
export const DEFAULT_GBDT = {
  nEstimators: 300,
  learningRate: 0.1,
  maxLeaves: 63,
  minSamplesLeaf: 40,
  colsample: 0.8,
  subsample: 0.8,
};
/** Smaller GBDT for the router (a few hundred rows). */
export const ROUTER_GBDT = {
  nEstimators: 150,
  learningRate: 0.08,
  maxLeaves: 15,
  minSamplesLeaf: 5,
  colsample: 0.8,
  validationFraction: 0,
};

/**
 * Classifier kinds that read a page's leaf segments as one sequence (seq.ts): their rows keep
 * every leaf of a page (no SMALL_ROW_STRIDE sampling, which would leave gaps between the menu
 * links and labels a sequence model reads as neighbours).
 */
export function readsSequences(kind: ClassifierKind): boolean {
  return kind === "seq";
}

export interface FitConfig {
  kind: ClassifierKind;
  params: Record<string, unknown>;
  seed: number;
  /** Fit per-type content models and a router. */
  perType: boolean;
  /** Only these page types get their own content model (default: every type with MIN_TYPE_PAGES pages). */
  types?: readonly string[];
  /** Fit the segment classifier. */
  segment: boolean;
  /** Borrow pages of other types for small type models (BORROW_*; default false). */
  borrow?: boolean;
  /**
   * Sets whose pages train the general content model (default: all). The general model gets the
   * pages the router is unsure about, so it can be kept to the sets whose gold keeps every kind of
   * main content (comments, posts, teasers), while the per-type models still learn from every set.
   */
  generalSets?: readonly string[];
  /**
   * Worker threads to fit on (fit-pool.ts): the fits of a stage then run side by side, one per
   * worker. Without it every fit runs in this thread, one after the other. Same model either way.
   */
  pool?: WorkerPool;
  /**
   * At most this many rows per fit: larger row sets are cut to a seeded random sample of rows
   * (kept in page order). For ml-rf, whose fit grows with the square of the rows (ML_RF_MAX_ROWS).
   */
  maxRows?: number;
  /**
   * Fewest trees per classifier ("content", "segment", "content:TYPE"; pipelineClassifiers) that
   * early stopping may keep: the final fit's floor, the cross-validation's fold models' mean
   * (final-trees.ts). A classifier not named stops early as usual.
   */
  trees?: Readonly<Record<string, number>>;
}

/**
 * The GBDT parameters of a final fit whose fold models stopped at `n` trees on average: early
 * stopping keeps at least `n` (final-trees.ts).
 */
export function treeFloor(n: number): Record<string, unknown> {
  return { minEstimators: Math.max(1, Math.round(n)) };
}

/**
 * The classifiers of a fitted pipeline by key ("content", "segment",
 * "content:TYPE"): what FitConfig.trees names.
 */
export function pipelineClassifiers(fitted: FittedPipeline): Map<string, Classifier> {
  const out = new Map<string, Classifier>([["content", fitted.content]]);
  if (fitted.segment) out.set("segment", fitted.segment);
  for (const [t, clf] of fitted.byType) out.set(`content:${t}`, clf);
  return out;
}

export interface FittedPipeline {
  content: Classifier;
  segment: Classifier | null;
  byType: Map<string, Classifier>;
  router: { types: string[]; classifiers: Classifier[] } | null;
}

/**
 * Fits a classifier of the config's kind on `rows`, on the config's pool when it has one; `extra`
 * overrides the config's params.
 */
export async function fitRows(
  rows: RowSet,
  config: Pick<FitConfig, "kind" | "params" | "seed" | "pool" | "maxRows">,
  extra: Record<string, unknown> = {},
): Promise<Classifier> {
  if (config.maxRows !== undefined && rows.y.length > config.maxRows)
    rows = sampleRows(rows, config.maxRows, config.seed);
  const params = config.kind === "gbdt" ? { ...DEFAULT_GBDT, ...config.params, ...extra } : config.params;
  if (config.pool) return fitOnPool(config.pool, rows, config.kind, params, config.seed);
  const clf = await createClassifier(config.kind, params);
  await clf.fit(rows.X, rows.y, {
    weights: rows.w,
    seed: config.seed,
    groups: rows.groups,
    sequences: rows.page,
  });
  return clf;
}

/**
 * Fits every row set, largest first (a free worker then takes the next largest, so the stage
 * ends with small fits), and returns the classifiers in the order of `jobs`.
 */
export function fitAll(
  jobs: readonly RowSet[],
  config: Pick<FitConfig, "kind" | "params" | "seed" | "pool" | "maxRows">,
  extra: readonly (Record<string, unknown> | undefined)[] = [],
): Promise<Classifier[]> {
  const order = jobs
    .map((_, i) => i)
    .sort((a, b) => (jobs[b] as RowSet).X.data.length - (jobs[a] as RowSet).X.data.length);
  const fits = new Array<Promise<Classifier>>(jobs.length);
  for (const i of order) fits[i] = fitRows(jobs[i] as RowSet, config, extra[i]);
  return Promise.all(fits);
}

/** `n` rows of `rows` drawn without replacement with `seed`, in their original order. */
export function sampleRows(rows: RowSet, n: number, seed: number): RowSet {
  const order = shuffleInPlace(Uint32Array.from(rows.y.keys()), createRng(seed));
  const idx = Array.from(order.subarray(0, n)).sort((a, b) => a - b);
  return {
    X: selectRows(rows.X, idx),
    y: selectIndices(rows.y, idx),
    w: selectIndices(rows.w, idx),
    groups: selectIndices(rows.groups, idx),
    sites: rows.sites,
    page: selectIndices(rows.page, idx),
    row: selectIndices(rows.row, idx),
  };
}

/** FNV-1a hash of a string: a stable order for sampling borrowed pages. */
function stableHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * Training pages and page weights of type `t`'s content model (own
 * pages, plus borrowed ones; see BORROW_BELOW).
 */
export function typeTrainingPages(
  records: readonly PageRecord[],
  t: string,
  general: readonly PageRecord[],
  borrow: boolean,
): { pages: PageRecord[]; weights: number[]; borrowed: number } {
  const own = records.filter((r) => pageTypeOf(r) === t);
  if (!borrow || own.length >= BORROW_BELOW) return { pages: own, weights: own.map(() => 1), borrowed: 0 };
  const others = general.filter((r) => pageTypeOf(r) !== t);
  const keyed = others
    .map((r) => ({ r, k: stableHash(`${t}/${r.dataset}/${r.id}`) }))
    .sort((a, b) => a.k - b.k);
  const borrowed = keyed.slice(0, Math.min(keyed.length, BORROW_RATIO * own.length)).map((x) => x.r);
  const w = borrowed.length ? (BORROW_SHARE * own.length) / borrowed.length : 0;
  return {
    pages: [...own, ...borrowed],
    weights: [...own.map(() => 1), ...borrowed.map(() => w)],
    borrowed: borrowed.length,
  };
}

/** Types with enough pages for their own model. */
export function typesWithModels(records: readonly PageRecord[], min = MIN_TYPE_PAGES): string[] {
  return PAGE_TYPES.filter((t) => records.filter((r) => pageTypeOf(r) === t).length >= min);
}

/** What page features read of a record's word ownership. */
export function recordOwnership(rec: PageRecord): Pick<Ownership, "ownWords" | "totalWords"> {
  let total = 0;
  for (let r = 0; r < rec.ownWords.length; r++) total += rec.ownWords[r] as number;
  return { ownWords: rec.ownWords, totalWords: total };
}

/** Page-feature matrix of records (one row per record). */
export function pageMatrix(records: readonly PageRecord[], nCols: number): Matrix {
  const width = pageFeatureCount(nCols);
  const M = createMatrix(records.length, width);
  records.forEach((rec, i) => M.data.set(pageFeatures(rec.values, nCols, recordOwnership(rec)), i * width));
  return M;
}

/** One-vs-rest router over the page types with enough labeled pages. */
export async function fitRouter(
  records: readonly PageRecord[],
  nCols: number,
  seed: number,
): Promise<{ types: string[]; classifiers: Classifier[] } | null> {
  const labeled = records.filter((r) => pageTypeOf(r) !== null);
  const types = PAGE_TYPES.filter(
    (t) => labeled.filter((r) => pageTypeOf(r) === t).length >= MIN_ROUTER_PAGES,
  );
  if (types.length < 2) return null;
  const X = pageMatrix(labeled, nCols);
  const classifiers: Classifier[] = [];
  for (const t of types) {
    const y = Uint8Array.from(labeled, (r) => (pageTypeOf(r) === t ? 1 : 0));
    const clf = await createClassifier("gbdt", ROUTER_GBDT);
    await clf.fit(X, y, { seed, classWeight: "balanced" });
    classifiers.push(clf);
  }
  return { types, classifiers };
}

/** Fits every classifier of the pipeline on `records` (side by side on the config's pool). */
export async function fitPipeline(
  records: readonly PageRecord[],
  nCols: number,
  config: FitConfig,
  log: (s: string) => void = () => {},
): Promise<FittedPipeline> {
  const generalRecords = config.generalSets?.length
    ? records.filter((r) => config.generalSets?.includes(r.dataset))
    : records;
  const jobs: RowSet[] = [
    buildRows(
      generalRecords.length ? generalRecords : records,
      nCols,
      TRAINING_LEAF_ROWS,
      "main",
      !readsSequences(config.kind),
    ),
  ];
  const keys = ["content"];
  log(`content classifier: ${(jobs[0] as RowSet).X.nRows} leaf segments from ${generalRecords.length} pages`);
  if ((jobs[0] as RowSet).X.nRows === 0)
    throw new TrainError(
      `the ${records.length} trainable page(s) hold no leaf segment to train the content classifier on: ` +
        `give more labeled pages`,
    );
  // the segment classifier samples one structural node in
  // SEGMENT_ROW_STRIDE: a handful of tiny pages may give it none
  const segment = config.segment ? buildRows(records, nCols, SEGMENT_ROWS, "good") : null;
  if (segment && segment.X.nRows > 0) {
    jobs.push(segment);
    keys.push("segment");
    log(`segment classifier: ${segment.X.nRows} structural nodes`);
  } else if (segment)
    log("segment classifier: no structural node sampled from so few pages; the model has none");
  const withSegment = segment !== null && segment.X.nRows > 0;
  const types = config.perType
    ? typesWithModels(records).filter((t) => config.types?.includes(t) ?? true)
    : [];
  for (const t of types) {
    const { pages, weights, borrowed } = typeTrainingPages(
      records,
      t,
      generalRecords.length ? generalRecords : records,
      config.borrow === true,
    );
    log(`content classifier for ${t}: ${pages.length} pages (${borrowed} borrowed)`);
    jobs.push(buildRows(pages, nCols, TRAINING_LEAF_ROWS, "main", !readsSequences(config.kind), weights));
    keys.push(`content:${t}`);
  }
  const trees = config.kind === "gbdt" && config.trees ? config.trees : {};
  const extra = keys.map((k) => (trees[k] === undefined ? undefined : treeFloor(trees[k] as number)));
  const [routerFit, fitted] = await Promise.all([
    config.perType ? fitRouter(records, nCols, config.seed) : null,
    fitAll(jobs, config, extra),
  ]);
  const content = fitted[0] as Classifier;
  const segmentClassifier = withSegment ? (fitted[1] as Classifier) : null;
  const byType = new Map(types.map((t, i) => [t, fitted[(withSegment ? 2 : 1) + i] as Classifier]));
  return { content, segment: segmentClassifier, byType, router: routerFit };
}
