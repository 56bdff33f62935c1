/**
 * The classifier kinds side by side on the same site-grouped folds (`npm run compare:models`):
 * for each seed and kind, the cross-validation of cv.ts with one general content classifier
 * (no page-type models, segment classifier or context stage, so the kinds are compared on
 * equal terms) and the "plain" end-to-end variant, the real WCXB word F1 of every held-out page.
 * The folds depend on the seed and the sites only, so every kind of a seed sees the same ones.
 *
 * Costs per kind: the mean CPU seconds of a fold's fit (in this thread), the size of a fold
 * model's JSON, and the mean CPU milliseconds the fitted classifier takes to score one held-out
 * page's leaf segments in this thread (the part of extraction that differs between kinds;
 * rendering and features are the same for all). CPU time, not wall time: on a machine shared
 * with other jobs a fit's wall time measures the neighbours as much as the fit; the wall
 * seconds are kept in the JSON.
 *
 * ENSEMBLE ("gbdt+seq") is the mean of the GBDT's and the sequence model's P(main) (ml/mean.ts):
 * each fold's pair is the gbdt and seq fold models of the same seed in the same run, each fitted
 * as in its own column on its own rows (seq on every leaf of a page), so no fit is repeated; its
 * fit seconds and size are the sum of theirs, its inference is timed like any kind's.
 */
import type { ClassifierKind } from "../ml/classifier.ts";
import { MeanClassifier } from "../ml/mean.ts";
import { matrixFromData, selectRows } from "../ml/matrix.ts";
import { createRng, shuffleInPlace } from "../ml/prng.ts";
import { ML_RF_MAX_ROWS } from "../ml/random-forest.ts";
import type { RenderMode } from "../types.ts";
import { crossValidate, type FitSeconds } from "./cv.ts";
import type { FittedPipeline } from "./fit.ts";
import type { PageRecord } from "./page-record.ts";
import { pageTypeOf } from "./page-types.ts";
import { loadAll } from "./train.ts";
import { DEFAULT_SETS } from "./recipes.ts";

/** The mean of the gbdt and seq fold models (see the header). */
export const ENSEMBLE = "gbdt+seq";
/** ENSEMBLE's members, which must run before it under the same seed. */
export const ENSEMBLE_MEMBERS: readonly ClassifierKind[] = ["gbdt", "seq"];
/** A column of the comparison: a classifier kind or ENSEMBLE. */
export type CompareKind = ClassifierKind | typeof ENSEMBLE;
/** The kinds compared by default, in table order. */
export const COMPARE_KINDS: readonly CompareKind[] = ["gbdt", "rf", "ml-rf", "mlp", "seq", ENSEMBLE];
/** The sets compared by default: the bundled default model's (scripts/train-default.ts). */
export const COMPARE_SETS = DEFAULT_SETS;
/** Held-out pages per fold whose classifier inference is timed. */
export const TIMED_PAGES = 100;
/** The seed of the page sample of CompareOptions.maxPages. */
export const SAMPLE_SEED = 1;

export interface CompareOptions {
  datasets: string[];
  mode: RenderMode;
  seeds: number[];
  folds: number;
  kinds: readonly CompareKind[];
  /** Hyper-parameters per kind (each kind's documented defaults otherwise). */
  params?: Partial<Record<ClassifierKind, Record<string, unknown>>>;
  /** Rows ml-rf trains on, a seeded sample of each fold's (default and at most ML_RF_MAX_ROWS). */
  mlRfRows?: number;
  /**
   * At most this many pages of each set, a sample drawn with SAMPLE_SEED whatever the CV seeds,
   * so every seed and run compares on the same pages (default: every page).
   */
  maxPages?: number;
  /** Held-out pages per fold timed for inference (default TIMED_PAGES). */
  timedPages?: number;
  workers?: number;
  log?: (s: string) => void;
  /** Called after each kind with the comparison so far (a long run keeps what it finished). */
  onResult?: (partial: Comparison) => void;
  onPage?: (dataset: string, done: number, total: number) => void;
}

/** One kind under one seed. */
export interface KindResult {
  kind: CompareKind;
  seed: number;
  /** Group ("all", a set, "type:article", …) → held-out pages and their mean word F1. */
  f1: Record<string, { pages: number; f1: number }>;
  /** Mean CPU seconds of one fold's fit. */
  fitSeconds: number;
  /** Mean wall seconds of one fold's fit. */
  fitWallSeconds: number;
  /** Mean bytes of one fold's classifier JSON. */
  modelBytes: number;
  /** Mean CPU ms to score one page's leaf segments. */
  inferMs: number;
  /** Word F1 of every held-out page by "set/id" (for paired comparisons; runs before it lack it). */
  pages?: Record<string, number>;
}

export interface Comparison {
  sets: string[];
  types: string[];
  pages: number;
  sites: number;
  folds: number;
  seeds: number[];
  /** Rows ml-rf trained on per fold. */
  mlRfRows: number;
  /** The cap on pages per set of the run (CompareOptions.maxPages), when it had one. */
  maxPages?: number;
  results: KindResult[];
}

/** Mean F1 per group of the held-out pages ("all", each set, "type:T"). */
function groupF1(
  perPage: readonly { dataset: string; id: string; f1: Record<string, number> }[],
  typeOf: Map<string, string>,
): KindResult["f1"] {
  const acc = new Map<string, { n: number; sum: number }>();
  const add = (g: string, f: number) => {
    const a = acc.get(g) ?? { n: 0, sum: 0 };
    acc.set(g, { n: a.n + 1, sum: a.sum + f });
  };
  for (const p of perPage) {
    const f = p.f1["plain"] ?? 0;
    add("all", f);
    add(p.dataset, f);
    add(`type:${typeOf.get(`${p.dataset}/${p.id}`) ?? "other"}`, f);
  }
  return Object.fromEntries([...acc].map(([g, a]) => [g, { pages: a.n, f1: a.sum / a.n }]));
}

/** Mean ms for the fold's content classifier to score each of `pages` (one warm-up page first). */
function timeInference(
  fitted: FittedPipeline,
  records: readonly PageRecord[],
  pages: number[],
  nCols: number,
): number {
  const inputs = pages.map((i) => {
    const rec = records[i] as PageRecord;
    const leaves: number[] = [];
    for (let r = 0; r < rec.ownWords.length; r++) if ((rec.ownWords[r] as number) > 0) leaves.push(r);
    return selectRows(matrixFromData(rec.values, rec.nodes.length, nCols), leaves);
  });
  const nonEmpty = inputs.filter((X) => X.nRows > 0);
  if (!nonEmpty.length) return 0;
  fitted.content.predictProba(nonEmpty[0]!);
  const started = process.cpuUsage();
  for (const X of nonEmpty) fitted.content.predictProba(X);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / nonEmpty.length;
}

/** A fold's fitted pipeline and its fit seconds. */
interface FoldFit {
  fitted: FittedPipeline;
  seconds: FitSeconds;
}

/** What the kinds of one run share; `kept` holds the ENSEMBLE_MEMBERS' fold fits by "kind/seed". */
interface CompareContext {
  options: CompareOptions;
  nCols: number;
  dirs: Map<string, string>;
  typeOf: Map<string, string>;
  kept: Map<string, FoldFit[]>;
}

/** ENSEMBLE's fold `f`: the mean of its members' fold models, fit seconds summed. */
function ensembleFold(ctx: CompareContext, seed: number, f: number): FoldFit {
  const members = ENSEMBLE_MEMBERS.map((k) => {
    const fit = ctx.kept.get(`${k}/${seed}`)?.[f];
    if (!fit)
      throw new Error(`${ENSEMBLE} needs ${ENSEMBLE_MEMBERS.join(" and ")} before it under seed ${seed}`);
    return fit;
  });
  const sum = (g: (s: FitSeconds) => number) => members.reduce((a, m) => a + g(m.seconds), 0);
  return {
    fitted: {
      content: new MeanClassifier(members.map((m) => m.fitted.content)),
      segment: null,
      byType: new Map(),
      router: null,
    },
    seconds: { wall: sum((s) => s.wall), cpu: sum((s) => s.cpu) },
  };
}

/** Cross-validates one kind under one seed (see the header). */
async function compareKind(
  records: PageRecord[],
  kind: CompareKind,
  seed: number,
  ctx: CompareContext,
): Promise<KindResult> {
  const { options, nCols } = ctx;
  const fits: { seconds: FitSeconds; bytes: number; ms: number }[] = [];
  const kept: FoldFit[] = [];
  const timed = options.timedPages ?? TIMED_PAGES;
  const ensemble = kind === ENSEMBLE ? (f: number) => ensembleFold(ctx, seed, f) : null;
  const cv = await crossValidate(records, {
    folds: options.folds,
    ...(ensemble ? { fit: async (f: number) => ensemble(f).fitted } : {}),
    config: {
      kind: kind === ENSEMBLE ? "gbdt" : kind,
      params: (kind === ENSEMBLE ? undefined : options.params?.[kind]) ?? {},
      seed,
      perType: false,
      segment: false,
      ...(kind === "ml-rf" ? { maxRows: options.mlRfRows ?? ML_RF_MAX_ROWS } : {}),
    },
    nCols,
    mode: options.mode,
    datasetDirs: ctx.dirs,
    variants: [{ name: "plain", refiners: {} }],
    context: false,
    ...(options.workers ? { workers: options.workers } : {}),
    ...(options.log ? { log: options.log } : {}),
    onFold: (f, fitted, test, measured) => {
      const seconds = ensemble ? ensemble(f).seconds : measured;
      const pages = shuffleInPlace(Array.from(test), createRng(seed)).slice(0, timed);
      const bytes = Buffer.byteLength(JSON.stringify(fitted.content.toJSON()));
      fits.push({ seconds, bytes, ms: timeInference(fitted, records, pages, nCols) });
      kept.push({ fitted, seconds });
    },
  });
  if (ENSEMBLE_MEMBERS.includes(kind as ClassifierKind) && options.kinds.includes(ENSEMBLE))
    ctx.kept.set(`${kind}/${seed}`, kept);
  const mean = (f: (x: (typeof fits)[number]) => number) => fits.reduce((a, x) => a + f(x), 0) / fits.length;
  return {
    kind,
    seed,
    f1: groupF1(cv.report.perPage, ctx.typeOf),
    pages: Object.fromEntries(cv.report.perPage.map((p) => [`${p.dataset}/${p.id}`, p.f1["plain"] ?? 0])),
    fitSeconds: mean((x) => x.seconds.cpu),
    fitWallSeconds: mean((x) => x.seconds.wall),
    modelBytes: mean((x) => x.bytes),
    inferMs: mean((x) => x.ms),
  };
}

/** At most `max` records of each set: a SAMPLE_SEED sample, in their order. */
export function samplePerSet(records: readonly PageRecord[], max: number): PageRecord[] {
  const keep = new Set<PageRecord>();
  for (const set of new Set(records.map((r) => r.dataset))) {
    const of = records.filter((r) => r.dataset === set);
    const order = shuffleInPlace(Uint32Array.from(of.keys()), createRng(SAMPLE_SEED));
    for (const i of order.subarray(0, max)) keep.add(of[i] as PageRecord);
  }
  return records.filter((r) => keep.has(r));
}

/** Runs every kind under every seed on the same records (see the header). */
export async function compareModels(options: CompareOptions): Promise<Comparison> {
  const loaded = await loadAll(options);
  const { sets, dirs } = loaded;
  const records = options.maxPages ? samplePerSet(loaded.records, options.maxPages) : loaded.records;
  if (!records.length) throw new Error(`no labeled pages in ${options.datasets.join(", ")}`);
  const nCols = records[0]!.values.length / records[0]!.nodes.length;
  const typeOf = new Map(records.map((r) => [`${r.dataset}/${r.id}`, pageTypeOf(r) ?? "other"]));
  const results: KindResult[] = [];
  const ctx: CompareContext = { options, nCols, dirs, typeOf, kept: new Map() };
  const comparison = (): Comparison => ({
    sets: sets.map((s) => s.name),
    types: [...new Set(typeOf.values())].sort(),
    pages: records.length,
    sites: new Set(records.map((r) => r.site)).size,
    folds: options.folds,
    seeds: options.seeds,
    mlRfRows: options.mlRfRows ?? ML_RF_MAX_ROWS,
    ...(options.maxPages ? { maxPages: options.maxPages } : {}),
    results: [...results],
  });
  for (const seed of options.seeds)
    for (const kind of options.kinds) {
      options.log?.(`${kind}, seed ${seed}: ${options.folds} site-grouped folds of ${records.length} pages`);
      const r = await compareKind(records, kind, seed, ctx);
      options.log?.(
        `${kind}, seed ${seed}: word F1 ${r.f1["all"]?.f1.toFixed(3)}, fit ${r.fitSeconds.toFixed(1)} CPU s/fold`,
      );
      results.push(r);
      options.onResult?.(comparison());
    }
  return comparison();
}

/**
 * Comparisons of separate runs as one (`--from-json`): the union of their results, with the ml-rf
 * row count of the run that has ml-rf. Refuses runs of other pages or folds.
 */
export function mergeComparisons(parts: readonly Comparison[]): Comparison {
  const [first, ...rest] = parts;
  if (!first) throw new Error("nothing to merge");
  const key = (c: Comparison) => JSON.stringify([c.sets, c.pages, c.sites, c.folds]);
  for (const c of rest)
    if (key(c) !== key(first))
      throw new Error(`cannot merge comparisons of other pages or folds: ${key(c)} against ${key(first)}`);
  const results = parts.flatMap((c) => c.results);
  const mlRf = parts.find((c) => c.results.some((r) => r.kind === "ml-rf")) ?? first;
  return { ...first, seeds: [...new Set(results.map((r) => r.seed))], mlRfRows: mlRf.mlRfRows, results };
}

/**
 * The mean per-page word-F1 gain of `r` over `base` on the pages both scored, and its standard
 * error (the paired comparison: the same pages and folds), null without per-page figures.
 */
export function pairedGain(r: KindResult, base: KindResult): { gain: number; se: number } | null {
  if (!r.pages || !base.pages) return null;
  const d = Object.keys(r.pages)
    .filter((k) => base.pages![k] !== undefined)
    .map((k) => r.pages![k]! - base.pages![k]!);
  if (d.length < 2) return null;
  const gain = d.reduce((a, x) => a + x, 0) / d.length;
  const variance = d.reduce((a, x) => a + (x - gain) ** 2, 0) / (d.length - 1);
  return { gain, se: Math.sqrt(variance / d.length) };
}

/** A row per seed: each kind's paired gain over `base` ("+0.004 ± 0.002"), when figures allow. */
function pairedRows(c: Comparison, kinds: readonly CompareKind[], base: CompareKind): string[] {
  return c.seeds.flatMap((seed) => {
    const of = (k: CompareKind) => c.results.find((r) => r.kind === k && r.seed === seed);
    const b = of(base);
    const cells = kinds.map((k) => {
      const r = of(k);
      const g = r && b && k !== base ? pairedGain(r, b) : null;
      return g ? `${g.gain >= 0 ? "+" : "−"}${Math.abs(g.gain).toFixed(3)} ± ${g.se.toFixed(3)}` : "–";
    });
    return cells.some((x) => x !== "–")
      ? [`| paired gain over ${base} ± s.e., seed ${seed} | ${cells.join(" | ")} |`]
      : [];
  });
}

/** Mean of `f` over a kind's results (one per seed). */
function meanOf(results: readonly KindResult[], f: (r: KindResult) => number | undefined): number | null {
  const v = results.map(f).filter((x): x is number => x !== undefined);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
}

/**
 * The comparison as one Markdown table: a row per group (all pages, each set, each page type,
 * the "all" figure of each seed when there are several), then fit seconds per fold, model size
 * and inference ms per page; a column per kind; F1 cells are means over the seeds.
 */
export function formatComparison(c: Comparison): string {
  const run = new Set(c.results.map((r) => r.kind));
  const kinds = [
    ...COMPARE_KINDS.filter((k) => run.has(k)),
    ...[...run].filter((k) => !COMPARE_KINDS.includes(k)),
  ];
  const of = (k: CompareKind) => c.results.filter((r) => r.kind === k);
  const pages = (g: string) => c.results[0]?.f1[g]?.pages ?? 0;
  const f1Row = (label: string, g: string, rs = of) =>
    `| ${label} (${pages(g)}) | ${kinds
      .map((k) =>
        fmt(
          meanOf(rs(k), (r) => r.f1[g]?.f1),
          3,
        ),
      )
      .join(" | ")} |`;
  const lines = [
    `| word F1, held out (pages) | ${kinds.map((k) => (k === "ml-rf" ? `ml-rf (${c.mlRfRows} rows)` : k)).join(" | ")} |`,
    `|---|${kinds.map(() => "---:").join("|")}|`,
    f1Row("all", "all"),
    ...(c.seeds.length > 1
      ? c.seeds.map((s) => f1Row(`all, seed ${s}`, "all", (k) => of(k).filter((r) => r.seed === s)))
      : []),
    ...c.sets.map((s) => f1Row(s, s)),
    ...c.types.map((t) => f1Row(`type ${t}`, `type:${t}`)),
    ...pairedRows(c, kinds, "gbdt"),
    `| fit, CPU s per fold | ${kinds
      .map((k) =>
        fmt(
          meanOf(of(k), (r) => r.fitSeconds),
          1,
        ),
      )
      .join(" | ")} |`,
    `| model, KB | ${kinds
      .map((k) =>
        fmt(
          meanOf(of(k), (r) => r.modelBytes / 1024),
          0,
        ),
      )
      .join(" | ")} |`,
    `| inference, CPU ms per page | ${kinds
      .map((k) =>
        fmt(
          meanOf(of(k), (r) => r.inferMs),
          2,
        ),
      )
      .join(" | ")} |`,
  ];
  const head =
    `${c.pages} pages, ${c.sites} sites (${c.sets.join(", ")}` +
    `${c.maxPages ? `, a sample of at most ${c.maxPages} pages each` : ""}); ${c.folds} site-grouped folds; ` +
    `seed${c.seeds.length > 1 ? "s" : ""} ${c.seeds.join(", ")}`;
  return `${head}\n\n${lines.join("\n")}\n`;
}

function fmt(v: number | null, digits: number): string {
  return v === null ? "–" : v.toFixed(digits);
}
