/**
 * Training the context stage (src/pipeline/context/context.ts) by stacking: it must learn from
 * stage-1 scores like the ones it will see on new pages, so it trains on out-of-fold scores.
 * The cross-validation's fold models already score every page once from a model that never saw
 * its site (routed as at extraction time): those scores train the context stage of each fold
 * (on the other folds' pages) and of the final model (on all pages). The context stage's
 * thresholds are tuned per routed type on its own out-of-fold scores.
 *
 * Caveat: the other folds' stage-1 scores come from models that saw the held-out fold's pages
 * (second-order leakage, usual in stacked cross-validation and small beside the site split).
 */
import { matrixFromData, selectIndices, selectRows } from "../ml/matrix.ts";
import { foldOfRows, type Fold } from "../ml/split.ts";
import { lexiconFeatures, type ClassLexicon } from "../pipeline/context/class-lexicon.ts";
import { fitClassLexicon } from "./lexicon.ts";
import { MIN_HEADING_SITES } from "../pipeline/context/heading-lexicon.ts";
import {
  applyContext,
  CONTEXT_FEATURES,
  contextMatrix,
  leafRows,
  type ContextModel,
  type StageOne,
} from "../pipeline/context/context.ts";
import { DEFAULT_ROUTER_CONFIDENCE, DEFAULT_THRESHOLD } from "../pipeline/model/model.ts";
import { GENERAL, mostLikelyType, scoreLeaves } from "../pipeline/run.ts";
import { fitAll, treeFloor, pageMatrix, type FitConfig, type FittedPipeline } from "./fit.ts";
import { meanTrees } from "./final-trees.ts";
import { trainable } from "./label-quality.ts";
import { buildRowIndex, TRAINING_LEAF_ROWS, type RowSet } from "./matrix.ts";
import type { PageRecord } from "./page-record.ts";
import { tuneThreshold } from "./thresholds.ts";

/** One page's stage-1 result as extraction would compute it: routed type (with a model) and leaf scores. */
export interface RoutedScores {
  type: string;
  scores: Float32Array;
}

/**
 * Routes each page of `pages` with the fold's router and scores its
 * leaves with the routed type's model (or the general one).
 */
export function routedStageOne(
  fitted: FittedPipeline,
  records: readonly PageRecord[],
  pages: readonly number[],
  nCols: number,
): RoutedScores[] {
  const recs = pages.map((i) => records[i] as PageRecord);
  const router = fitted.router;
  const X = router && recs.length ? pageMatrix(recs, nCols) : null;
  const probs = router && X ? router.classifiers.map((c) => c.predictProba(X)) : [];
  return recs.map((rec, j) => {
    let type = router
      ? mostLikelyType(
          router.types,
          (k) => (probs[k] as Float32Array)[j] as number,
          DEFAULT_ROUTER_CONFIDENCE,
        )
      : GENERAL;
    const clf = fitted.byType.get(type);
    if (!clf) type = GENERAL; // as run.ts: a type without a model runs on the general one
    return { type, scores: scoreLeaves(clf ?? fitted.content, rec.values, nCols, rec) };
  });
}

/**
 * A page's lexicon features: class tokens (class-lexicon.ts) and section-heading tokens (heading-lexicon.ts).
 */
interface PageLexicons {
  classes: Float32Array;
  headings: Float32Array;
}

/** The context stage's stacked inputs, per page: record, routed stage-1 scores and lexicon features. */
interface Stack {
  records: readonly PageRecord[];
  routed: readonly RoutedScores[];
  /** The stage-1 thresholds per routed type. */
  thresholds: Record<string, number>;
  nCols: number;
  lexicon: readonly PageLexicons[];
}

/** Page p's stage-1 result as the context stage sees it. */
function stageOneAt(stack: Stack, p: number): StageOne {
  const rec = stack.records[p] as PageRecord;
  const routed = stack.routed[p] as RoutedScores;
  const { thresholds } = stack;
  const lexicon = stack.lexicon[p] as PageLexicons;
  return {
    scores: routed.scores,
    threshold: thresholds[routed.type] ?? thresholds[GENERAL] ?? DEFAULT_THRESHOLD,
    pageType: routed.type,
    own: rec,
    values: rec.values,
    nCols: stack.nCols,
    lexicon: lexicon.classes,
    headings: lexicon.headings,
    paths: rec.paths,
  };
}

/**
 * The class-token or heading lexicon of the pages `include` accepts,
 * ambiguous copies left out as in training.
 */
function lexiconOf(
  records: readonly PageRecord[],
  tokens: "classTokens" | "headingTokens",
  include: (page: number) => boolean,
): ClassLexicon {
  const pages = records.flatMap((rec, p) =>
    include(p) && trainable(rec)
      ? [{ tokens: rec[tokens], main: rec.main, skip: rec.ambiguous, site: rec.site }]
      : [],
  );
  return fitClassLexicon(pages, tokens === "headingTokens" ? { minSites: MIN_HEADING_SITES } : {});
}

/**
 * Training rows of the context stage: the sampled, weighted training
 * leaf rows (buildRowIndex) with context features.
 */
function contextRows(stack: Stack): RowSet {
  const base = buildRowIndex(stack.records, TRAINING_LEAF_ROWS, "main");
  const width = CONTEXT_FEATURES.length + stack.nCols;
  const data = new Float32Array(base.y.length * width);
  let k = 0;
  while (k < base.y.length) {
    const page = base.page[k] as number;
    let end = k;
    while (end < base.y.length && base.page[end] === page) end++;
    const X = contextMatrix(stageOneAt(stack, page), Array.from(base.row.subarray(k, end)));
    data.set(X.data, k * width);
    k = end;
  }
  return { ...base, X: matrixFromData(data, base.y.length, width) };
}

function subset(rows: RowSet, keep: (page: number) => boolean): RowSet {
  const idx: number[] = [];
  for (let k = 0; k < rows.y.length; k++) if (keep(rows.page[k] as number)) idx.push(k);
  const pick = <T extends Int32Array | Uint8Array | Float32Array>(a: T): T => selectIndices(a, idx);
  return {
    X: selectRows(rows.X, idx),
    y: pick(rows.y),
    w: pick(rows.w),
    groups: pick(rows.groups),
    sites: rows.sites,
    page: pick(rows.page),
    row: pick(rows.row),
  };
}

export interface FittedContext {
  /** The context stage of each fold (trained on the other folds' pages). */
  folds: ContextModel[];
  /** The context stage of the final model (trained on every page). */
  final: ContextModel;
  /** Out-of-fold context scores per page (for error analysis). */
  oof: Float32Array[];
}

/** How the context stage fits: feature count, classifier configuration, log and final-tree floor. */
export interface ContextFitOptions {
  nCols: number;
  config: Pick<FitConfig, "kind" | "params" | "seed" | "pool">;
  log?: (s: string) => void;
  /** The final stage keeps at least the fold stages' mean tree count (gbdt; default true). */
  finalTrees?: boolean;
}

/** The fitted context classifiers: one per fold and the final one. */
interface ContextClassifiers {
  classifiers: ContextModel["classifier"][];
  final: ContextModel["classifier"];
}

/** Fits the fold stages on `jobs` and the final stage on `rows`. */
async function fitContextClassifiers(
  jobs: RowSet[],
  rows: RowSet,
  config: ContextFitOptions["config"],
  log: (s: string) => void,
  finalTrees: boolean,
): Promise<ContextClassifiers> {
  if (finalTrees && config.kind === "gbdt") {
    // the final stage keeps at least as many trees as the fold stages
    // stopped at (final-trees.ts), so it waits for them
    const classifiers = await fitAll(jobs, config);
    const n = meanTrees(classifiers.map((c) => new Map([["context", c]])))["context"];
    log(
      `context stage: final fit on ${rows.y.length} leaf segments` +
        `${n === undefined ? "" : `, at least ${n} trees (the folds' mean)`}`,
    );
    const [final] = (await fitAll([rows], config, [n === undefined ? undefined : treeFloor(n)])) as [
      ContextModel["classifier"],
    ];
    return { classifiers, final };
  }
  log(`context stage: final fit on ${rows.y.length} leaf segments`);
  // the final fit needs no fold result: all four side by side
  const fitted = await fitAll([...jobs, rows], config);
  return {
    classifiers: fitted.slice(0, jobs.length),
    final: fitted[jobs.length] as ContextModel["classifier"],
  };
}

/** Each page's context scores from its fold's context classifier (NaN-filled for pages no fold holds out). */
function outOfFoldScores(
  stack: Stack,
  folds: readonly Fold[],
  classifiers: ContextModel["classifier"][],
): Float32Array[] {
  const oof: Float32Array[] = stack.records.map((r) => new Float32Array(r.nodes.length).fill(NaN));
  for (const [f, fold] of folds.entries()) {
    const classifier = classifiers[f] as ContextModel["classifier"];
    for (const p of fold.test)
      oof[p] = applyContext(
        { classifier, thresholds: {}, lexicon: null, headingLexicon: null },
        stageOneAt(stack, p),
      ).scores;
  }
  return oof;
}

/**
 * Fits the fold and final context stages from the folds' routed stage-1 scores (see the header).
 * The class-token lexicon is stacked the same way: a page's lexicon features come from the
 * lexicon of the other folds' pages (the one its fold's context stage carries), and the final
 * stage carries the lexicon of every page.
 */
export async function fitContextStage(
  records: readonly PageRecord[],
  routed: readonly RoutedScores[],
  stageOneThresholds: Record<string, number>,
  folds: readonly Fold[],
  options: ContextFitOptions,
): Promise<FittedContext> {
  const { nCols, config, log = () => {}, finalTrees = true } = options;
  const foldOf = foldOfRows(folds, records.length);
  const lexicons = folds.map((_, f) => lexiconOf(records, "classTokens", (p) => foldOf[p] !== f));
  const headingLexicons = folds.map((_, f) => lexiconOf(records, "headingTokens", (p) => foldOf[p] !== f));
  const lexicon = records.map((rec, p) => ({
    classes: lexiconFeatures(lexicons[foldOf[p] as number] as ClassLexicon, rec.classTokens),
    headings: lexiconFeatures(headingLexicons[foldOf[p] as number] as ClassLexicon, rec.headingTokens),
  }));
  const stack: Stack = { records, routed, thresholds: stageOneThresholds, nCols, lexicon };
  const rows = contextRows(stack);
  const jobs = folds.map((_, f) => subset(rows, (p) => foldOf[p] !== f));
  jobs.forEach((train, f) =>
    log(`context stage, fold ${f + 1}/${folds.length}: ${train.y.length} leaf segments`),
  );
  const { classifiers, final } = await fitContextClassifiers(jobs, rows, config, log, finalTrees);
  const oof = outOfFoldScores(stack, folds, classifiers);
  const thresholds = tuneByRoutedType(records, routed, oof, () => true);
  const foldThresholds = folds.map((_, f) => tuneByRoutedType(records, routed, oof, (p) => foldOf[p] !== f));
  log(`context stage: thresholds ${JSON.stringify(thresholds)}`);
  const all = lexiconOf(records, "classTokens", () => true);
  const allHeadings = lexiconOf(records, "headingTokens", () => true);
  log(
    `class-token lexicon: ${Object.keys(all.weights).length} tokens from ${all.pages} pages; ` +
      `heading lexicon: ${Object.keys(allHeadings.weights).length} tokens`,
  );
  return {
    folds: classifiers.map((classifier, f) => ({
      classifier,
      thresholds: foldThresholds[f] as Record<string, number>,
      lexicon: lexicons[f] as ClassLexicon,
      headingLexicon: headingLexicons[f] as ClassLexicon,
    })),
    final: { classifier: final, thresholds, lexicon: all, headingLexicon: allHeadings },
    oof,
  };
}

/**
 * Context-stage threshold per routed type, tuned for mean estimated page word F1 on the
 * out-of-fold scores of the pages `include` accepts: every page for the final model, the other
 * folds' pages for a fold's model (nested, so that no held-out page's labels choose the
 * threshold it is scored with). The non-nested choice made the held-out figures optimistic, most
 * on wcxb-dev's products (measured: docs/training.md). A routed type with no page among the included
 * ones gets no threshold (applyContext then uses the general one).
 */
export function tuneByRoutedType(
  records: readonly PageRecord[],
  routed: readonly RoutedScores[],
  oof: readonly Float32Array[],
  include: (page: number) => boolean,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const type of new Set(routed.map((r) => r.type))) {
    const page: number[] = [];
    const row: number[] = [];
    const proba: number[] = [];
    records.forEach((rec, p) => {
      if ((routed[p] as RoutedScores).type !== type || !include(p)) return;
      for (const r of leafRows(rec)) {
        page.push(p);
        row.push(r);
        proba.push((oof[p] as Float32Array)[r] as number);
      }
    });
    if (!page.length) continue;
    out[type] = tuneThreshold(
      records,
      { page: Int32Array.from(page), row: Int32Array.from(row) },
      Float32Array.from(proba),
    ).threshold;
  }
  return out;
}
