/**
 * A batch of `pith extract`, as the CLI and the library run it: the inputs read and rendered (on
 * worker threads for static pages, in this thread for Chromium, site-level methods and
 * `--workers 0`), each page extracted and formatted (page-output.ts), every output handed to the
 * sink in input order. The CLI (src/cli/extract.ts) parses flags into a BatchOptions.
 *
 * With a site-aware model (ExtractorContext.siteModel, `--site-features on`) the whole batch is
 * read first and grouped by site (site-group.ts); a page of a site with at least SITE_MIN_PAGES
 * pages gets the first SITE_MAX_OTHERS others, in input order, as its site context: on workers
 * their bytes travel with the page and the worker renders them, in this thread the rendered
 * pages are shared, so both paths compute the same site features.
 */
import { stat } from "node:fs/promises";
import { UsageError } from "../errors.ts";
import {
  decodePage,
  isUrl,
  listPageFiles,
  localPath,
  readInputsBySpec,
  readRawInputs,
  WARC_FILE,
  type InputSpecs,
  type ReadOptions,
} from "../io/inputs.ts";
import type { PageBytes } from "../io/page-bytes.ts";
import { SITE_MIN_PAGES, siteContexts, siteKey, siteSiblings } from "../io/site-group.ts";
import { SITE_MAX_OTHERS } from "../features/site.ts";
import { createRenderer, mapLimit, pageLimit, renderLimit, renderPage } from "../render/index.ts";
import { DEFAULT_TIMEOUT_MS, NO_LIMIT, type Limit } from "../time-limit.ts";
import type {
  Extractor,
  ExtractorContext,
  PageInput,
  PageResult,
  PageSnapshot,
  RenderMode,
  SiteContext,
} from "../types.ts";
import { AutoRerender, autoPlan } from "./auto-render.ts";
import { BatchFiles, BatchFileSink, outFormatProblem, type OutFormat } from "./batch-files.ts";
import { ExtractPool, type ExtractSetup, type SitePageBytes } from "./extract-pool.ts";
import { outputOf, pageOutput, type OutputPlan, type PageOutput } from "./page-output.ts";
import type { BatchSink } from "./sink.ts";

/**
 * How a batch renders its pages: one renderer for every page, or "auto": the static parser first,
 * Chromium for the pages whose static pass lost their content (auto-mode.ts).
 */
export type ExtractMode = RenderMode | "auto";

/** What one batch runs: the extractor and its setup, where pages come from, where outputs go. */
export interface BatchOptions {
  extractor: Extractor;
  setup: ExtractSetup;
  mode: ExtractMode;
  /** Worker threads for static pages (0: this thread). */
  workers: number;
  /** Pages in flight in this thread (Chromium tabs, URLs fetched). */
  concurrency: number;
  /** The inputs (files, directories, URLs, WARCs, - for stdin) and how to read them. */
  specs: InputSpecs;
  read: ReadOptions;
  /**
   * Where outputs go (sink.ts Sink: stdout or files; a program may pass its own). With batch
   * files (`outFormat` jsonl or warc) the sink only counts them (BatchSink.count).
   */
  sink: BatchSink;
  /**
   * `--out-format`: "files" (the default) leaves the writing to the sink; "jsonl" and "warc"
   * write one batch file per input under `outDir` (batch-files.ts).
   */
  outFormat?: OutFormat;
  /** The directory of the batch files (`--out`), needed with jsonl and warc. */
  outDir?: string;
  /**
   * One batch file for the whole batch under this name (the queue's job id), without extension;
   * absent: one file per input, named after it (batch-files.ts batchName).
   */
  batchName?: string;
  /**
   * Worker threads already started with this batch's setup, left open after it (a queue worker's,
   * shared by its jobs: src/queue/worker.ts); without it a static batch starts `workers` of its own.
   */
  pool?: ExtractPool;
}

/** Runs the batch to its end: every page's output or error record reaches the sink (or its batch file). */
export async function extractBatch(o: BatchOptions): Promise<void> {
  const files = batchFileSink(o);
  const sink = files ?? o.sink;
  let inputs: AsyncIterable<PageResult<PageBytes>> = files
    ? files.tap(readInputsBySpec(o.specs, o.read))
    : readRawInputs(o.specs, o.read);
  try {
    const setup = o.mode === "auto" ? { ...o.setup, auto: true } : o.setup;
    let onWorkers = o.mode !== "chromium" && o.workers > 0 && !o.extractor.needsSite;
    if (onWorkers && !o.pool) {
      const head = await peek(inputs, 2);
      inputs = head.inputs;
      onWorkers = !head.ended; // one page (a directory of one): in this thread, as a single file
    }
    if (onWorkers)
      await extractOnWorkers(
        o.pool ?? new ExtractPool(o.workers, setup, setup.render.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        o.setup.context.siteModel ? await withSiblings(inputs) : inputs,
        sink,
        { own: !o.pool, rerender: o.mode === "auto" ? rerenderOf(o) : null },
      );
    else await extractInThread({ ...o, sink }, decoded(inputs));
    await sink.done();
  } catch (e) {
    await files?.abort();
    throw e;
  }
}

/**
 * The first `n` inputs read ahead, and the same inputs whole again (`inputs`); `ended` when there
 * were fewer. A batch of one page does not start a worker thread for it: a worker loads the
 * modules and the model a second time (a one-page directory: 0.34 against 0.61 s of CPU).
 */
async function peek<T>(
  source: AsyncIterable<T>,
  n: number,
): Promise<{ inputs: AsyncIterable<T>; ended: boolean }> {
  const it = source[Symbol.asyncIterator]();
  const head: T[] = [];
  let ended = false;
  while (head.length < n && !ended) {
    const next = await it.next();
    if (next.done) ended = true;
    else head.push(next.value);
  }
  async function* all(): AsyncGenerator<T> {
    try {
      yield* head;
      if (ended) return;
      for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    } finally {
      await it.return?.(); // a batch stopped early closes its reader, as a for-await over it would
    }
  }
  return { inputs: all(), ended };
}

/** The sink that writes the batch files of `outFormat` jsonl or warc; null for one file per page. */
function batchFileSink(o: BatchOptions): BatchFileSink | null {
  const outFormat = o.outFormat ?? "files";
  if (outFormat === "files") return null;
  if (!o.outDir) throw new UsageError(`extract: --out-format ${outFormat} needs --out DIR`);
  const problem = outFormatProblem(outFormat, o.setup.format);
  if (problem) throw new UsageError(`extract: ${problem}`);
  const { format, method } = o.setup;
  return new BatchFileSink(new BatchFiles({ outFormat, dir: o.outDir, format, method }), o.sink, o.batchName);
}

/** The pages decoded (readInputs from read bytes). */
async function* decoded(inputs: AsyncIterable<PageResult<PageBytes>>): AsyncGenerator<PageResult<PageInput>> {
  for await (const r of inputs) yield r.ok ? decodePage(r.value) : r;
}

/**
 * Every input read, each page of a site with at least SITE_MIN_PAGES pages carrying the bytes of
 * the first SITE_MAX_OTHERS other pages of its site (input order), for the worker to render.
 */
async function withSiblings(
  inputs: AsyncIterable<PageResult<PageBytes>>,
): Promise<PageResult<SitePageBytes>[]> {
  const all: PageResult<PageBytes>[] = [];
  for await (const r of inputs) all.push(r);
  const pages = all.flatMap((r) => (r.ok ? [r.value] : []));
  const groups = siteSiblings(pages, siteKey, SITE_MIN_PAGES);
  return all.map((r) => {
    const group = r.ok ? groups.get(r.value) : undefined;
    if (!r.ok || !group) return r;
    return { ok: true, value: { ...r.value, siblings: group.others.slice(0, SITE_MAX_OTHERS) } };
  });
}

/**
 * Whether the inputs are a batch (several inputs, a directory or a WARC) rather than one page.
 * A batch runs on one worker per core by default, where they pay for their start (about 0.2 s
 * each from the bundle, 0.6 s from the sources: the modules and the model; a single page runs
 * in this thread), and its pages on stdout each get a `==> id <==` header, so that a reader can
 * tell where one page's text ends.
 */
export async function isBatch(specs: readonly string[]): Promise<boolean> {
  if (specs.length > 1) return true;
  const spec = specs[0] as string;
  if (spec === "-" || isUrl(spec)) return false;
  if (WARC_FILE.test(spec)) return true;
  return (await localDirectory(spec)) !== null;
}

/** The local directory an input names (a path or a file:// URL), or null (a file, a URL, stdin, nothing). */
async function localDirectory(spec: string): Promise<string | null> {
  const path = spec === "-" || isUrl(spec) ? null : localPath(spec);
  if (typeof path !== "string") return null;
  return (await stat(path).catch(() => null))?.isDirectory() ? path : null;
}

/**
 * How many pages (or error records) the inputs give, when that is known without reading them:
 * files, URLs, stdin and directories without WARC files; null otherwise.
 */
export async function countPages(specs: readonly string[]): Promise<number | null> {
  let n = 0;
  for (const spec of specs) {
    if (WARC_FILE.test(spec)) return null;
    const dir = await localDirectory(spec);
    if (dir === null) {
      n++;
      continue;
    }
    const files = await listPageFiles(dir);
    if (files.some((f) => !f.unreadable && WARC_FILE.test(f.path))) return null;
    n += Math.max(1, files.length); // an empty directory gives one error record, an unreadable one too
  }
  return n;
}

/** `--mode auto`'s Chromium pass of a batch. */
function rerenderOf(o: Pick<BatchOptions, "extractor" | "setup" | "concurrency">): AutoRerender {
  return new AutoRerender(o.extractor, o.setup, o.concurrency);
}

/**
 * Static pages on worker threads: each decodes, renders, extracts and formats a page; this thread
 * reads inputs and writes outputs, and with `--mode auto` renders in Chromium the pages a worker
 * sends back (`rerender`). `own`: the pool is this batch's, closed at its end.
 */
async function extractOnWorkers(
  pool: ExtractPool,
  inputs: AsyncIterable<PageResult<SitePageBytes>> | Iterable<PageResult<SitePageBytes>>,
  sink: BatchSink,
  { own, rerender }: { own: boolean; rerender: AutoRerender | null },
): Promise<void> {
  const extract = async (input: SitePageBytes): Promise<PageResult<PageOutput>> => {
    const out = await pool.extract(input);
    return rerender ? rerender.finish(out, () => decodePage(input)) : out;
  };
  try {
    await pool.ready();
    // two pages per worker in flight: one running, one waiting, so no worker idles while this
    // thread reads the next input
    await mapLimit(
      inputs,
      2 * pool.size,
      (r) => (r.ok ? extract(r.value) : Promise.resolve(r)),
      (out) => sink.take(out),
    );
  } finally {
    await rerender?.close();
    if (own) await pool.close();
  }
}

/**
 * Every page in this thread: Chromium mode, site-level methods and --workers 0. Each page's
 * synchronous work runs under --timeout (time-limit.ts), as a worker's page does under the pool's
 * deadline: a static page's parse, extraction and formatting; a Chromium page's extraction and
 * formatting (the browser's wait has its own limit).
 */
async function extractInThread(
  o: Pick<BatchOptions, "extractor" | "setup" | "mode" | "concurrency" | "sink">,
  inputs: AsyncIterable<PageResult<PageInput>>,
): Promise<void> {
  const { extractor, setup, mode, concurrency, sink } = o;
  await extractor.prepare?.(setup.context);
  const renderer = await createRenderer(mode === "auto" ? "static" : mode, { concurrency });
  const rerender = mode === "auto" ? rerenderOf(o) : null;
  try {
    const pages = (r: PageResult<PageInput>, parse: Limit) =>
      r.ok ? renderPage(renderer, r.value, setup.render, parse) : Promise.resolve(r);
    if (extractor.needsSite || setup.context.siteModel) {
      const rendered = await renderAll(inputs, concurrency, (r) =>
        pages(r, renderLimit(renderer, setup.render)),
      );
      return await extractWithSites(o, rendered);
    }
    // extraction starts as soon as a page is rendered, so it overlaps the writing of earlier outputs
    await mapLimit(
      inputs,
      concurrency,
      async (input) => {
        const page = pageLimit(setup.render);
        // one budget from the parse to the output
        const rendered = await pages(input, mode === "chromium" ? NO_LIMIT : page);
        const plan: OutputPlan = rerender
          ? autoPlan(setup, page)
          : { format: setup.format, output: setup.output, limit: page };
        const out = await outputOf(rendered, extractor, setup.context, plan);
        return rerender && input.ok ? rerender.finish(out, () => input) : out;
      },
      (out) => sink.take(out),
    );
  } finally {
    await rerender?.close();
    await renderer.close();
  }
}

/** Every page rendered first, in input order (a site-level method needs the whole batch). */
async function renderAll(
  inputs: AsyncIterable<PageResult<PageInput>>,
  concurrency: number,
  render: (r: PageResult<PageInput>) => Promise<PageResult<PageSnapshot>>,
): Promise<PageResult<PageSnapshot>[]> {
  const rendered: PageResult<PageSnapshot>[] = [];
  await mapLimit(inputs, concurrency, render, (r) => {
    rendered.push(r);
  });
  return rendered;
}

/**
 * Site-level methods see every page of the batch, grouped by site, as their SiteContext; the
 * learned pipeline's site-aware model only pages of sites with at least SITE_MIN_PAGES pages.
 */
async function extractWithSites(
  { extractor, setup, sink }: Pick<BatchOptions, "extractor" | "setup" | "sink">,
  rendered: readonly PageResult<PageSnapshot>[],
): Promise<void> {
  const minPages = extractor.needsSite ? 1 : SITE_MIN_PAGES;
  const contexts = siteContexts(
    rendered.flatMap((r) => (r.ok ? [r.value] : [])),
    minPages,
  );
  for (const r of rendered) {
    const site: SiteContext | undefined = r.ok ? contexts.get(r.value) : undefined;
    const context: ExtractorContext = site ? { ...setup.context, site } : setup.context;
    const limit = pageLimit(setup.render);
    await sink.take(await pageOutput(r, extractor, context, setup.format, setup.output, limit));
  }
}
