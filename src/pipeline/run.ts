/**
 * The learned pipeline on one snapshot (Louvan's content seeker, made concrete):
 *   features (src/features) → page-type router → segment classifier (good-granularity
 *   structural nodes, Louvan §2.1) → content classifier on leaf segments → context stage
 *   (context.ts: rescored from stage-1 scores around each leaf), smoothed within each
 *   predicted segment (§2.2) → rules → per-type refiner (LBS for articles/blogs, TP for forums,
 *   §2.3) → the kept leaf segments coalesced into node roots → text.
 * Pure given a loaded model; every keep/drop decision is traced with its score.
 */
import { buildTree, type Tree } from "../dom/tree.ts";
import { textOf } from "../dom/text.ts";
import { computeFeatures } from "../features/index.ts";
import { revealMarkupHidden } from "./hidden-text.ts";
import {
  lexiconFeatures,
  pageLexicon,
  strongestToken,
  type ClassLexicon,
  type PageLexicon,
  type RowTokens,
} from "./context/class-lexicon.ts";
import { rowHeadingTokens } from "./context/heading-lexicon.ts";
import { rowPathSignatures } from "./context/path-signature.ts";
import { applyContext, leafRows, samePathLeaves } from "./context/context.ts";
import { matrixFromData, selectRows } from "../ml/matrix.ts";
import type { Extraction, PageSnapshot, TraceEntry } from "../types.ts";
import type { PipelineModel } from "./model/model.ts";
import type { Classifier } from "../ml/classifier.ts";
import { selectColumns } from "./columns.ts";
import { ownership, type Ownership } from "./own-text.ts";
import { pageFeatures } from "./page-features.ts";
import { defaultRefiner, documentationProbability } from "./documentation.ts";
import { applyRefiner } from "../refine/index.ts";
import { SEGMENT_BLEND, segmentOf, smoothScores } from "./segments.ts";
import { noticeOf } from "./rules/fallback.ts";
import { applyRules } from "./rules/index.ts";
import type { Bias, RunOptions } from "./options.ts";
import { coalesce } from "./select.ts";
import { traceTarget } from "./trace.ts";
import { codeScripts } from "../dom/no-text.ts";

export const METHOD = "ml";
export { TRACE_TEXT_CHARS } from "./trace.ts";
/**
 * At most this many trace entries per step (classifier, rules,
 * refiner): the largest pages stay cheap to trace.
 */
export const MAX_TRACE_ENTRIES = 2000;
/** Router label when no page-type model is confident enough. */
export const GENERAL = "general";

/**
 * How far `bias` moves each routed type's tuned threshold (precision: up, recall: down), like
 * trafilatura's favor_precision / favor_recall. Measured on held-out pages by the CV variants of
 * the same names (src/train/cv.ts).
 */
export const BIAS_OFFSET = 0.1;

/** The threshold a page is decided at: the tuned one, moved by the bias (kept inside (0, 1)). */
function biased(threshold: number, bias: Bias | undefined): number {
  if (!bias) return threshold;
  const t = threshold + (bias === "precision" ? BIAS_OFFSET : -BIAS_OFFSET);
  return Math.min(0.99, Math.max(0.01, t));
}

/** Everything the run decided, for the extractor and for training-time evaluation. */
export interface RunResult {
  extraction: Extraction;
  pageType: string;
  /** P(main) per table row (NaN for rows without own words). */
  scores: Float32Array;
}

/** The page type whose model applies, or GENERAL. */
export function routePage(model: PipelineModel, values: Float32Array, nCols: number, own: Ownership): string {
  return routeOf(model, routerProbabilities(model, values, nCols, own));
}

/** The router's one-vs-rest probability of each page type, or null when the model has no router. */
export function routerProbabilities(
  model: PipelineModel,
  values: Float32Array,
  nCols: number,
  own: Ownership,
): Map<string, number> | null {
  const router = model.router;
  if (!router || router.types.length === 0) return null;
  const feats = pageFeatures(values, nCols, own);
  const x = matrixFromData(feats, 1, feats.length);
  return new Map(
    router.types.map((t, k) => [t, (router.classifiers[k] as Classifier).predictProba(x)[0] as number]),
  );
}

/** The routed type of the router's probabilities: the most likely one that reaches the router's confidence. */
function routeOf(model: PipelineModel, probabilities: ReadonlyMap<string, number> | null): string {
  const router = model.router;
  if (!router || !probabilities) return GENERAL;
  return mostLikelyType(
    router.types,
    (k) => probabilities.get(router.types[k] as string) ?? 0,
    router.minConfidence,
  );
}

/** The type with the highest one-vs-rest probability, when it reaches `minConfidence`; else GENERAL. */
export function mostLikelyType(
  types: readonly string[],
  probability: (k: number) => number,
  minConfidence: number,
): string {
  let best = GENERAL;
  let bestP = minConfidence;
  types.forEach((t, k) => {
    const p = probability(k);
    if (p >= bestP) {
      bestP = p;
      best = t;
    }
  });
  return best;
}

/**
 * Why a snapshot run here directly (runPipeline, training's evaluation) without a word to classify is empty.
 */
const NO_WORDS = "no visible word to classify";

function empty(reason: string, model: string): Extraction {
  return { method: METHOD, text: "", nodes: [], scores: [], model, trace: [], emptyReason: reason };
}

/**
 * A per-domain model's scores averaged with its base model's, each measured from its own
 * threshold (so the blend keeps the domain model's threshold meaning). Needs the same features.
 * The base's stage-1 scores, not its context stage's: blending the context-stage scores lifted
 * dragnet's publishers less (10 training pages each, baseline trained without dragnet).
 */
function blendWithBase(
  model: PipelineModel,
  threshold: number,
  scores: Float32Array,
  table: Table,
  own: Ownership,
  nCols: number,
): Float32Array {
  const base = model.base?.model;
  if (!model.base || !base || base.artifact.featureSchema.hash !== model.artifact.featureSchema.hash)
    return scores;
  const baseContent = base.byType.get(routePage(base, table.values, nCols, own)) ?? base.general;
  const b = scoreLeaves(baseContent.classifier, table.values, nCols, own);
  const w = model.base.weight;
  return Float32Array.from(
    scores,
    (s, r) => w * s + (1 - w) * ((b[r] as number) - baseContent.threshold + threshold),
  );
}

/** P(main) for every row that owns words (leaf segments); NaN elsewhere. */
export function scoreLeaves(
  classifier: Classifier,
  values: Float32Array,
  nCols: number,
  own: Pick<Ownership, "ownWords">,
): Float32Array {
  const n = own.ownWords.length;
  const leaves = leafRows(own);
  const scores = new Float32Array(n).fill(NaN);
  if (!leaves.length) return scores;
  const p = classifier.predictProba(selectRows(matrixFromData(values, n, nCols), leaves));
  leaves.forEach((r, k) => (scores[r] = p[k] as number));
  return scores;
}

/** What the run decided of each row: final scores, the rows kept, the threshold they were decided at. */
interface Kept {
  scores: Float32Array;
  keep: Uint8Array;
  threshold: number;
}

/**
 * The content classifier's trace entries. When the context stage replaced its scores (`stage.stageOne`),
 * each reason shows both, the leaf's class token and section-heading token that the context stage's
 * lexicons weigh most, and how many other leaves share its tag/class path with their stage-1 mean
 * (context.ts samePathLeaves).
 */
function traceOf(at: PageRun, stage: Scored, decided: Kept): TraceEntry[] {
  const { page, tree, own } = at;
  const nodes = at.table.nodes;
  const { scores, keep, threshold } = decided;
  const stageOne = stage.contextRan ? stage.stageOne : null;
  const { lexicon, heading, paths } = stage;
  const first = { scores: stage.stageOne, threshold: stage.stageOneThreshold, own };
  const headingOf = heading ? (r: number) => strongestToken(heading.lexicon, heading.tokens, r) : null;
  const samePath = paths ? samePathLeaves(first, paths) : null;
  const out: TraceEntry[] = [];
  for (let r = 0; r < nodes.length && out.length < MAX_TRACE_ENTRIES; r++) {
    if ((own.ownWords[r] as number) === 0) continue;
    const node = nodes[r] as number;
    const s = scores[r] as number;
    const kept = keep[r] === 1;
    const token = lexicon?.strongest(r) ?? null;
    const head = headingOf?.(r) ?? null;
    const same = samePath?.(r) ?? null;
    const why =
      (token ? `, class token ${token.token} ${signed(token.weight)}` : "") +
      (head ? `, heading token ${head.token} ${signed(head.weight)}` : "") +
      (same ? `, ${same.n} same-path ${same.n === 1 ? "leaf" : "leaves"} at ${same.mean.toFixed(3)}` : "");
    const both = stageOne
      ? ` (content classifier ${(stageOne[r] as number).toFixed(3)}, context stage ${s.toFixed(3)}${why})`
      : "";
    const score = `P(main)=${s.toFixed(3)} ${s >= threshold ? "≥" : "<"} ${threshold.toFixed(3)}`;
    // a keep below the threshold, or a drop above it, was a rule's or
    // the refiner's (their own entries say which)
    const reason =
      (kept === s >= threshold ? score : `${score}, ${kept ? "kept" : "removed"} by a rule or the refiner`) +
      both;
    const { path, text } = traceTarget(page, tree, node);
    out.push({
      step: "content-classifier",
      node,
      path,
      action: kept ? "keep" : "drop",
      reason,
      text,
      score: s,
    });
  }
  return out;
}

/** A lexicon weight with its sign: "+1.25", "−4.36". */
function signed(weight: number): string {
  return `${weight >= 0 ? "+" : "−"}${Math.abs(weight).toFixed(2)}`;
}

/**
 * The snapshot as `model` reads it: with markup-hidden text when it was
 * trained so (hidden-text.ts) and the run allows it.
 */
export function modelView(model: PipelineModel, page: PageSnapshot, options: RunOptions = {}): PageSnapshot {
  return model.hiddenText && options.hiddenText !== false ? revealMarkupHidden(page) : page;
}

/**
 * Runs the pipeline on one snapshot with a loaded model (a command runs it through
 * src/extractors.ts runExtractor, with the page-level checks).
 */
export function runPipeline(
  model: PipelineModel,
  snapshot: PageSnapshot,
  options: RunOptions = {},
): RunResult {
  const page = modelView(model, snapshot, options);
  const tree = buildTree(page);
  const { table, own } = modelTable(model, page, tree, options);
  const run = runOnTable(model, page, tree, table, options, own);
  if (page !== snapshot) run.extraction.view = page;
  return run;
}

/**
 * The feature table `model` reads of a page (its columns) and the rows' word ownership. The classifiers
 * read only the rows that own words (scoreLeaves, routePage, the context stage): only those are filled,
 * unless a blended segment model reads every row (segmentOf) or `everyRow` asks for all of them.
 */
export function modelTable(
  model: PipelineModel,
  page: PageSnapshot,
  tree: Tree,
  options: RunOptions = {},
  everyRow = false,
): { table: Table; own: Ownership } {
  let own: Ownership | undefined;
  const fillRows =
    everyRow || segmentBlendOf(model, options) > 0
      ? undefined
      : (rows: Int32Array, nodeWords: Int32Array): Uint8Array => {
          own = ownership(page, tree, rows, nodeWords);
          const words = own.ownWords;
          const owns = new Uint8Array(words.length);
          for (let r = 0; r < words.length; r++) owns[r] = words[r]! > 0 ? 1 : 0;
          return owns;
        };
  const site = options.site;
  const table = computeFeatures(page, tree, {
    ...(options.lang ? { lang: options.lang } : {}),
    ...(site ? { site: { ...site, pages: site.pages.map((p) => modelView(model, p, options)) } } : {}),
    ...(fillRows ? { fillRows } : {}),
  });
  const nCols = table.schema.names.length;
  const values = model.columns
    ? selectColumns(table.values, table.nodes.length, nCols, model.columns)
    : table.values;
  return {
    table: { nodes: table.nodes, values, nCols: model.columns ? model.columns.length : nCols },
    own: own ?? ownership(page, tree, table.nodes),
  };
}

/** A feature table without its schema (e.g. read back from the training cache). */
export interface Table {
  nodes: Int32Array;
  values: Float32Array;
  nCols: number;
}

/** The pipeline after the feature stage (training-time evaluation reuses cached tables). */
export function runOnTable(
  model: PipelineModel,
  page: PageSnapshot,
  tree: Tree,
  table: Table,
  options: RunOptions = {},
  known?: Ownership,
): RunResult {
  const own = known ?? ownership(page, tree, table.nodes);
  const n = table.nodes.length;
  // runExtractor (src/extractors.ts) has already turned a feed or a
  // page without a visible word into an empty extraction
  if (own.totalWords === 0 || n === 0)
    return { extraction: empty(NO_WORDS, model.name), pageType: GENERAL, scores: new Float32Array(n) };
  const at: PageRun = { page, tree, table, own };
  const { pageType, pDocumentation, stage, scores, threshold } = decideScores(model, at, options);
  const keep = new Uint8Array(n);
  for (let r = 0; r < n; r++) keep[r] = (scores[r] as number) >= threshold ? 1 : 0;
  const ruleTrace =
    options.rules === false
      ? []
      : applyRules({ page, tree, nodes: table.nodes, own, scores, keep, pageType, options });
  const refiner =
    options.refiner ??
    options.refinerFor?.(pageType) ??
    model.refiners[pageType] ??
    defaultRefiner(pDocumentation, options);
  const refined = applyRefiner(refiner, { page, tree, nodes: table.nodes, own, keep }, { scores, threshold });
  const rootRows = coalesce(table.nodes, own, refined.keep);
  const nodes = rootRows.map((r) => table.nodes[r] as number);
  const text = textOf(page, tree, nodes, { preformatted: true, tableRows: true });
  const trace =
    options.trace === false
      ? []
      : [
          ...ruleTrace.slice(0, MAX_TRACE_ENTRIES),
          ...refined.trace.slice(0, MAX_TRACE_ENTRIES),
          ...traceOf(at, stage, { scores, keep: refined.keep, threshold }),
        ];
  const extraction: Extraction = {
    method: METHOD,
    text,
    nodes,
    scores: rootRows.map((r) => meanScore(r, own, scores)),
    model: model.name,
    trace,
  };
  if (!text)
    extraction.emptyReason = emptyReason(
      at,
      threshold,
      `${pageType} model${stage.contextRan ? " and context stage" : ""}`,
    );
  return { extraction, pageType, scores };
}

/** The scores a run decides on, before the rules and the refiner (runOnTable; `pith predict`). */
export interface Decided {
  /** The routed page type (or the one the options force). */
  pageType: string;
  /** The router's P(documentation): 1 / 0 when the options force the page type (documentation.ts). */
  pDocumentation: number;
  stage: Scored;
  /** P(main) per row after the context stage and the segment smoothing (NaN for rows without own words). */
  scores: Float32Array;
  /** The threshold the rows are kept at: the routed type's tuned one, moved by the bias. */
  threshold: number;
}

/** Routes the page and scores its leaves: the content classifier, the context stage, the segment smoothing. */
export function decideScores(model: PipelineModel, at: PageRun, options: RunOptions = {}): Decided {
  const { table, own } = at;
  const nCols = table.nCols;
  const probabilities =
    options.pageType === undefined ? routerProbabilities(model, table.values, nCols, own) : null;
  const pageType = options.pageType ?? routeOf(model, probabilities);
  const stage = scorePage(model, at, pageType, options);
  const threshold = biased(stage.threshold, options.bias);
  const blend = segmentBlendOf(model, options);
  const scores =
    model.segment && blend > 0
      ? smoothScores(stage.scores, segmentOf(model.segment, table.values, nCols, own), own, blend)
      : stage.scores;
  const pDocumentation = documentationProbability(options.pageType, probabilities);
  return { pageType, pDocumentation, stage, scores, threshold };
}

/** The segment smoothing weight of this run: the model's, unless `options.segments` says otherwise. */
function segmentBlendOf(model: PipelineModel, options: RunOptions): number {
  if (!model.segment || options.segments === "off") return 0;
  if (options.segmentBlend !== undefined) return options.segmentBlend;
  return options.segments === "on" ? model.segmentBlend || SEGMENT_BLEND : model.segmentBlend;
}

/** One page in the pipeline: its snapshot, tree, feature table and word ownership. */
export interface PageRun {
  page: PageSnapshot;
  tree: Tree;
  table: Table;
  own: Ownership;
}

/** A page's scores before the rules: the content classifier's, then the context stage's, and what the trace reports. */
export interface Scored {
  /** The content classifier's scores (blended with the base model's: blendWithBase). */
  stageOne: Float32Array;
  /** The content model's threshold. */
  stageOneThreshold: number;
  /** Whether the context stage rescored the leaves. */
  contextRan: boolean;
  /** The context stage's scores and its tuned threshold, or stage one's when it did not run. */
  scores: Float32Array;
  threshold: number;
  lexicon: PageLexicon | null;
  heading: { lexicon: ClassLexicon; tokens: RowTokens } | null;
  paths: Uint32Array | null;
}

/**
 * Scores a page's leaves with the content model of `pageType`, then with the context stage when the model
 * has one and the run allows it.
 */
function scorePage(model: PipelineModel, at: PageRun, pageType: string, options: RunOptions): Scored {
  const { page, tree, table, own } = at;
  const nCols = table.nCols;
  const content = model.byType.get(pageType) ?? model.general;
  const stageOne = blendWithBase(
    model,
    content.threshold,
    scoreLeaves(content.classifier, table.values, nCols, own),
    table,
    own,
    nCols,
  );
  // a routed type without its own model runs on the general one: the context stage sees it as general
  const contextType = model.byType.has(pageType) ? pageType : GENERAL;
  const context = options.context === false ? undefined : model.context;
  const lexicon = context?.lexicon
    ? pageLexicon(context.lexicon, page, tree, table.nodes, own.ownWords)
    : null;
  const heading = context?.headingLexicon
    ? { lexicon: context.headingLexicon, tokens: rowHeadingTokens(page, tree, table.nodes, own.ownWords) }
    : null;
  const headings = heading ? lexiconFeatures(heading.lexicon, heading.tokens) : null;
  const paths = context ? rowPathSignatures(page, tree, table.nodes) : null;
  const { scores, threshold } = context
    ? applyContext(context, {
        scores: stageOne,
        threshold: content.threshold,
        pageType: contextType,
        own,
        values: table.values,
        nCols,
        lexicon: lexicon?.features ?? null,
        headings,
        paths,
      })
    : { scores: stageOne, threshold: content.threshold };
  const contextRan = context !== undefined;
  return {
    stageOne,
    stageOneThreshold: content.threshold,
    contextRan,
    scores,
    threshold,
    lexicon,
    heading,
    paths,
  };
}

/** Why a run kept nothing (`models`: the models that scored it): a notice page, or no leaf at the threshold. */
function emptyReason(at: PageRun, threshold: number, models: string): string {
  const { page, tree, own } = at;
  const notice = noticeOf(page, tree, own);
  return notice
    ? `a notice page ("${notice}"), not content${scriptHint(page, notice)}`
    : `no segment reached P(main) ≥ ${threshold.toFixed(3)} (${models})`;
}

/**
 * An app shell's <noscript> says "enable JavaScript" (create-react-app's default): the notice is
 * right, and the page's scripts may build its content, which static mode never runs.
 */
function scriptHint(page: PageSnapshot, notice: string): string {
  const scripts = page.mode === "static" && /javascript/i.test(notice) ? codeScripts(page) : 0;
  return scripts > 0
    ? `; ${scripts} script${scripts === 1 ? "" : "s"} may build the page: ` +
        `try --mode chromium --js (and --network for a local file)`
    : "";
}

/** Word-weighted mean P(main) of the leaf segments under a root row. */
function meanScore(root: number, own: Ownership, scores: Float32Array): number {
  // rows under `root` are root+1 .. while their parent chain reaches
  // root; scan until subtree words are covered
  let w = 0;
  let s = 0;
  const need = own.subtreeWords[root] as number;
  for (let r = root; r < scores.length && w < need; r++) {
    const ow = own.ownWords[r] as number;
    if (ow === 0) continue;
    w += ow;
    s += ow * (scores[r] as number);
  }
  return w > 0 ? s / w : 0;
}
