/**
 * `pith predict`: the classifiers' view of pages, one JSON line per structural node (the rows of the
 * feature table) with its segment score, its content score and label at the routed type's threshold,
 * before the rules and the refiner (src/pipeline/predict.ts). For analysis, labeling and debugging;
 * `pith extract` gives the text the run keeps after them.
 */
import { firstLine } from "../errors.ts";
import type { ReadOptions } from "../io/inputs.ts";
import { readInputs } from "../io/inputs.ts";
import { mlExtractor, runOptionsFrom } from "../pipeline/extractor.ts";
import { cachedModel, resolveModelFile } from "../pipeline/model/resolve.ts";
import type { RunOptions } from "../pipeline/options.ts";
import { predictPage, type NodePrediction } from "../pipeline/predict.ts";
import { checkParamNames } from "../extractors.ts";
import { createRenderer, mapLimit, pageLimit, renderLimit, renderPage } from "../render/index.ts";
import { TimeLimitExceeded } from "../time-limit.ts";
import type { PageError, PageSnapshot, RenderMode, RenderOptions, Renderer } from "../types.ts";
import { progress, type Progress } from "../batch/progress.ts";
import { EXIT, UsageError, paramsOption, parse, type Command } from "./command.ts";
import { commandInputs, INPUT_FLAGS, INPUT_HELP } from "./input-flags.ts";
import { openLineFile, stdoutLines, type LineFile } from "./line-file.ts";
import { RENDER_FLAGS, RENDER_HELP, renderOptionsFrom } from "./render-flags.ts";

const HELP = `Usage: pith predict <input...> [options]
       pith predict --input-list FILE [options]

The classifiers' view of pages: one JSON line per structural node (each row of the feature table,
as \`pith features\` writes them) with
  page       the page id
  node       the node's index in the snapshot the model reads
  path, tag  the node's path (as in extract's JSON and trace) and tag
  pageType   the routed page type
  segment    the segment classifier's P(good segment); null without one or for a node without words
  content    P(main) after the content classifier and the context stage (and the segment smoothing):
             the score extract decides on; null for a node that owns no words
  threshold  the routed type's decision threshold (moved by --param bias=…)
  label      1 when content ≥ threshold, else 0; null where content is null
  words      the words the node owns

How it differs from \`pith extract\`: extract gives the text kept after the rules (boilerplate,
comments, dedupe, fallback) and the page type's refiner; predict gives every node's scores before
them, for analysis, labeling and debugging. The rows labelled 1 are those extract's JSON trace
(content-classifier entries) reports at P(main) ≥ the threshold, with the same scores.

Inputs as for extract: files (.html, .html.gz), directories (recursive), URLs, WARC files, - for stdin.

Options:
${INPUT_HELP}
  --out FILE         write the JSONL here (default stdout)
  --model FILE       model artifact (default: a per-domain model, else the bundled one for the mode)
  --model-dir DIR    where per-domain models are looked up (default: models/)
  --param K=V        ml parameter that changes the scores: context=false, bias=precision|recall,
                     pageType=TYPE, hidden=false (rule and refiner parameters change nothing here)
${RENDER_HELP}
  -h, --help         this help

A page that cannot be read or rendered is an error record on stderr (error<TAB>id<TAB>stage<TAB>reason)
and the batch goes on; a page without a visible word has no rows and an "empty<TAB>id<TAB>reason" line.

Exit codes: 0 every page done, 1 some pages failed, 2 usage error, 3 fatal (e.g. unloadable model).`;

const PREDICT_FLAGS = {
  ...RENDER_FLAGS,
  ...INPUT_FLAGS,
  out: { type: "string" },
  model: { type: "string" },
  "model-dir": { type: "string" },
  param: { type: "string", multiple: true },
} as const;

/** Where the rows go: stdout or a file, written with backpressure. */
async function openOutput(path: string | undefined): Promise<LineFile> {
  return path ? openLineFile("predict", path) : stdoutLines();
}

interface Job {
  mode: RenderMode;
  render: RenderOptions;
  run: RunOptions;
  model: { model?: string; modelDir?: string };
  renderer: Renderer;
  output: LineFile;
  bar: Progress;
  pages: number;
  rows: number;
  errors: number;
}

function report(job: Job, e: PageError): void {
  job.errors++;
  job.bar.note(`error\t${e.id}\t${e.stage}\t${e.reason}`);
  job.bar.tick(e.id);
}

/** One JSON line per row. */
function lines(id: string, pageType: string, threshold: number, rows: readonly NodePrediction[]): string {
  return rows
    .map((r) =>
      JSON.stringify({
        page: id,
        node: r.node,
        path: r.path,
        tag: r.tag,
        pageType,
        segment: r.segment,
        content: r.content,
        threshold,
        label: r.label,
        words: r.words,
      }),
    )
    .join("\n");
}

/** Scores one rendered page with its model and writes its rows; a failure is the page's error record. */
async function predictOne(job: Job, snap: PageSnapshot): Promise<void> {
  let stage = "model";
  try {
    const { file } = resolveModelFile(snap.url ?? snap.meta?.canonicalUrl ?? null, job.mode, job.model);
    const model = await cachedModel(file, job.mode);
    stage = "predict";
    const p = pageLimit(job.render, "prediction").run(() => predictPage(model, snap, job.run));
    if ("emptyReason" in p) job.bar.note(`empty\t${snap.id}\t${p.emptyReason}`);
    else if (p.rows.length) await job.output.put(lines(snap.id, p.pageType, p.threshold, p.rows) + "\n");
    job.pages++;
    job.rows += "rows" in p ? p.rows.length : 0;
    job.bar.tick(snap.id);
  } catch (e) {
    if (e instanceof TimeLimitExceeded) stage = "timeout";
    report(job, { id: snap.id, source: snap.source, stage, reason: firstLine(e) });
  }
}

async function runBatch(
  job: Job,
  specs: Parameters<typeof readInputs>[0],
  concurrency: number,
  read: ReadOptions,
) {
  await mapLimit(
    readInputs(specs, read),
    concurrency,
    async (r) =>
      r.ok ? renderPage(job.renderer, r.value, job.render, renderLimit(job.renderer, job.render)) : r,
    async (r) => (r.ok ? predictOne(job, r.value) : report(job, r.error)),
  );
}

/** The run options of the --param flags; a name or value the ml method does not take is a usage error. */
function runOptions(list: string[] | undefined): RunOptions {
  const params = paramsOption("predict", list);
  try {
    checkParamNames(mlExtractor, params);
    return { ...runOptionsFrom({ params }), trace: false };
  } catch (e) {
    throw new UsageError(`predict: ${(e as Error).message}`);
  }
}

export const predictCommand: Command = {
  name: "predict",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parse("predict", argv, PREDICT_FLAGS);
    const inputs = commandInputs("predict", positionals, values["input-list"]);
    const { mode, options, concurrency, read } = renderOptionsFrom("predict", values);
    const run = runOptions(values.param);
    const model = {
      ...(values.model ? { model: values.model } : {}),
      ...(values["model-dir"] ? { modelDir: values["model-dir"] } : {}),
    };
    // the explicit or bundled model, loaded before the batch: one fatal error, not one per page
    await mlExtractor.prepare?.({ mode, ...model });
    const output = await openOutput(values.out);
    const renderer = await createRenderer(mode, { concurrency });
    const bar = progress("predict", 0);
    const job: Job = {
      mode,
      render: options,
      run,
      model,
      renderer,
      output,
      bar,
      pages: 0,
      rows: 0,
      errors: 0,
    };
    try {
      await runBatch(job, inputs.specs, concurrency, read);
    } finally {
      bar.stop();
      await renderer.close();
      await output.close();
    }
    const where = values.out ? ` → ${values.out}` : "";
    process.stderr.write(
      `predict: ${job.pages} page(s), ${job.rows} row(s)${where}, ${job.errors} error(s)\n`,
    );
    return job.errors ? EXIT.pageErrors : EXIT.ok;
  },
};
