/**
 * `npm run check:duplicates`: counts the outputs that repeat a paragraph of at least 20 words
 * (src/evaluate/repeats.ts: 80 % of its word 4-shingles again elsewhere in the output) over the
 * labeled sets, with the bundled model in static mode (`pith extract`'s default), and tells apart
 * the repeats the page itself makes (its visible text holds the paragraph twice: a quoted post,
 * an author's refrain) from those the extractor makes. Exits 1 when an output repeats a paragraph
 * the page does not, naming the pages; 0 otherwise.
 *
 * Usage: npm run check:duplicates -- [--sets A,B] [--limit N] [--param K=V ...]
 */
import { loadDataset, readDatasetPage, type DatasetPage } from "../src/io/dataset.ts";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";
import { repeatedParagraphs, REPEAT_MIN_WORDS } from "../src/evaluate/repeats.ts";
import { runOptionsFrom } from "../src/pipeline/extractor.ts";
import { loadPipelineModel } from "../src/pipeline/model/model.ts";
import { defaultModelPath } from "../src/pipeline/model/resolve.ts";
import { runPipeline } from "../src/pipeline/run.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { progress as progressBar } from "../src/batch/progress.ts";
import { intOption, scriptArgs, usageError } from "./args.ts";

/** The labeled sets in ../shared/data (or $PITH_DATA) the check reads by default. */
const ALL_SETS = [
  "wcxb-dev",
  "cleaneval",
  "cleanportaleval",
  "harvest-forums",
  "dragnet",
  "l3s-gn1",
  "utomo-big9",
  "readability",
];

const USAGE = `Usage: npm run check:duplicates -- [--sets A,B] [--limit N] [--param K=V ...]

Counts outputs (bundled model, static mode) that repeat a paragraph of at least ${REPEAT_MIN_WORDS} words, over
the labeled sets (default ${ALL_SETS.join(",")}), and those whose page does not repeat it itself.
Exits 1 when there is any of the latter.`;

const values = scriptArgs(USAGE, {
  sets: { type: "string" },
  limit: { type: "string" },
  param: { type: "string", multiple: true },
});
const limit = intOption(USAGE, "limit", values.limit, Infinity);
const params: Record<string, string | boolean> = {};
for (const kv of values.param ?? []) {
  const [k, v] = kv.split("=");
  if (!k || v === undefined) usageError(USAGE, `--param expects K=V, not "${kv}"`);
  params[k] = v === "true" ? true : v === "false" ? false : v;
}
const options = { ...runOptionsFrom({ params }), trace: false };
const model = await loadPipelineModel(defaultModelPath("static"), "static");

interface SetCount {
  pages: number;
  repeated: number;
  introduced: string[];
}

async function checkPage(
  ds: ReturnType<typeof loadDataset>,
  page: DatasetPage,
  count: SetCount,
): Promise<void> {
  const snap = staticSnapshot(await readDatasetPage(ds, page));
  const text = runPipeline(model, snap, options).extraction.text;
  const found = repeatedParagraphs(text, textOf(snap, buildTree(snap), [0]));
  count.pages++;
  if (found.repeated.length) count.repeated++;
  if (found.introduced.length)
    count.introduced.push(`${ds.name}/${page.id}: ${(found.introduced[0] as string).slice(0, 80)}`);
}

const sets = (values.sets ? values.sets.split(",") : ALL_SETS).map((s) => loadDataset(s));
const todo = sets.map((ds) => ds.pages.slice(0, limit));
const progress = progressBar(
  "check:duplicates",
  todo.reduce((a, p) => a + p.length, 0),
);
let failed = 0;
const counts: [string, SetCount][] = [];
for (const [k, ds] of sets.entries()) {
  const count: SetCount = { pages: 0, repeated: 0, introduced: [] };
  counts.push([ds.name, count]);
  for (const page of todo[k] as DatasetPage[]) {
    await checkPage(ds, page, count).catch(() => failed++);
    progress.tick(`${ds.name}/${page.id}`);
  }
}
progress.stop();
let introduced = 0;
process.stdout.write(
  `outputs repeating a paragraph of ≥ ${REPEAT_MIN_WORDS} words (static, bundled model)\n`,
);
process.stdout.write(
  `${"set".padEnd(16)} ${"pages".padStart(6)} ${"repeats".padStart(8)} ${"not the page's".padStart(15)}\n`,
);
for (const [name, c] of counts) {
  introduced += c.introduced.length;
  process.stdout.write(
    `${name.padEnd(16)} ${String(c.pages).padStart(6)} ${String(c.repeated).padStart(8)} ${String(c.introduced.length).padStart(15)}\n`,
  );
  for (const line of c.introduced) process.stdout.write(`  ${line}\n`);
}
if (failed) process.stdout.write(`${failed} page(s) failed to extract\n`);
process.exit(introduced ? 1 : 0);
