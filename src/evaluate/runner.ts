/**
 * Corpus runs: methods (registry extractors and peers) × datasets → per-page figures and
 * per-group aggregates. `evaluateMethods` is the entry point for the CLI and for training
 * scripts that evaluate a model on held-out sites (`select` picks the page subset).
 *
 * Work is cut into jobs: one page each, or, when a method needs site context, the pages of one
 * site in chunks of at most SITE_CONTEXT_MAX_PAGES (filled up with unselected pages of the same
 * domain as context only), so each snapshot is built once per run and memory stays bounded by
 * one chunk per thread. Jobs run on worker threads (one per core) when there are enough of them;
 * in Chromium mode in-process, since the browser already renders pages in parallel.
 */
import { availableParallelism } from "node:os";
import { DeadlinePool } from "../batch/pool.ts";
import { releaseBrowser } from "../render/browser-processes.ts";
import "../methods.ts";
import { checkParamNames, extractorNames, getExtractor } from "../extractors.ts";
import { DatasetError, hasGold, loadDatasets, type Dataset, type DatasetPage } from "../io/dataset.ts";
import type { RenderMode, RenderOptions } from "../types.ts";
import { evaluateGroup, failedGroup, JobEnv, type GroupJob, type PageFigures } from "./page.ts";
import { getPeer, PEERS } from "./peers.ts";
import { aggregate, type RunFigures } from "./report.ts";
import { createRng } from "../ml/prng.ts";
import { workerModule } from "../paths.ts";
import { DEFAULT_TIMEOUT_MS } from "../time-limit.ts";

/** Most pages rendered together as one site's context. */
export const SITE_CONTEXT_MAX_PAGES = 16;
/** Below this many jobs, worker start-up (≈ 1 s per thread) does not pay (unless `workers` is given). */
export const WORKER_MIN_JOBS = 8;
/** Pages in flight in Chromium mode: the browser uses the cores, one per page. */
export const CHROMIUM_CONCURRENCY = 2;

export interface EvaluateOptions {
  /** Method names: registry extractors (src/extractors.ts) or peers (readability, defuddle, all-text). */
  methods: string[];
  /** Dataset names under the data dir, or dataset folders. */
  datasets: string[];
  /** Keep only the pages this returns true for (e.g. a held-out fold's sites); default all. */
  select?: (page: DatasetPage) => boolean;
  /** Keep only pages of this page type / genre. */
  pageType?: string;
  /** Random sample of N pages per dataset (after select/pageType), reproducible with `seed`. */
  sample?: number;
  /** Seed of the sample (default 1). */
  seed?: number;
  /** First N pages per dataset (after sampling). */
  limit?: number;
  /** Render mode (default static). */
  mode?: RenderMode;
  renderOptions?: RenderOptions;
  /** Parameters passed to every registry extractor as ExtractorContext.params. */
  params?: Record<string, string | number | boolean>;
  /** The learned method's model file (ExtractorContext.model; default: per-domain, else bundled). */
  model?: string;
  /** Where per-domain models are looked up (ExtractorContext.modelDir). */
  modelDir?: string;
  /** Also compute ROUGE-LSum (default false: it costs up to ~1 s on long pages). */
  rouge?: boolean;
  /** Worker threads (default: one per core in static mode, 1 in Chromium mode). */
  workers?: number;
  /** Pages rendered at once in Chromium mode (default CHROMIUM_CONCURRENCY). */
  concurrency?: number;
  /** Called after each job with pages done so far (of `total`). */
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface EvaluationResult {
  runs: RunFigures[];
  pages: PageFigures[];
  /** Selected pages left out for lack of a gold file ("dataset/id"): nothing to score them against. */
  withoutGold: string[];
}

/** The pages of one dataset a run evaluates, in index order. */
export function selectPages(
  ds: Dataset,
  o: Pick<EvaluateOptions, "select" | "pageType" | "sample" | "seed" | "limit">,
): DatasetPage[] {
  let pages = ds.pages.filter(
    (p) => (!o.select || o.select(p)) && (!o.pageType || p.pageType === o.pageType) && hasGold(ds, p),
  );
  if (o.sample !== undefined && o.sample < pages.length) {
    const rand = createRng(o.seed ?? 1).next;
    const order = pages.map((p, i) => ({ i, k: rand() })).sort((a, b) => a.k - b.k);
    const keep = new Set(order.slice(0, o.sample).map((x) => x.i));
    pages = pages.filter((_, i) => keep.has(i));
  }
  return o.limit !== undefined ? pages.slice(0, o.limit) : pages;
}

/**
 * Throws on an unknown method name, or on a parameter value one of them cannot use, before any page is read.
 */
export function checkMethods(
  methods: readonly string[],
  params: Record<string, string | number | boolean> = {},
): void {
  const unknown = methods.filter((m) => !getPeer(m) && !extractorNames().includes(m));
  if (unknown.length)
    throw new Error(
      `unknown method "${unknown.join('", "')}"; known: ${[...extractorNames(), ...PEERS.keys()].join(", ")}`,
    );
  for (const m of methods) if (!getPeer(m)) getExtractor(m).checkParams?.(params);
  if (methods.length === 1 && !getPeer(methods[0] as string))
    checkParamNames(getExtractor(methods[0] as string), params);
}

function needsSite(methods: readonly string[]): boolean {
  return methods.some((m) => !getPeer(m) && getExtractor(m).needsSite === true);
}

function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/** Jobs for one dataset: single pages, or site chunks with context pages. */
export function planJobs(
  ds: Dataset,
  selected: readonly DatasetPage[],
  base: Omit<GroupJob, "datasetDir" | "domain" | "ids" | "contextIds">,
): GroupJob[] {
  const job = (domain: string | null, ids: string[], contextIds: string[]): GroupJob => ({
    ...base,
    datasetDir: ds.dir,
    domain,
    ids,
    contextIds,
  });
  if (!base.site) return selected.map((p) => job(p.domain, [p.id], []));
  const chosen = new Set(selected.map((p) => p.id));
  const byDomain = new Map<string, DatasetPage[]>();
  for (const p of ds.pages) if (p.domain) byDomain.set(p.domain, [...(byDomain.get(p.domain) ?? []), p]);
  const jobs: GroupJob[] = [];
  const planned = new Set<string>();
  for (const p of selected) {
    if (!p.domain) {
      jobs.push(job(null, [p.id], []));
      continue;
    }
    if (planned.has(p.domain)) continue;
    planned.add(p.domain);
    const all = byDomain.get(p.domain) ?? [];
    const others = all.filter((q) => !chosen.has(q.id)).map((q) => q.id);
    for (const c of chunks(
      all.filter((q) => chosen.has(q.id)),
      SITE_CONTEXT_MAX_PAGES,
    )) {
      jobs.push(
        job(
          p.domain,
          c.map((q) => q.id),
          others.slice(0, SITE_CONTEXT_MAX_PAGES - c.length),
        ),
      );
    }
  }
  return jobs;
}

/** Run methods over datasets; per-page figures in dataset/plan order plus aggregates. */
export async function evaluateMethods(o: EvaluateOptions): Promise<EvaluationResult> {
  checkMethods(o.methods);
  const mode = o.mode ?? "static";
  // scores need no trace: the learned pipeline skips it (≈ 0.7 ms/page)
  const base = {
    methods: o.methods,
    mode,
    renderOptions: o.renderOptions ?? {},
    params: o.params ?? {},
    context: {
      mode,
      trace: false,
      ...(o.model ? { model: o.model } : {}),
      ...(o.modelDir ? { modelDir: o.modelDir } : {}),
    },
    site: needsSite(o.methods),
    rouge: o.rouge ?? false,
  };
  const jobs: GroupJob[] = [];
  const seen = new Set<string>();
  const withoutGold: string[] = [];
  const types = new Set<string>();
  for (const ds of loadDatasets(o.datasets)) {
    if (seen.has(ds.dir)) continue; // the same set named twice
    seen.add(ds.dir);
    for (const p of ds.pages) {
      types.add(p.pageType);
      if ((!o.pageType || p.pageType === o.pageType) && !hasGold(ds, p))
        withoutGold.push(`${ds.name}/${p.id}`);
    }
    jobs.push(...planJobs(ds, selectPages(ds, o), base));
  }
  if (o.pageType && !types.has(o.pageType))
    throw new DatasetError(
      `no page of type "${o.pageType}" in ${o.datasets.join(", ")} (types there: ${[...types].sort().join(", ")})`,
    );
  const total = jobs.reduce((n, j) => n + j.ids.length, 0);
  const results: PageFigures[][] = new Array(jobs.length);
  let done = 0;
  const onResult = (i: number, figures: PageFigures[]): void => {
    results[i] = figures;
    done += (jobs[i] as GroupJob).ids.length;
    o.onProgress?.(done, total, (jobs[i] as GroupJob).ids[0] ?? "");
  };
  const workers = Math.max(
    1,
    o.workers ?? (mode === "chromium" || jobs.length < WORKER_MIN_JOBS ? 1 : availableParallelism()),
  );
  if (workers === 1 || jobs.length < 2)
    await runInProcess(
      jobs,
      mode,
      mode === "chromium" ? (o.concurrency ?? CHROMIUM_CONCURRENCY) : 1,
      onResult,
    );
  else await runOnWorkers(jobs, mode, Math.min(workers, jobs.length), onResult);
  const pages = results.flat();
  return { runs: aggregate(pages), pages, withoutGold };
}

/**
 * Jobs in this thread, `concurrency` at a time (Chromium renders pages in parallel; static gains nothing).
 */
async function runInProcess(
  jobs: readonly GroupJob[],
  mode: RenderMode,
  concurrency: number,
  onResult: (i: number, f: PageFigures[]) => void,
): Promise<void> {
  const env = new JobEnv(mode, concurrency, undefined, true);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < jobs.length; i = next++)
      onResult(i, await evaluateGroup(env, jobs[i] as GroupJob));
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, jobs.length)) }, lane));
  } finally {
    await env.close();
  }
}

/** Time a worker gets to close its renderer before it is terminated. */
const WORKER_CLOSE_TIMEOUT_MS = 5_000;

/**
 * A job's deadline on a worker: each of its pages (context pages included) may take the render
 * limit once for rendering and once per method. It only catches a page that hangs or explodes
 * (no method needs seconds on a real page); such a job's pages then fail alone (failedGroup).
 */
export function jobDeadlineMs(job: GroupJob): number {
  const pages = job.ids.length + job.contextIds.length;
  return pages * (job.renderOptions.timeoutMs ?? DEFAULT_TIMEOUT_MS) * (1 + job.methods.length);
}

/**
 * Jobs on `n` worker threads (src/batch/pool.ts), each under jobDeadlineMs. In Chromium mode
 * each worker has its own browser, which the renderer's own page limit already bounds; a worker
 * terminated at a job's deadline cannot close its browser, so the pool ends it from here
 * (browser-processes.ts releaseBrowser, from the profile directories the worker reported).
 */
async function runOnWorkers(
  jobs: readonly GroupJob[],
  mode: RenderMode,
  n: number,
  onResult: (i: number, f: PageFigures[]) => void,
): Promise<void> {
  const env = new JobEnv(mode); // reads datasets for the figures of failed jobs; never renders
  const pool = new DeadlinePool<GroupJob, PageFigures[]>({
    url: workerModule("evaluate/worker"),
    workerData: { mode },
    size: n,
    deadlineMs: jobDeadlineMs,
    failure: (job, kind, detail) =>
      failedGroup(
        env,
        job,
        kind === "timeout"
          ? `timeout: evaluating ${job.ids.length} page(s) took longer than ${detail} ms`
          : `evaluate: ${detail}`,
      ),
    closeGraceMs: WORKER_CLOSE_TIMEOUT_MS,
    release: (dirs) => dirs.forEach((dir) => releaseBrowser(dir)),
    name: "an evaluate worker",
  });
  try {
    await pool.ready();
    await Promise.all(jobs.map(async (job, i) => onResult(i, await pool.run(job))));
  } finally {
    await pool.close();
  }
}
