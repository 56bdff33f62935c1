/**
 * `pith extract`: the main job. Inputs → snapshots → an extractor (the learned pipeline by
 * default, or any paper method) → text | markdown | html | json, on stdout or one file per page.
 */
import { once } from "node:events";
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import "../methods.ts";
import { checkParamNames, extractorNames, getExtractor } from "../extractors.ts";
import {
  isUrl,
  listPageFiles,
  localPath,
  readInputs,
  readRawInputs,
  WARC_FILE,
  type PageBytes,
} from "../io/inputs.ts";
import { siteContexts } from "../io/site-group.ts";
import { FORMAT_EXTENSION, FORMATS, type Format } from "../output/index.ts";
import { createRenderer, mapLimit, pageLimit, renderLimit, renderPage } from "../render/index.ts";
import { NO_LIMIT, type Limit } from "../time-limit.ts";
import type {
  Extractor,
  ExtractorContext,
  PageError,
  PageInput,
  PageResult,
  PageSnapshot,
  RenderMode,
  SiteContext,
} from "../types.ts";
import { EXIT, UsageError, intOption, paramsOption, parse, type Command } from "./command.ts";
import { ExtractPool, type ExtractSetup } from "./extract-pool.ts";
import { commandInputs, INPUT_FLAGS, INPUT_HELP } from "./input-flags.ts";
import { pageOutput, type PageOutput } from "./extract-page.ts";
import { progress } from "./progress.ts";
import { OutputDir } from "./output-files.ts";
import { DEFAULT_TIMEOUT_MS, RENDER_FLAGS, RENDER_HELP, renderOptionsFrom } from "./render-flags.ts";

export const DEFAULT_METHOD = "ml";

const HELP = `Usage: pith extract <input...> [options]
       pith extract --input-list FILE [options]

Extract the main content of pages: files (.html, .html.gz), directories (recursive), URLs,
WARC files, or - for stdin.

Options:
${INPUT_HELP}
  --method NAME      extractor (default ${DEFAULT_METHOD}); see the list below
  --format FORMAT    text (default), markdown, html or json (json: chosen nodes, scores, model, trace)
  --no-images        Markdown and HTML without the content's images (by default kept: ![alt](src), <img>)
  --out DIR          write one file per page under DIR, named after the input without its extension
                     (a/page.html.gz → DIR/a/page.txt, a WARC's 3rd page crawl.warc.gz → DIR/crawl/3.txt,
                     https://x.org/list?p=2 → DIR/x.org/list_p_2.txt; a directory's pages: by their
                     path inside it when it is the only input, else by their whole path, so
                     siteA/index.html → DIR/siteA/index.txt); default: stdout, where
                     a batch (several inputs, a directory, a WARC) puts a "==> id <==" line
                     before each page's text, Markdown or HTML, and JSON is one object per line
  --skip-existing    with --out: leave out pages whose output file is already there (resume a batch;
                     outputs are written whole or not at all, so a file found is a finished page).
                     A file kept gets this run's modification time and is the first input's of its
                     name: a second input with that name is an error record, as without the flag
  --model FILE       model artifact for --method ml (default: the bundled model for the render mode)
  --model-dir DIR    where per-domain models are looked up (default: models/)
  --param K=V        method parameter, repeatable (for ml and cnr: bias=precision or
                     bias=recall keeps less noise or misses less content; for ml:
                     comments=drop drops comment sections from article pages, reviews=keep keeps
                     the customer reviews product pages lose by default, refiner=NAME forces
                     none, lbs, tp, region, records or fill on every page type, dedupe=false, fallback=false,
                     context=false skips the model's context stage, hidden=false reads only text the
                     markup shows: static models also weigh text in hidden / aria-hidden /
                     display:none elements such as collapsed accordions and tabs)
  --workers N        worker threads that render and extract static pages side by side (default:
                     one per core, ${availableParallelism()} here, when the input is a directory, a WARC or several
                     inputs; else 0). 0 extracts in this thread. --timeout ends a page stuck in
                     parsing or extraction either way. Static mode only: Chromium renders in
                     its own processes (--concurrency tabs). On workers each worker takes one
                     page at a time and --concurrency does not apply
${RENDER_HELP}
  -h, --help         this help

Exit codes: 0 all pages extracted, 1 some pages failed (each reported on stderr, the batch
goes on), 2 usage error, 3 fatal (e.g. no browser, unreadable model).`;

interface Emitted {
  ok: number;
  empty: number;
  /** Pages that failed (each reported on stderr as it came: a batch of millions keeps no list). */
  errors: number;
  /** Pages left out by --skip-existing. */
  skipped: number;
}

export const extractCommand: Command = {
  name: "extract",
  get help() {
    return `${HELP}\n\nMethods: ${extractorNames().join(", ")}`;
  },
  async run(argv) {
    const { values, positionals } = parse("extract", argv, {
      ...RENDER_FLAGS,
      ...INPUT_FLAGS,
      method: { type: "string" },
      format: { type: "string" },
      out: { type: "string" },
      model: { type: "string" },
      "model-dir": { type: "string" },
      param: { type: "string", multiple: true },
      workers: { type: "string" },
      "skip-existing": { type: "boolean" },
      "no-images": { type: "boolean" },
    });
    const inputs = commandInputs("extract", positionals, values["input-list"]);
    const format = (values.format ?? "text") as Format;
    if (!FORMATS.includes(format))
      throw new UsageError(`extract: --format must be one of ${FORMATS.join(", ")}`);
    const extractor = extractorFor(values.method ?? DEFAULT_METHOD);
    const { mode, options, concurrency, read } = renderOptionsFrom("extract", values);
    if (format === "json") options.declaredMeta = true; // the JSON output's metadata
    const params = paramsOption("extract", values.param);
    const context: ExtractorContext = {
      mode,
      params,
      // only JSON output carries the trace (≈ 0.7 ms/page)
      trace: format === "json",
      ...(values.model ? { model: values.model } : {}),
      ...(values["model-dir"] ? { modelDir: values["model-dir"] } : {}),
    };
    try {
      extractor.checkParams?.(params);
      checkParamNames(extractor, params);
    } catch (e) {
      throw new UsageError(`extract: ${(e as Error).message}`);
    }
    const batch = inputs.listed || (await isBatch(positionals));
    const workers = intOption("extract", "workers", values.workers, batch ? availableParallelism() : 0);
    if (workers < 0 || !Number.isInteger(workers))
      throw new UsageError(`extract: --workers must be a whole number, 0 or more, not ${values.workers}`);
    if (values["skip-existing"] && !values.out)
      throw new UsageError("extract: --skip-existing needs --out DIR");
    const files = values.out ? await OutputDir.open("extract", values.out, FORMAT_EXTENSION[format]) : null;
    const sink = new Sink(format, files, batch);
    if (files && values["skip-existing"]) read.skip = files.skipDone((id) => sink.skipped(id));
    // listed beside the batch, for the bar alone
    if (sink.bar.active && !inputs.listed)
      void countPages(positionals).then(
        (n) => n !== null && sink.bar.setTotal(n),
        () => {},
      );
    if (values["no-images"] && format !== "markdown" && format !== "html")
      throw new UsageError(
        "extract: --no-images applies to --format markdown or html (text and JSON hold no images)",
      );
    const setup: ExtractSetup = {
      method: extractor.name,
      context,
      format,
      output: { images: !values["no-images"] },
      render: options,
    };
    if (mode === "static" && workers > 0 && !extractor.needsSite)
      await extractOnWorkers(setup, workers, readRawInputs(inputs.specs, read), sink);
    else await extractInThread(extractor, setup, mode, concurrency, readInputs(inputs.specs, read), sink);
    await sink.done();
    const { ok, empty, errors, skipped } = sink.counts;
    const skips = skipped ? `, ${skipped} skipped (output already there)` : "";
    const models = [...sink.models].map(([m, n]) => `${m} ×${n}`).join(", ");
    process.stderr.write(
      `extracted ${ok} page(s) with ${extractor.name}${empty ? ` (${empty} empty)` : ""}, ${errors} error(s)${skips}${models ? `; models: ${models}` : ""}\n`,
    );
    return errors ? EXIT.pageErrors : EXIT.ok;
  },
};

/**
 * Whether the inputs are a batch (several inputs, a directory or a WARC) rather than one page.
 * A batch runs on one worker per core by default, where they pay for their start (about 0.2 s
 * each from the bundle, 0.6 s from the sources: the modules and the model; a single page runs
 * in this thread), and its pages on stdout each get a `==> id <==` header, so that a reader can
 * tell where one page's text ends.
 */
async function isBatch(specs: readonly string[]): Promise<boolean> {
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
async function countPages(specs: readonly string[]): Promise<number | null> {
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
  sink: Sink,
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
  extractor: Extractor,
  setup: ExtractSetup,
  mode: RenderMode,
  concurrency: number,
  inputs: AsyncIterable<PageResult<PageInput>>,
  sink: Sink,
): Promise<void> {
  await extractor.prepare?.(setup.context);
  const renderer = await createRenderer(mode, { concurrency });
  try {
    const pages = (r: PageResult<PageInput>, parse: Limit) =>
      r.ok ? renderPage(renderer, r.value, setup.render, parse) : Promise.resolve(r);
    const context = setup.context;
    if (extractor.needsSite)
      await extractWithSites(
        extractor,
        setup,
        (r) => pages(r, renderLimit(renderer, setup.render)),
        () => pageLimit(setup.render),
        inputs,
        concurrency,
        sink,
      );
    // extraction starts as soon as a page is rendered, so it overlaps the writing of earlier outputs
    else
      await mapLimit(
        inputs,
        concurrency,
        async (input) => {
          const page = pageLimit(setup.render);
          // one budget from the parse to the output
          const rendered = await pages(input, mode === "static" ? page : NO_LIMIT);
          return pageOutput(rendered, extractor, context, setup.format, setup.output, page);
        },
        (out) => sink.take(out),
      );
  } finally {
    await renderer.close();
  }
}

/** Site-level methods see every page of the batch first, grouped by site. */
async function extractWithSites(
  extractor: Extractor,
  setup: ExtractSetup,
  render: (r: PageResult<PageInput>) => Promise<PageResult<PageSnapshot>>,
  limit: () => Limit,
  inputs: AsyncIterable<PageResult<PageInput>>,
  concurrency: number,
  sink: Sink,
): Promise<void> {
  const rendered: PageResult<PageSnapshot>[] = [];
  await mapLimit(inputs, concurrency, render, (r) => {
    rendered.push(r);
  });
  const contexts = siteContexts(rendered.flatMap((r) => (r.ok ? [r.value] : [])));
  for (const r of rendered) {
    const site: SiteContext | undefined = r.ok ? contexts.get(r.value) : undefined;
    const context: ExtractorContext = site ? { ...setup.context, site } : setup.context;
    await sink.take(await pageOutput(r, extractor, context, setup.format, setup.output, limit()));
  }
}

function extractorFor(name: string): Extractor {
  let extractor: Extractor;
  try {
    extractor = getExtractor(name);
  } catch (e) {
    throw new UsageError(`extract: ${(e as Error).message}`);
  }
  if (extractor.needsGold)
    throw new UsageError(
      `extract: --method ${name} reads each page's gold text: run it with pith evaluate --method ${name} --data SET`,
    );
  return extractor;
}

/** Writes outputs in input order, to stdout or one file per page, and counts results. */
class Sink {
  readonly counts: Emitted = { ok: 0, empty: 0, errors: 0, skipped: 0 };
  /**
   * Pages per model of the learned pipeline (a per-domain model beside the default says so in the summary).
   */
  readonly models = new Map<string, number>();
  private chain: Promise<void> = Promise.resolve();
  readonly bar = progress("extract", 0);
  private first = true;
  constructor(
    private readonly format: Format,
    private readonly files: OutputDir | null,
    private readonly many: boolean,
  ) {}

  /** A page --skip-existing left out: counted, and the bar moves on. */
  skipped(id: string): void {
    this.counts.skipped++;
    this.bar.tick(id);
  }

  /**
   * Queues one page's output after the earlier ones; the promise
   * settles when it is written (mapLimit waits on it).
   */
  take(r: PageResult<PageOutput>): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (!r.ok) return this.error(r.error);
      const failed = await this.write(r.value);
      if (failed) return this.error(failed);
      this.counts.ok++;
      if (r.value.empty) this.counts.empty++;
      if (r.value.model) this.models.set(r.value.model, (this.models.get(r.value.model) ?? 0) + 1);
      if (r.value.emptyReason) this.bar.note(`empty\t${r.value.id}\t${r.value.emptyReason}`);
      this.bar.tick(r.value.id);
    });
    return this.chain;
  }

  private error(err: PageError): void {
    this.counts.errors++;
    this.bar.note(`error\t${err.id}\t${err.stage}\t${err.reason}`);
    this.bar.tick(err.id);
  }

  /** Writes one page's output; the error record when its file cannot be written. */
  private async write({ id, body }: PageOutput): Promise<PageError | null> {
    if (this.files) return this.files.write(id, id, body + "\n");
    const header = this.many && this.format !== "json" ? `${this.first ? "" : "\n"}==> ${id} <==\n` : "";
    this.first = false;
    // a slow reader (a pipe into another program) holds the writes back instead of our memory
    if (!process.stdout.write(header + body + "\n")) await once(process.stdout, "drain");
    return null;
  }

  async done(): Promise<void> {
    await this.chain;
    this.bar.stop();
  }
}
