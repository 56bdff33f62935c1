/**
 * `pith extract`: the main job. Inputs → snapshots → an extractor (the learned pipeline by
 * default, or any paper method) → text | markdown | html | json, on stdout or one file per page.
 */
import "../methods.ts";
import { countPages, extractBatch, isBatch } from "../batch/extract.ts";
import { exitOnSignals } from "../exit-on-signal.ts";
import { defaultWorkers, type ExtractSetup } from "../batch/extract-pool.ts";
import { OUT_FORMATS, outFormatProblem, type OutFormat } from "../batch/batch-files.ts";
import { OutputDir } from "../batch/output-files.ts";
import { progress } from "../batch/progress.ts";
import { Sink } from "../batch/sink.ts";
import { checkParamNames, extractorNames, getExtractor } from "../extractors.ts";
import { FORMAT_EXTENSION, FORMATS, type Format } from "../output/index.ts";
import type { ReadOptions } from "../io/inputs.ts";
import type { Extractor, ExtractorContext, RenderMode } from "../types.ts";
import type { ExtractMode } from "../batch/extract.ts";
import { AUTO_MAX_KEPT_SHARE } from "../batch/auto-mode.ts";
import { EXIT, UsageError, intOption, paramsOption, parse, type Command } from "./command.ts";
import { SITE_MIN_PAGES } from "../io/site-group.ts";
import { SITE_MAX_OTHERS } from "../features/site.ts";
import { bundledSitePath } from "../pipeline/model/model.ts";
import { existsSync } from "node:fs";
import { commandInputs, INPUT_FLAGS, INPUT_HELP } from "./input-flags.ts";
import { RENDER_FLAGS, RENDER_HELP, renderOptionsFrom } from "./render-flags.ts";

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
  --out-format F     with --out: files (default: one file per page, as above), jsonl or warc: one
                     gzipped file per input (a WARC, a directory, a file, a URL; with --input-list
                     one for the run, named after the list), written whole or not at all:
                     jsonl: DIR/<input>.jsonl.gz, each line a page's --format json object (the
                     default format here) or a failed page's {"version","id","source","error"};
                     warc: DIR/<input>.wet.warc.gz (crawl.warc.gz → DIR/crawl.wet.warc.gz), a
                     WET-style WARC with a conversion record per page (--format text, markdown or
                     html) that refers to its source record, a metadata record per failed page
  --skip-existing    with --out: leave out pages whose output file is already there (resume a batch;
                     outputs are written whole or not at all, so a file found is a finished page).
                     A file kept gets this run's modification time and is the first input's of its
                     name: a second input with that name is an error record, as without the flag
  --model FILE       model artifact for --method ml and louvan (default: the method's bundled model
                     for the render mode: models/default-MODE.json, models/louvan-MODE.json)
  --model-dir DIR    where per-domain models are looked up (default: models/)
  --site-features on|off
                     on (--method ml): a page whose batch holds at least ${SITE_MIN_PAGES} pages of its site
                     (URL host, or directory for local files) is read with up to ${SITE_MAX_OTHERS} of them:
                     the site features (template occurrence counts, block IBDF) are computed
                     and the site-aware model decides; other pages keep the single-page model.
                     Reads the whole batch before the first output. Default off (docs/site.md)
  --site-model FILE  the site-aware model for --site-features on (pith train --site-features;
                     default: models/site-<mode>.json when there is one)
  --param K=V        method parameter, repeatable (for ml and cnr: bias=precision or
                     bias=recall keeps less noise or misses less content; for ml:
                     comments=drop drops comment sections from article pages, reviews=keep keeps
                     the customer reviews product pages lose by default, refiner=NAME forces
                     none, lbs, sls, tp, region, records or fill on every page type, segments=on
                     smooths scores within Louvan's predicted segments, dedupe=false,
                     containment=false (keep blocks mostly repeating other kept text), teasers=false
                     (keep "Related"/"Most read" link lists on article pages), fallback=false,
                     docFill=false (documentation-like pages are not filled to their main region),
                     context=false skips the model's context stage, hidden=false reads only text the
                     markup shows: static models also weigh text in hidden / aria-hidden /
                     display:none elements such as collapsed accordions and tabs; for louvan:
                     refiner=sls or none stands where LBS runs, forums keep TP)
  --workers N        worker threads that render and extract static pages side by side (default:
                     one per core when there are several, ${defaultWorkers()} here, for a directory, a WARC or
                     several inputs; else 0). 0 extracts in this thread. --timeout ends a page stuck in
                     parsing or extraction either way. Static mode only: Chromium renders in
                     its own processes (--concurrency tabs). On workers each worker takes one
                     page at a time and --concurrency does not apply
${RENDER_HELP}
  --mode auto        the static parser first; Chromium (with its model) renders only the pages
                     whose static extraction kept less than ${100 * AUTO_MAX_KEPT_SHARE} % of their visible words and,
                     with --js, a page with no visible word but scripts (an application shell).
                     A batch whose pages all stay static starts no browser; a Chromium failure
                     writes the static result with a warning. JSON output: "mode" and the trace's
                     first entry (step auto-mode) say which (docs/render.md)
  -h, --help         this help

Exit codes: 0 all pages extracted, 1 some pages failed (each reported on stderr, the batch
goes on), 2 usage error, 3 fatal (e.g. no browser, unreadable model).`;

export const EXTRACT_FLAGS = {
  ...RENDER_FLAGS,
  ...INPUT_FLAGS,
  method: { type: "string" },
  format: { type: "string" },
  out: { type: "string" },
  "out-format": { type: "string" },
  model: { type: "string" },
  "model-dir": { type: "string" },
  "site-features": { type: "string" },
  "site-model": { type: "string" },
  param: { type: "string", multiple: true },
  workers: { type: "string" },
  "skip-existing": { type: "boolean" },
  "no-images": { type: "boolean" },
} as const;

export type ExtractValues = ReturnType<typeof parse<typeof EXTRACT_FLAGS>>["values"];

export const extractCommand: Command = {
  name: "extract",
  get help() {
    return `${HELP}\n\nMethods: ${extractorNames().join(", ")}`;
  },
  async run(argv) {
    const { values, positionals } = parse("extract", argv, EXTRACT_FLAGS);
    const inputs = commandInputs("extract", positionals, values["input-list"]);
    const plan = extractPlan("extract", values);
    const { extractor, format, read, outFormat } = plan;
    if (outFormat !== "files" && !values.out)
      throw new UsageError(`extract: --out-format ${outFormat} needs --out DIR`);
    const batch = inputs.listed || (await isBatch(positionals));
    const workers = workersOption("extract", values.workers, batch ? defaultWorkers() : 0);
    if (values["skip-existing"] && !values.out)
      throw new UsageError("extract: --skip-existing needs --out DIR");
    const out = values.out ? await OutputDir.open("extract", values.out, FORMAT_EXTENSION[format]) : null;
    const files = outFormat === "files" ? out : null;
    const sink = new Sink(format, files, batch, progress("extract", 0));
    if (files && values["skip-existing"]) read.skip = files.skipDone((id) => sink.skipped(id));
    // listed beside the batch, for the bar alone
    if (sink.bar.active && !inputs.listed)
      void countPages(positionals).then(
        (n) => n !== null && sink.bar.setTotal(n),
        () => {},
      );
    // an interrupted run removes its partial batch files at exit (batch-files.ts)
    if (outFormat !== "files") exitOnSignals();
    const outputs = { ...(out ? { outDir: out.root } : {}), ...listName(values["input-list"]) };
    await extractBatch({ ...plan, workers, specs: inputs.specs, sink, ...outputs });
    return summarise(extractor, sink);
  },
};

/** A --workers value: a whole number, 0 or more (`fallback` when not given). */
export function workersOption(command: string, value: string | undefined, fallback: number): number {
  const workers = intOption(command, "workers", value, fallback);
  if (workers < 0 || !Number.isInteger(workers))
    throw new UsageError(`${command}: --workers must be a whole number, 0 or more, not ${value}`);
  return workers;
}

/**
 * What extract's flags ask of a batch, whatever its inputs and outputs: the extractor and its
 * setup, the render mode, how pages are read. `pith queue worker` builds each job's batch from
 * the flags the job was submitted with through this function, so a queued page is extracted
 * exactly as `pith extract` extracts it.
 */
export interface ExtractPlan {
  extractor: Extractor;
  setup: ExtractSetup;
  mode: ExtractMode;
  concurrency: number;
  read: ReadOptions;
  format: Format;
  /** --out-format: one file per page, or one JSONL / WARC file per input (src/batch/batch-files.ts). */
  outFormat: OutFormat;
}

/** The ExtractPlan of extract's flag values; a bad flag is a usage error naming `command`. */
export function extractPlan(command: string, values: ExtractValues): ExtractPlan {
  const outFormat = outFormatFrom(command, values);
  const format = (values.format ?? (outFormat === "jsonl" ? "json" : "text")) as Format;
  if (!FORMATS.includes(format))
    throw new UsageError(`${command}: --format must be one of ${FORMATS.join(", ")}`);
  const problem = outFormatProblem(outFormat, format);
  if (problem) throw new UsageError(`${command}: ${problem}`);
  const extractor = extractorFor(command, values.method ?? DEFAULT_METHOD);
  const auto = values.mode === "auto";
  if (values.mode !== undefined && !auto && values.mode !== "static" && values.mode !== "chromium")
    throw new UsageError(`${command}: --mode must be static, chromium or auto, got "${values.mode}"`);
  // auto may run Chromium, so it takes Chromium's flags (--js, --resources)
  const rendering = renderOptionsFrom(command, auto ? { ...values, mode: "chromium" } : values);
  const { options, concurrency, read } = rendering;
  const mode: ExtractMode = auto ? "auto" : rendering.mode;
  if (format === "json") options.declaredMeta = true; // the JSON output's metadata
  if (auto) checkAuto(command, extractor, values);
  const context = contextFrom(command, extractor, values, mode, format);
  if (values["no-images"] && format !== "markdown" && format !== "html")
    throw new UsageError(
      `${command}: --no-images applies to --format markdown or html (text and JSON hold no images)`,
    );
  const output = { images: !values["no-images"] };
  const setup: ExtractSetup = {
    method: extractor.name,
    context,
    format,
    output,
    render: options,
    ...(auto ? { auto } : {}),
  };
  return { extractor, setup, mode, concurrency, read, format, outFormat };
}

/** What `--mode auto` cannot do: one model file for pages of both modes, a batch read whole for its sites. */
function checkAuto(command: string, extractor: Extractor, values: ExtractValues): void {
  if (values.model)
    throw new UsageError(
      `${command}: --model FILE is trained for one render mode; with --mode auto each page uses the ` +
        "bundled model of the mode it was read in: drop --model, or choose --mode static or chromium",
    );
  if (extractor.needsSite || values["site-features"] === "on")
    throw new UsageError(
      `${command}: --mode auto reads pages one at a time: not with site-level methods or --site-features on`,
    );
}

/** --out-format, checked: a known value, and --skip-existing only for one file per page. */
function outFormatFrom(command: string, values: ExtractValues): OutFormat {
  const given = values["out-format"];
  if (given === undefined) return "files";
  if (!(OUT_FORMATS as readonly string[]).includes(given))
    throw new UsageError(`${command}: --out-format must be one of ${OUT_FORMATS.join(", ")}, not ${given}`);
  if (given !== "files" && values["skip-existing"])
    throw new UsageError(
      `${command}: --skip-existing applies to --out-format files (a ${given} file is rewritten whole)`,
    );
  return given as OutFormat;
}

/** With --input-list, one batch file for the run, named after the list (`urls.txt` → `urls`; stdin: `stdin`). */
function listName(list: string | undefined): { batchName?: string } {
  if (list === undefined) return {};
  return { batchName: list === "-" ? "stdin" : list.replace(/(?<=[^/])\.[^./]*$/, "") };
}

/** The extractor's context from the flags (mode, model, trace, params); a bad param is a usage error. */
function contextFrom(
  command: string,
  extractor: Extractor,
  values: ExtractValues,
  mode: ExtractMode,
  format: Format,
): ExtractorContext {
  const params = paramsOption(command, values.param);
  try {
    extractor.checkParams?.(params);
    checkParamNames(extractor, params);
  } catch (e) {
    throw new UsageError(`${command}: ${(e as Error).message}`);
  }
  return {
    // auto: each page's model is its snapshot's mode's
    ...(mode === "auto" ? {} : { mode }),
    params,
    // only JSON output carries the trace (≈ 0.7 ms/page)
    trace: format === "json",
    ...(values.model ? { model: values.model } : {}),
    ...(values["model-dir"] ? { modelDir: values["model-dir"] } : {}),
    ...(mode === "auto" ? {} : siteModelFrom(extractor, values, mode)),
  };
}

/** `--site-features` and `--site-model`: the site-aware model when site features are on. */
function siteModelFrom(
  extractor: Extractor,
  values: ExtractValues,
  mode: RenderMode,
): { siteModel?: string } {
  const on = values["site-features"] ?? "off";
  if (on !== "on" && on !== "off")
    throw new UsageError(`extract: --site-features must be on or off, not "${on}"`);
  if (on === "off") {
    if (values["site-model"]) throw new UsageError("extract: --site-model needs --site-features on");
    return {};
  }
  if (extractor.name !== DEFAULT_METHOD)
    throw new UsageError(`extract: --site-features applies to --method ${DEFAULT_METHOD}`);
  const file = values["site-model"] ?? bundledSitePath(mode);
  if (!values["site-model"] && !existsSync(file))
    throw new UsageError(
      `extract: --site-features on needs a site-aware model: none is bundled for --mode ${mode} ` +
        `(${file}); train one with pith train --site-features --out FILE and pass --site-model FILE`,
    );
  return { siteModel: file };
}

/** The batch's summary line on stderr, and the exit code its counts call for. */
function summarise(extractor: Extractor, sink: Sink): number {
  const { ok, empty, errors, skipped } = sink.counts;
  const skips = skipped ? `, ${skipped} skipped (output already there)` : "";
  const models = [...sink.models].map(([m, n]) => `${m} ×${n}`).join(", ");
  const emptyCount = empty ? ` (${empty} empty)` : "";
  process.stderr.write(
    `extracted ${ok} page(s) with ${extractor.name}${emptyCount}, ${errors} error(s)${skips}` +
      `${models ? `; models: ${models}` : ""}\n`,
  );
  return errors ? EXIT.pageErrors : EXIT.ok;
}

function extractorFor(command: string, name: string): Extractor {
  let extractor: Extractor;
  try {
    extractor = getExtractor(name);
  } catch (e) {
    throw new UsageError(`${command}: ${(e as Error).message}`);
  }
  if (extractor.needsGold)
    throw new UsageError(
      `${command}: --method ${name} reads each page's gold text: run it with pith evaluate --method ${name} --data SET`,
    );
  return extractor;
}
