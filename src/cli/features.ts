/**
 * `pith features <input|dataset...> --out table.(jsonl|csv)`: one row per structural node
 * (src/features/structural.ts) with page id, node path, every registered feature and, when the
 * page has gold text (dataset pages), the labels of src/train/labels.ts. Datasets are processed
 * one domain at a time so that site features (--site) see the other pages of the same domain
 * without the whole set in memory.
 */
import { revealMarkupHidden } from "../pipeline/hidden-text.ts";
import { buildTree } from "../dom/tree.ts";
import { nodePaths } from "../features/paths.ts";
import {
  computeFeatures,
  featureDefinitions,
  featureSchema,
  siteContextFor,
  type FeatureTable,
} from "../features/index.ts";
import {
  loadDataset,
  readDatasetPage,
  readGold,
  resolveDatasetDir,
  type Dataset,
  type DatasetPage,
} from "../io/dataset.ts";
import { readInputs, type ReadOptions } from "../io/inputs.ts";
import { siteContexts } from "../io/site-group.ts";
import { createRenderer, mapLimit, pageLimit, renderLimit, renderPage } from "../render/index.ts";
import { labelNodes, type NodeLabels } from "../train/labels.ts";
import type {
  PageError,
  PageInput,
  PageResult,
  PageSnapshot,
  Renderer,
  RenderOptions,
  SiteContext,
} from "../types.ts";
import { EXIT, UsageError, intOption, parse, type Command } from "./command.ts";
import { openLineFile } from "./line-file.ts";
import { progress, type Progress } from "../batch/progress.ts";
import { RENDER_FLAGS, RENDER_HELP, renderOptionsFrom } from "./render-flags.ts";
import { TimeLimitExceeded } from "../time-limit.ts";

const HELP = `Usage: pith features <input|dataset...> --out FILE [options]

Write one row per structural node: page id, dataset, node index and path, every feature of the
registry (pith features --list) and, for dataset pages with gold text, the labels gold_share,
main, good_segment and words. Inputs are files, directories, URLs, WARC files or dataset names
(e.g. sample: looked up in $PITH_DATA, then data/, then ../shared/data).

Options:
  --out FILE         table to write: .jsonl (NaN as null) or .csv (NaN as an empty cell)
  --site             compute site features (other pages of the same domain; slower; default off → NaN)
  --limit N          at most N pages per dataset (default all)
  --list             print the feature registry (name, family, paper, description) and exit
${RENDER_HELP}
  -h, --help         this help

Exit codes: 0 every page done, 1 some pages failed (each reported on stderr), 2 usage, 3 fatal.`;

/** Label columns appended when gold exists. */
export const LABEL_COLUMNS = ["gold_share", "main", "good_segment", "words"] as const;

interface Sink {
  write(page: PageSnapshot, dataset: string, table: FeatureTable, labels: NodeLabels | null): Promise<void>;
  close(): Promise<void>;
}

function cell(v: number, csv: boolean): string {
  if (Number.isNaN(v)) return csv ? "" : "null";
  return Number.isInteger(v) ? String(v) : String(Math.fround(v));
}

function csvQuote(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export async function openSink(path: string): Promise<Sink> {
  const csv = path.endsWith(".csv");
  if (!csv && !path.endsWith(".jsonl"))
    throw new UsageError(`features: --out must end in .jsonl or .csv, got "${path}"`);
  const file = await openLineFile("features", path);
  const names = featureSchema().names;
  if (csv) await file.put(["page", "dataset", "node", "path", ...names, ...LABEL_COLUMNS].join(",") + "\n");
  const put = file.put;
  return {
    async write(page, dataset, table, labels) {
      const paths = nodePaths(page, buildTree(page), table.nodes);
      const W = names.length;
      for (let r = 0; r < table.nodes.length; r++) {
        const i = table.nodes[r] as number;
        const vals = Array.from(table.values.subarray(r * W, (r + 1) * W), (v) => cell(v, csv));
        const lab = labels
          ? [
              cell(labels.goldShare[r] as number, csv),
              String(labels.main[r]),
              String(labels.goodSegment[r]),
              String(labels.words[r]),
            ]
          : LABEL_COLUMNS.map(() => (csv ? "" : "null"));
        const path = paths[r] as string;
        if (csv)
          await put(
            [csvQuote(page.id), csvQuote(dataset), String(i), csvQuote(path), ...vals, ...lab].join(",") +
              "\n",
          );
        else {
          const fields = [
            `"page":${JSON.stringify(page.id)}`,
            `"dataset":${JSON.stringify(dataset)}`,
            `"node":${i}`,
            `"path":${JSON.stringify(path)}`,
          ];
          for (let k = 0; k < W; k++) fields.push(`${JSON.stringify(names[k])}:${vals[k]}`);
          LABEL_COLUMNS.forEach((c, k) => fields.push(`"${c}":${lab[k]}`));
          await put(`{${fields.join(",")}}\n`);
        }
      }
    },
    close: file.close,
  };
}

interface Job {
  renderer: Renderer;
  options: RenderOptions;
  site: boolean;
  sink: Sink;
  bar: Progress;
  errors: PageError[];
  pages: number;
  /** Pages announced to the progress bar so far (all datasets and inputs). */
  total: number;
}

function report(job: Job, e: PageError): void {
  job.errors.push(e);
  process.stderr.write(`error\t${e.id}\t${e.stage}\t${e.reason}\n`);
}

async function emit(
  job: Job,
  rendered: PageSnapshot,
  dataset: string,
  gold: string | null,
  site: SiteContext | undefined,
  lang: string | null,
): Promise<void> {
  try {
    // under the page's time limit (time-limit.ts), apart from its render's
    const { snap, table, labels } = pageLimit(job.options, "feature extraction").run(() => {
      // the rows a model trained by `pith train` in this mode reads (markup-hidden text in static mode)
      const snap = revealMarkupHidden(rendered);
      const tree = buildTree(snap);
      const table = computeFeatures(snap, tree, { ...(site && job.site ? { site } : {}), lang });
      return { snap, table, labels: gold === null ? null : labelNodes(snap, tree, gold) };
    });
    await job.sink.write(snap, dataset, table, labels);
    job.pages++;
  } catch (e) {
    const timeout = e instanceof TimeLimitExceeded;
    report(job, {
      id: rendered.id,
      source: rendered.source,
      stage: timeout ? "timeout" : "features",
      reason: String((e as Error).message).split("\n")[0] ?? "failed",
    });
  }
  job.bar.tick(rendered.id);
}

/** One domain group of a dataset: render all, then features with the group as site context. */
async function runGroup(job: Job, ds: Dataset, group: DatasetPage[]): Promise<void> {
  const rendered: Array<{ page: DatasetPage; snap: PageSnapshot; gold: string | null }> = [];
  for (const page of group) {
    const r = await renderPage(
      job.renderer,
      await readDatasetPage(ds, page),
      job.options,
      renderLimit(job.renderer, job.options),
    );
    if (!r.ok) {
      report(job, r.error);
      job.bar.tick(page.id);
      continue;
    }
    rendered.push({ page, snap: r.value, gold: await readGold(ds, page) });
  }
  const contexts = job.site
    ? siteContextFor(rendered.map((x) => ({ domain: x.page.domain, snapshot: x.snap })))
    : new Map<PageSnapshot, SiteContext>();
  for (const x of rendered) await emit(job, x.snap, ds.name, x.gold, contexts.get(x.snap), x.page.lang);
}

async function runDataset(job: Job, name: string, limit: number): Promise<void> {
  const ds = loadDataset(name, { goldOptional: true }); // pages without gold get features and no labels
  const pages = ds.pages.slice(0, limit);
  job.bar.setTotal((job.total += pages.length));
  const groups = new Map<string, DatasetPage[]>();
  for (const p of pages) {
    const key = p.domain ?? `page:${p.id}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  for (const group of groups.values()) await runGroup(job, ds, group);
}

/**
 * Pages given as files, directories, URLs: streamed one by one, or
 * (with --site) all rendered first to group them by site.
 */
async function runInputs(job: Job, specs: string[], concurrency: number, read: ReadOptions): Promise<void> {
  const snaps: PageSnapshot[] = [];
  await mapLimit(
    readInputs(specs, read),
    concurrency,
    async (r: PageResult<PageInput>) =>
      r.ok ? renderPage(job.renderer, r.value, job.options, renderLimit(job.renderer, job.options)) : r,
    async (r) => {
      if (!r.ok) return report(job, r.error);
      if (job.site) return void snaps.push(r.value);
      job.bar.setTotal(++job.total);
      await emit(job, r.value, "", null, undefined, null);
    },
  );
  if (!job.site) return;
  job.bar.setTotal((job.total += snaps.length));
  const contexts = siteContexts(snaps);
  for (const s of snaps) await emit(job, s, "", null, contexts.get(s), null);
}

function isDataset(spec: string): boolean {
  try {
    resolveDatasetDir(spec);
    return true;
  } catch {
    return false;
  }
}

function listRegistry(): void {
  const s = featureSchema();
  process.stdout.write(`# feature schema v${s.version} ${s.hash}: ${s.names.length} features\n`);
  for (const d of featureDefinitions())
    process.stdout.write(`${d.name}\t${d.family}\t${d.paper}\t${d.description}\n`);
}

export const featuresCommand: Command = {
  name: "features",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parse("features", argv, {
      ...RENDER_FLAGS,
      out: { type: "string" },
      site: { type: "boolean" },
      limit: { type: "string" },
      list: { type: "boolean" },
    });
    if (values.list) {
      listRegistry();
      return EXIT.ok;
    }
    if (!positionals.length) throw new UsageError("features: give at least one input or dataset name");
    if (!values.out) throw new UsageError("features: --out FILE (.jsonl or .csv) is required");
    const { mode, options, concurrency, read } = renderOptionsFrom("features", values);
    const limit = intOption("features", "limit", values.limit, Infinity);
    const sink = await openSink(values.out);
    const renderer = await createRenderer(mode, { concurrency });
    const job: Job = {
      renderer,
      options,
      site: values.site ?? false,
      sink,
      bar: progress("features", 0),
      errors: [],
      pages: 0,
      total: 0,
    };
    try {
      for (const spec of positionals.filter(isDataset)) await runDataset(job, spec, limit);
      const inputs = positionals.filter((p) => !isDataset(p));
      if (inputs.length) await runInputs(job, inputs, concurrency, read);
    } finally {
      job.bar.stop();
      await renderer.close();
      await sink.close();
    }
    process.stderr.write(`features: ${job.pages} page(s) → ${values.out}, ${job.errors.length} error(s)\n`);
    return job.errors.length ? EXIT.pageErrors : EXIT.ok;
  },
};
