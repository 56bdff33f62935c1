/**
 * `pith extract`: the main job. Inputs → snapshots → an extractor (the learned pipeline by
 * default, or any paper method) → text | markdown | html | json, on stdout or one file per page.
 */
import { once } from "node:events";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import "../algorithms/index.ts";
import { buildTree } from "../dom/tree.ts";
import { extractorNames, getExtractor } from "../extractors.ts";
import { readInputs } from "../io/inputs.ts";
import { siteContexts } from "../io/site-group.ts";
import { FORMAT_EXTENSION, FORMATS, formatExtraction, type Format } from "../output/index.ts";
import { createRenderer, mapLimit, renderPage } from "../render/index.ts";
import type { Extraction, Extractor, ExtractorContext, PageError, PageInput, PageResult, PageSnapshot, SiteContext } from "../types.ts";
import { EXIT, UsageError, paramsOption, parse, type Command } from "./command.ts";
import { progress } from "./progress.ts";
import { outputName } from "./render.ts";
import { DEFAULT_TIMEOUT_MS, RENDER_FLAGS, RENDER_HELP, renderOptionsFrom } from "./render-flags.ts";

export const DEFAULT_METHOD = "ml";

const HELP = `Usage: pith extract <input...> [options]

Extract the main content of pages: files (.html, .html.gz), directories (recursive), URLs,
WARC files, or - for stdin.

Options:
  --method NAME      extractor (default ${DEFAULT_METHOD}); see the list below
  --format FORMAT    text (default), markdown, html or json (json: chosen nodes, scores, model, trace)
  --out DIR          write one file per page under DIR, named after the input without its extension
                     (a/page.html.gz → DIR/a/page.txt); default: stdout
  --model FILE       model artifact for --method ml (default: the bundled model for the render mode)
  --model-dir DIR    where per-domain models are looked up (default: models/)
  --param K=V        method parameter, repeatable (e.g. --param bias=precision for cnr; for ml:
                     comments=drop drops comment sections from article pages, refiner=NAME forces
                     none, lbs, tp, region or records on every page type, dedupe=false, fallback=false,
                     context=false skips the model's context stage)
${RENDER_HELP}
  -h, --help         this help

Exit codes: 0 all pages extracted, 1 some pages failed (each reported on stderr, the batch
goes on), 2 usage error, 3 fatal (e.g. no browser, unreadable model).`;

interface Emitted {
  ok: number;
  empty: number;
  errors: PageError[];
}

export const extractCommand: Command = {
  name: "extract",
  summary: "extract the main content of pages (text, markdown, html, json)",
  get help() {
    return `${HELP}\n\nMethods: ${extractorNames().join(", ")}`;
  },
  async run(argv) {
    const { values, positionals } = parse("extract", argv, {
      ...RENDER_FLAGS,
      method: { type: "string" },
      format: { type: "string" },
      out: { type: "string" },
      model: { type: "string" },
      "model-dir": { type: "string" },
      param: { type: "string", multiple: true },
    });
    if (!positionals.length) throw new UsageError("extract: give at least one input (file, directory, URL or -)");
    const format = (values.format ?? "text") as Format;
    if (!FORMATS.includes(format)) throw new UsageError(`extract: --format must be one of ${FORMATS.join(", ")}`);
    const extractor = extractorFor(values.method ?? DEFAULT_METHOD);
    const { mode, options, concurrency } = renderOptionsFrom("extract", values);
    const params = paramsOption("extract", values.param);
    if (values.model) params["model"] = values.model;
    if (values["model-dir"]) params["modelDir"] = values["model-dir"];
    params["mode"] = mode;
    if (format !== "json" && !("trace" in params)) params["trace"] = false; // only JSON output carries the trace (≈ 0.7 ms/page)
    await extractor.prepare?.(params);
    const renderer = await createRenderer(mode, { concurrency });
    const sink = new Sink(format, values.out ?? null, positionals.length > 1);
    try {
      const pages = (r: PageResult<PageInput>) => (r.ok ? renderPage(renderer, r.value, options) : Promise.resolve(r));
      const inputs = readInputs(positionals, { fetchTimeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
      if (extractor.needsSite) await extractWithSites(extractor, params, pages, inputs, concurrency, sink);
      else {
        // extraction starts as soon as a page is rendered, so it overlaps the writing of earlier outputs
        const extracted = async (input: PageResult<PageInput>) => {
          const r = await pages(input);
          return { r, extraction: r.ok ? runExtractor(extractor, r.value, { params }) : null };
        };
        await mapLimit(inputs, concurrency, extracted, ({ r, extraction }) => sink.take(r, extraction));
      }
    } finally {
      await renderer.close();
    }
    await sink.done();
    const { ok, empty, errors } = sink.counts;
    process.stderr.write(`extracted ${ok} page(s) with ${extractor.name}${empty ? ` (${empty} empty)` : ""}, ${errors.length} error(s)\n`);
    return errors.length ? EXIT.pageErrors : EXIT.ok;
  },
};

/** Site-level methods see every page of the batch first, grouped by site. */
async function extractWithSites(
  extractor: Extractor,
  params: ExtractorContext["params"] & object,
  render: (r: PageResult<PageInput>) => Promise<PageResult<PageSnapshot>>,
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
    sink.take(r, r.ok ? runExtractor(extractor, r.value, site ? { params, site } : { params }) : null);
  }
}

function extractorFor(name: string): Extractor {
  try {
    return getExtractor(name);
  } catch (e) {
    throw new UsageError(`extract: ${(e as Error).message}`);
  }
}

async function runExtractor(extractor: Extractor, page: PageSnapshot, context: ExtractorContext): Promise<PageResult<Extraction>> {
  try {
    return { ok: true, value: await extractor.extract(page, context) };
  } catch (e) {
    const reason = String((e as Error)?.message ?? e).split("\n")[0] ?? "extraction failed";
    return { ok: false, error: { id: page.id, source: page.source, stage: "extract", reason } };
  }
}

/** Writes outputs in input order, to stdout or one file per page, and counts results. */
class Sink {
  readonly counts: Emitted = { ok: 0, empty: 0, errors: [] };
  private chain: Promise<void> = Promise.resolve();
  private readonly bar = progress("extract", 0);
  private first = true;
  constructor(
    private readonly format: Format,
    private readonly out: string | null,
    private readonly many: boolean,
  ) {}

  /** Queues one page's output after the earlier ones; the promise settles when it is written (mapLimit waits on it). */
  take(r: PageResult<PageSnapshot>, extraction: Promise<PageResult<Extraction>> | null): Promise<void> {
    this.chain = this.chain.then(async () => {
      const e = extraction ? await extraction : null;
      if (!r.ok) return this.error(r.error);
      if (!e) return;
      if (!e.ok) return this.error(e.error);
      this.counts.ok++;
      if (!e.value.text) this.counts.empty++;
      if (e.value.emptyReason) process.stderr.write(`empty\t${r.value.id}\t${e.value.emptyReason}\n`);
      await this.write(r.value, e.value);
      this.bar.tick(r.value.id);
    });
    return this.chain;
  }

  private error(err: PageError): void {
    this.counts.errors.push(err);
    process.stderr.write(`error\t${err.id}\t${err.stage}\t${err.reason}\n`);
  }

  private async write(page: PageSnapshot, extraction: Extraction): Promise<void> {
    const body = formatExtraction(this.format, page, buildTree(page), extraction);
    if (this.out) {
      const path = join(this.out, outputName(page.id, FORMAT_EXTENSION[this.format]));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body + "\n");
      return;
    }
    const header = this.many && this.format !== "json" ? `${this.first ? "" : "\n"}==> ${page.id} <==\n` : "";
    this.first = false;
    // a slow reader (a pipe into another program) holds the writes back instead of our memory
    if (!process.stdout.write(header + body + "\n")) await once(process.stdout, "drain");
  }

  async done(): Promise<void> {
    await this.chain;
    this.bar.stop();
  }
}
