/**
 * One unit of evaluation work: a group of pages of one dataset (one site when a method needs
 * site context, else a single page) → per-page, per-method figures. Runs the same in the main
 * thread and in the worker threads of runner.ts, so everything a job carries is plain data.
 *
 * Timing (ms): pith's methods and `all-text` read the snapshot, so their time is render +
 * extract; readability and defuddle parse the HTML themselves, so their time is their own call.
 */
import { firstLine } from "../errors.ts";
import "../methods.ts";
import { buildTree, type Tree } from "../dom/tree.ts";
import { getExtractor, runExtractor } from "../extractors.ts";
import {
  loadDataset,
  readDatasetPage,
  readGold,
  readGoldHtml,
  type Dataset,
  type DatasetPage,
} from "../io/dataset.ts";
import { createRenderer, pageLimit, renderLimit, renderPage } from "../render/index.ts";
import { NO_LIMIT, type Limit } from "../time-limit.ts";
import type {
  ExtractorContext,
  PageInput,
  PageSnapshot,
  RenderMode,
  RenderOptions,
  Renderer,
  SiteContext,
} from "../types.ts";
import { goldNodeLabels, predictedNodeLabels, type NodeGold } from "./gold-nodes.ts";
import {
  aebShingles,
  lcsScore,
  nodeScore,
  rougeLsum,
  snippetCounts,
  wcxbWords,
  type LcsScore,
  type PRF,
  type ShingleCounts,
  type SnippetCounts,
} from "./metrics.ts";
import { getPeer } from "./peers.ts";

/** Per page and method: what the JSON report lists under "pages". */
export interface PageFigures {
  method: string;
  dataset: string;
  id: string;
  domain: string | null;
  /** The page's type (wcxb-dev page_type) or genre. */
  group: string;
  wcxb: PRF;
  /** Normalised shingle counts (tp + fp + fn = 1). */
  aeb: ShingleCounts;
  lcs: LcsScore;
  nodes: PRF | null;
  snippets: SnippetCounts | null;
  /** ROUGE-LSum, when the run asked for it (and the page is within ROUGE_MAX_CELLS). */
  rouge: PRF | null;
  ms: number;
  /** Length of the extracted text. */
  chars: number;
  error?: string;
  empty_reason?: string;
}

/** A plain-data job: which pages to evaluate, which others to render only as site context. */
export interface GroupJob {
  datasetDir: string;
  domain: string | null;
  ids: string[];
  contextIds: string[];
  methods: string[];
  mode: RenderMode;
  renderOptions: RenderOptions;
  params: Record<string, string | number | boolean>;
  /** The typed context every registry extractor gets: render mode, model, trace switch. */
  context: Pick<ExtractorContext, "mode" | "model" | "modelDir" | "trace">;
  /** Give methods that need it the other pages of the group as SiteContext. */
  site: boolean;
  /** Compute ROUGE-LSum (slow on long pages). */
  rouge: boolean;
}

/** Per-thread state: the renderer and parsed dataset indexes, reused across jobs. */
export class JobEnv {
  private renderer: Promise<Renderer> | null = null;
  private readonly datasets = new Map<string, Dataset>();
  constructor(
    private readonly mode: RenderMode,
    private readonly concurrency = 1,
    /** Hears the running browsers' profile directories (a worker reports them to its pool). */
    private readonly onBrowsers?: (dirs: string[]) => void,
    /**
     * Put each page's render and each method's run under the page's time limit (time-limit.ts):
     * in the main thread, where nothing else can end them. A worker's job has the pool's deadline.
     */
    readonly timeLimits = false,
  ) {}

  /** The time limit of one synchronous step of a page (a render, a method's run). */
  limit(options: RenderOptions, what: string): Limit {
    return this.timeLimits ? pageLimit(options, what) : NO_LIMIT;
  }

  dataset(dir: string): Dataset {
    let ds = this.datasets.get(dir);
    if (!ds) this.datasets.set(dir, (ds = loadDataset(dir)));
    return ds;
  }

  async render(input: PageInput, options: RenderOptions): Promise<PageSnapshot | string> {
    this.renderer ??= createRenderer(this.mode, {
      concurrency: this.concurrency,
      ...(this.onBrowsers ? { onBrowsers: this.onBrowsers } : {}),
    });
    const renderer = await this.renderer;
    const r = await renderPage(
      renderer,
      input,
      options,
      this.timeLimits ? renderLimit(renderer, options) : NO_LIMIT,
    );
    return r.ok ? r.value : `${r.error.stage}: ${r.error.reason}`;
  }

  async close(): Promise<void> {
    if (this.renderer) await (await this.renderer).close();
    this.renderer = null;
  }
}

interface Loaded {
  page: DatasetPage;
  input: PageInput | null;
  snapshot: PageSnapshot | null;
  /** Why the page could not be read or rendered. */
  failure: string | null;
}

async function loadPage(env: JobEnv, ds: Dataset, page: DatasetPage, job: GroupJob): Promise<Loaded> {
  let input: PageInput;
  try {
    input = await readDatasetPage(ds, page);
  } catch (e) {
    return { page, input: null, snapshot: null, failure: `read: ${(e as Error).message}` };
  }
  const s = await env.render(input, job.renderOptions);
  return typeof s === "string"
    ? { page, input, snapshot: null, failure: s }
    : { page, input, snapshot: s, failure: null };
}

/** Each dataset's pages by id, built once per dataset and thread. */
const PAGES_BY_ID = new WeakMap<Dataset, Map<string, DatasetPage>>();

/** The dataset's pages with these ids, in the order given. */
function pick(ds: Dataset, ids: readonly string[]): DatasetPage[] {
  let byId = PAGES_BY_ID.get(ds);
  if (!byId) PAGES_BY_ID.set(ds, (byId = new Map(ds.pages.map((p) => [p.id, p]))));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function evaluateGroup(env: JobEnv, job: GroupJob): Promise<PageFigures[]> {
  const ds = env.dataset(job.datasetDir);
  const loaded: Loaded[] = [];
  for (const p of pick(ds, job.ids)) loaded.push(await loadPage(env, ds, p, job));
  const context: PageSnapshot[] = loaded.flatMap((l) => (l.snapshot ? [l.snapshot] : []));
  if (job.site)
    for (const p of pick(ds, job.contextIds)) {
      const l = await loadPage(env, ds, p, job);
      if (l.snapshot) context.push(l.snapshot);
    }
  const out: PageFigures[] = [];
  for (const l of loaded) {
    const site: SiteContext | undefined =
      job.site && job.domain && l.snapshot
        ? { domain: job.domain, pages: context.filter((s) => s !== l.snapshot) }
        : undefined;
    out.push(...(await evaluatePage(env, ds, l, job, site)));
  }
  return out;
}

/**
 * Figures for a job that produced none of its own (it outran its deadline, or its worker died):
 * every method of every page scores as empty output and carries `reason` as its error, as a page
 * that failed to render does.
 */
export async function failedGroup(env: JobEnv, job: GroupJob, reason: string): Promise<PageFigures[]> {
  const ds = env.dataset(job.datasetDir);
  const out: PageFigures[] = [];
  for (const page of pick(ds, job.ids)) {
    out.push(
      ...(await evaluatePage(
        env,
        ds,
        { page, input: null, snapshot: null, failure: reason },
        job,
        undefined,
      )),
    );
  }
  return out;
}

/** Gold for a failed page whose gold is empty, so that its empty output scores 0, not 1. */
const FAILED_GOLD = "failed";

interface PageTruth {
  gold: string;
  nodeGold: NodeGold | null;
  tree: Tree | null;
}

async function truthOf(ds: Dataset, l: Loaded): Promise<PageTruth> {
  const gold = (await readGold(ds, l.page)) ?? "";
  if (!l.snapshot || !ds.hasGoldHtml) return { gold, nodeGold: null, tree: null };
  const tree = buildTree(l.snapshot);
  const goldHtml = await readGoldHtml(ds, l.page);
  const nodeGold = goldHtml === null ? null : goldNodeLabels(l.snapshot, tree, goldHtml);
  return { gold, tree, nodeGold: nodeGold?.units.length ? nodeGold : null }; // no text node: nothing to score
}

interface MethodOutput {
  text: string;
  nodes: number[] | null;
  ms: number;
  error?: string;
  emptyReason?: string;
}

async function runMethod(
  method: string,
  l: Loaded,
  job: GroupJob,
  gold: string,
  site: SiteContext | undefined,
  limit: Limit,
): Promise<MethodOutput> {
  if (!l.snapshot || !l.input) return { text: "", nodes: null, ms: 0, error: l.failure ?? "not rendered" };
  const started = performance.now();
  try {
    const peer = getPeer(method);
    if (peer) {
      const o = await peer.extract(l.input, l.snapshot, limit);
      const renderMs = o.nodes ? l.snapshot.ms : 0;
      return { text: o.text, nodes: o.nodes, ms: performance.now() - started + renderMs };
    }
    const extractor = getExtractor(method);
    const context: ExtractorContext = {
      ...job.context,
      params: job.params,
      ...(extractor.needsGold ? { gold } : {}),
      ...(site && extractor.needsSite ? { site } : {}),
    };
    const e = await runExtractor(extractor, l.snapshot, context, limit);
    const ms = performance.now() - started + l.snapshot.ms;
    return { text: e.text, nodes: e.nodes, ms, ...(e.emptyReason ? { emptyReason: e.emptyReason } : {}) };
  } catch (e) {
    return { text: "", nodes: null, ms: performance.now() - started, error: `extract: ${firstLine(e)}` };
  }
}

async function evaluatePage(
  env: JobEnv,
  ds: Dataset,
  l: Loaded,
  job: GroupJob,
  site: SiteContext | undefined,
): Promise<PageFigures[]> {
  const truth = await truthOf(ds, l);
  const snippets = ds.snippets.get(l.page.id) ?? null;
  const out: PageFigures[] = [];
  for (const method of job.methods) {
    const o = await runMethod(method, l, job, truth.gold, site, env.limit(job.renderOptions, method));
    // a page that failed scores 0, also against empty gold (where an empty output scores 1): its
    // gold is then a stand-in word
    const gold = o.error !== undefined && !truth.gold.trim() ? FAILED_GOLD : truth.gold;
    const nodes =
      truth.nodeGold && truth.tree && o.nodes
        ? nodeScore(predictedNodeLabels(truth.tree, truth.nodeGold.units, o.nodes), truth.nodeGold.gold)
        : null;
    out.push({
      method,
      dataset: ds.name,
      id: l.page.id,
      domain: l.page.domain,
      group: l.page.pageType,
      wcxb: wcxbWords(o.text, gold),
      aeb: aebShingles(o.text, gold),
      lcs: lcsScore(o.text, gold),
      nodes,
      snippets: snippets ? snippetCounts(o.text, snippets) : null,
      rouge: job.rouge ? rougeLsum(o.text, gold) : null,
      ms: o.ms,
      chars: o.text.length,
      ...(o.error ? { error: o.error } : {}),
      ...(o.emptyReason ? { empty_reason: o.emptyReason } : {}),
    });
  }
  return out;
}
