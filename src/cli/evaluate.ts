/**
 * `pith evaluate`: run methods (pith's extractors and the npm peers) over labeled datasets and
 * print per-dataset, per-page-type Markdown tables; `--json FILE` writes the stable JSON shape
 * (src/evaluate/report.ts). The work itself is src/evaluate/runner.ts.
 */
import { extractorNames, getExtractor } from "../extractors.ts";
import { listDatasets, resolveDatasetDir } from "../io/dataset.ts";
import { getPeer, PEERS } from "../evaluate/peers.ts";
import { jsonReport, markdownReport } from "../evaluate/report.ts";
import { checkMethods, evaluateMethods, type EvaluationResult } from "../evaluate/runner.ts";
import { DatasetError } from "../io/dataset.ts";
import { writeAtomic } from "../io/write-atomic.ts";
import {
  EXIT,
  UsageError,
  intOption,
  listOption,
  paramsOption,
  parse,
  type Command,
  type Params,
} from "./command.ts";
import { checkOutputFile } from "./output-path.ts";
import { progress } from "../batch/progress.ts";
import { RENDER_FLAGS, RENDER_HELP, renderOptionsFrom } from "./render-flags.ts";

const HELP = `Usage: pith evaluate --method NAME[,NAME...] --data SET[,SET...] [options]

Run extraction methods over labeled datasets ($PITH_DATA, data/, ../shared/data) and score them:
WCXB word P/R/F1, article-extraction-benchmark shingle F1, WCXB snippet shares and
trafilatura's snippet F1 (where snippets.jsonl exists), Louvan's LCS character F1, DOM-node F1
(where gold-html gives node labels), and ms/page. Tables go to stdout, one per dataset, with
a block of rows per page type / genre.

Options:
  --method LIST      methods, comma-separated: pith's extractors and the peers readability,
                     defuddle, all-text (list below)
  --data LIST        dataset names or folders, comma-separated
  --limit N          first N pages of each dataset (after --page-type and --sample)
  --sample N         random N pages of each dataset, reproducible with --seed
  --seed S           seed for --sample (default 1)
  --page-type T      only pages of this page type (wcxb-dev) or genre
  --json FILE        also write runs and per-page figures as JSON
  --rouge            also compute ROUGE-LSum (WCEB; slow on long pages)
  --workers N        worker threads (default: one per core in static mode, 1 in chromium mode;
                     0 or 1: this thread).
                     On workers a page (or a site's group of pages) that is still running after
                     --timeout × (1 + methods) per page fails alone, as a page that failed to render;
                     in this thread a page's render and each method's run have --timeout each
  --param K=V        parameter for pith's extractors, repeatable
  --model FILE       model artifact for --method ml and louvan (default: the method's bundled model
                     for the render mode: models/default-MODE.json, models/louvan-MODE.json)
  --model-dir DIR    where per-domain models are looked up (default: models/)
${RENDER_HELP}
  -h, --help         this help

A page a method fails on counts as empty output and is listed with its error in the JSON.
Exit codes: 0 every method ran on every page, 1 some pages failed (figures still printed),
2 usage error, 3 fatal.`;

function optionalInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = intOption("evaluate", name, value, 0);
  if (n < 1 || !Number.isInteger(n))
    throw new UsageError(`evaluate: --${name} expects a positive integer, got "${value}"`);
  return n;
}

/** pith evaluate's flags. */
const FLAGS = {
  ...RENDER_FLAGS,
  method: { type: "string" },
  data: { type: "string" },
  limit: { type: "string" },
  sample: { type: "string" },
  seed: { type: "string" },
  "page-type": { type: "string" },
  json: { type: "string" },
  workers: { type: "string" },
  rouge: { type: "boolean" },
  param: { type: "string", multiple: true },
  model: { type: "string" },
  "model-dir": { type: "string" },
} as const;

/** Refuses an unknown method, a parameter no method takes, or a dataset that does not resolve. */
function checkArguments(methods: string[], datasets: string[], params: Params): void {
  try {
    checkMethods(methods, params);
    for (const d of datasets) resolveDatasetDir(d);
  } catch (e) {
    throw new UsageError(`evaluate: ${(e as Error).message}`);
  }
}

/**
 * Prints the tables (and writes the --json file), reports the pages left out and the failures on
 * stderr, and returns the exit code.
 */
async function report(
  result: EvaluationResult,
  methods: string[],
  json: string | undefined,
  seconds: number,
): Promise<number> {
  process.stdout.write(markdownReport(result.runs) + "\n");
  if (json) await writeAtomic(json, jsonReport(result.runs, result.pages) + "\n");
  const missing = result.withoutGold;
  if (missing.length)
    process.stderr.write(
      `evaluate: ${missing.length} page(s) left out, no gold file ` +
        `(${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", …" : ""})\n`,
    );
  const failed = result.pages.filter((p) => p.error !== undefined);
  for (const p of failed) process.stderr.write(`error\t${p.method}\t${p.dataset}/${p.id}\t${p.error}\n`);
  const pages = new Set(result.pages.map((p) => `${p.dataset}/${p.id}`)).size;
  process.stderr.write(
    `evaluated ${pages} page(s) × ${methods.length} method(s) in ${seconds.toFixed(1)} s, ` +
      `${failed.length} failure(s)\n`,
  );
  return failed.length ? EXIT.pageErrors : EXIT.ok;
}

export const evaluateCommand: Command = {
  name: "evaluate",
  get help() {
    return (
      `${HELP}\n\nMethods: ${[...extractorNames(), ...PEERS.keys()].join(", ")}\n` +
      `Datasets: ${listDatasets().join(", ") || "(none found)"}`
    );
  },
  async run(argv) {
    const { values } = parse("evaluate", argv, FLAGS);
    const methods = listOption(values.method);
    const datasets = listOption(values.data);
    if (!methods.length) throw new UsageError("evaluate: give --method (e.g. --method cnr,readability)");
    if (!datasets.length) throw new UsageError("evaluate: give --data (e.g. --data wcxb-dev)");
    const params = paramsOption("evaluate", values.param);
    checkArguments(methods, datasets, params);
    if (values.json) await checkOutputFile("evaluate", "--json", values.json);
    const { mode, options, concurrency } = renderOptionsFrom("evaluate", values);
    const models = {
      ...(values.model ? { model: values.model } : {}),
      ...(values["model-dir"] ? { modelDir: values["model-dir"] } : {}),
    };
    // a model every page needs (--model FILE, or the bundled one) that does not load is one
    // fatal error, as in extract, not one per page
    for (const m of methods) if (!getPeer(m)) await getExtractor(m).prepare?.({ params, mode, ...models });
    const limit = optionalInt("limit", values.limit);
    const sample = optionalInt("sample", values.sample);
    // 0 = this thread, as in extract
    const workers = values.workers === "0" ? 1 : optionalInt("workers", values.workers);
    const bar = progress("evaluate", 0);
    let shown = 0;
    const started = performance.now();
    const result = await evaluateMethods({
      methods,
      datasets,
      mode,
      renderOptions: options,
      concurrency,
      rouge: values.rouge ?? false,
      params,
      ...models,
      seed: intOption("evaluate", "seed", values.seed, 1),
      ...(limit !== undefined ? { limit } : {}),
      ...(sample !== undefined ? { sample } : {}),
      ...(workers !== undefined ? { workers } : {}),
      ...(values["page-type"] ? { pageType: values["page-type"] } : {}),
      onProgress: (done, total, label) => {
        bar.setTotal(total);
        for (; shown < done; shown++) bar.tick(label);
      },
    }).catch((e: unknown) => {
      // e.g. a folder without gold/
      throw e instanceof DatasetError ? new UsageError(`evaluate: ${e.message}`) : e;
    });
    bar.stop();
    const seconds = (performance.now() - started) / 1000;
    return report(result, methods, values.json, seconds);
  },
};
