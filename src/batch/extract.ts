/**
 * A batch of `pith extract`, as the CLI and the library run it: the inputs read and rendered (on
 * worker threads for static pages, in this thread for Chromium, site-level methods and
 * `--workers 0`), each page extracted and formatted (page-output.ts), every output handed to the
 * sink in input order. The CLI (src/cli/extract.ts) parses flags into a BatchOptions.
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
  type PageBytes,
  type ReadOptions,
} from "../io/inputs.ts";
import { siteContexts } from "../io/site-group.ts";
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
import { BatchFiles, BatchFileSink, outFormatProblem, type OutFormat } from "./batch-files.ts";
import { ExtractPool, type ExtractSetup } from "./extract-pool.ts";
import { pageOutput } from "./page-output.ts";
import type { BatchSink } from "./sink.ts";

/** What one batch runs: the extractor and its setup, where pages come from, where outputs go. */
export interface BatchOptions {
  extractor: Extractor;
  setup: ExtractSetup;
  mode: RenderMode;
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
}

/** Runs the batch to its end: every page's output or error record reaches the sink (or its batch file). */
export async function extractBatch(o: BatchOptions): Promise<void> {
  const files = batchFileSink(o);
  const sink = files ?? o.sink;
  const inputs = files ? files.tap(readInputsBySpec(o.specs, o.read)) : readRawInputs(o.specs, o.read);
  try {
    if (o.mode === "static" && o.workers > 0 && !o.extractor.needsSite)
      await extractOnWorkers(o.setup, o.workers, inputs, sink);
    else await extractInThread({ ...o, sink }, decoded(inputs));
    await sink.done();
  } catch (e) {
    await files?.abort();
    throw e;
  }
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

/**
 * Static pages on worker threads: each decodes, renders, extracts and formats a page; this thread
 * reads inputs and writes outputs.
 */
async function extractOnWorkers(
  setup: ExtractSetup,
  workers: number,
  inputs: AsyncIterable<PageResult<PageBytes>>,
  sink: BatchSink,
): Promise<void> {
  const pool = new ExtractPool(workers, setup, setup.render.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    await pool.ready();
    // two pages per worker in flight: one running, one waiting, so no worker idles while this
    // thread reads the next input
    await mapLimit(
      inputs,
      2 * workers,
      (r) => (r.ok ? pool.extract(r.value) : Promise.resolve(r)),
      (out) => sink.take(out),
    );
  } finally {
    await pool.close();
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
  const renderer = await createRenderer(mode, { concurrency });
  try {
    const pages = (r: PageResult<PageInput>, parse: Limit) =>
      r.ok ? renderPage(renderer, r.value, setup.render, parse) : Promise.resolve(r);
    if (extractor.needsSite) {
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
        const rendered = await pages(input, mode === "static" ? page : NO_LIMIT);
        return pageOutput(rendered, extractor, setup.context, setup.format, setup.output, page);
      },
      (out) => sink.take(out),
    );
  } finally {
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

/** Site-level methods see every page of the batch, grouped by site, as their SiteContext. */
async function extractWithSites(
  { extractor, setup, sink }: Pick<BatchOptions, "extractor" | "setup" | "sink">,
  rendered: readonly PageResult<PageSnapshot>[],
): Promise<void> {
  const contexts = siteContexts(rendered.flatMap((r) => (r.ok ? [r.value] : [])));
  for (const r of rendered) {
    const site: SiteContext | undefined = r.ok ? contexts.get(r.value) : undefined;
    const context: ExtractorContext = site ? { ...setup.context, site } : setup.context;
    const limit = pageLimit(setup.render);
    await sink.take(await pageOutput(r, extractor, context, setup.format, setup.output, limit));
  }
}
