/**
 * `npm run compare:models`: trains and evaluates the classifier kinds (gbdt, rf, ml-rf, mlp,
 * seq) on the same site-grouped folds of labeled sets and prints one Markdown table: held-out
 * word F1 per set and page type, fit seconds per fold, model size and inference ms per page
 * (src/train/compare.ts says what each figure measures). docs/classifiers.md and
 * models/MODEL_CARD.md quote its output.
 *
 * Usage: npm run compare:models -- [--sets A,B] [--seeds 42,7] [--folds K] [--kinds gbdt,seq]
 *                                  [--quick] [--ml-rf-rows N] [--max-pages N] [--out FILE] [--json FILE]
 *                                  [--workers N]
 *        npm run compare:models -- --from-json A.json,B.json [--out FILE]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { progress } from "../src/batch/progress.ts";
import { CLASSIFIER_KINDS, type ClassifierKind } from "../src/ml/classifier.ts";
import { ML_RF_MAX_ROWS } from "../src/ml/random-forest.ts";
import {
  COMPARE_KINDS,
  COMPARE_SETS,
  compareModels,
  ENSEMBLE,
  ENSEMBLE_MEMBERS,
  type CompareKind,
  formatComparison,
  mergeComparisons,
  type Comparison,
} from "../src/train/compare.ts";
import { intOption, scriptArgs, usageError } from "./args.ts";

const USAGE = `Usage: npm run compare:models -- [--sets A,B] [--seeds 42,7] [--folds K] [--kinds ${COMPARE_KINDS.join(",")}]
                               [--quick] [--ml-rf-rows N] [--max-pages N] [--out FILE] [--json FILE]
                               [--workers N]
       npm run compare:models -- --from-json A.json,B.json [--out FILE]

Cross-validates each classifier kind on the same site-grouped folds (one general content
classifier each, no page-type models or context stage) and prints a Markdown table of held-out
word F1 per set and page type, fit seconds per fold, model size and inference ms per page.
Defaults: --sets ${COMPARE_SETS.join(",")} --seeds 42 --folds 3, every kind. ml-rf trains on a
seeded sample of its row cap. --quick: small settings (few trees and epochs, 200 ml-rf rows) for
a smoke run. ${ENSEMBLE}: the mean of the gbdt and seq fold models of the same run (both must
come before it in --kinds). --ml-rf-rows: ml-rf's rows per fit (at most ${ML_RF_MAX_ROWS}). Times are CPU time of
this process (wall seconds in --json). --max-pages: a fixed seeded sample of at most N pages of
each set (the same pages under every seed). The table and --json are rewritten after every kind;
--from-json prints one table from the --json files of runs on the same pages and folds.`;

const values = scriptArgs(USAGE, {
  sets: { type: "string" },
  seeds: { type: "string" },
  folds: { type: "string" },
  kinds: { type: "string" },
  quick: { type: "boolean" },
  out: { type: "string" },
  json: { type: "string" },
  workers: { type: "string" },
  "ml-rf-rows": { type: "string" },
  "max-pages": { type: "string" },
  "from-json": { type: "string" },
});

/** --quick: enough to run every kind end to end in seconds, not to rank them. */
const QUICK_PARAMS: Partial<Record<ClassifierKind, Record<string, unknown>>> = {
  gbdt: { nEstimators: 20 },
  rf: { nEstimators: 10 },
  "ml-rf": { nEstimators: 5 },
  mlp: { epochs: 2 },
  seq: { epochs: 2 },
};

/** --quick: ml-rf's rows per fit (its fit grows with their square). */
const QUICK_ML_RF_ROWS = 200;

const list = (s: string | undefined) => (s ?? "").split(",").filter(Boolean);
const kinds = values.kinds ? list(values.kinds) : [...COMPARE_KINDS];
const known: readonly string[] = [...CLASSIFIER_KINDS, ENSEMBLE];
for (const k of kinds)
  if (!known.includes(k)) usageError(USAGE, `--kinds: unknown kind "${k}" (known: ${known.join(", ")})`);
const at = kinds.indexOf(ENSEMBLE);
if (at >= 0 && ENSEMBLE_MEMBERS.some((k) => !kinds.slice(0, at).includes(k)))
  usageError(USAGE, `--kinds: ${ENSEMBLE} needs ${ENSEMBLE_MEMBERS.join(" and ")} before it`);
const seeds = values.seeds ? list(values.seeds).map(Number) : [42];
if (seeds.some((s) => !Number.isInteger(s)))
  usageError(USAGE, `--seeds must be whole numbers, not "${values.seeds}"`);
const folds = intOption(USAGE, "folds", values.folds, 3, 2);
const workers = intOption(USAGE, "workers", values.workers, 0, 0);
const maxPages = intOption(USAGE, "max-pages", values["max-pages"], 0, 1);

const mlRfRows = intOption(USAGE, "ml-rf-rows", values["ml-rf-rows"], ML_RF_MAX_ROWS);
if (mlRfRows > ML_RF_MAX_ROWS) usageError(USAGE, `--ml-rf-rows must be at most ${ML_RF_MAX_ROWS}`);

if (values["from-json"]) {
  try {
    const parts = list(values["from-json"]).map((f) => JSON.parse(readFileSync(f, "utf8")) as Comparison);
    const table = formatComparison(mergeComparisons(parts));
    if (values.out) writeFileSync(values.out, table);
    process.stdout.write(table);
    process.exit(0);
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message.split("\n")[0]}\n`);
    process.exit(1);
  }
}

const bar = progress("features", 0);
const started = performance.now();
try {
  const result = await compareModels({
    datasets: values.sets ? list(values.sets) : COMPARE_SETS,
    mode: "static",
    seeds,
    folds,
    kinds: kinds as CompareKind[],
    mlRfRows: values.quick && !values["ml-rf-rows"] ? QUICK_ML_RF_ROWS : mlRfRows,
    ...(values.quick ? { params: QUICK_PARAMS, timedPages: 10 } : {}),
    ...(workers > 0 ? { workers } : {}),
    ...(maxPages > 0 ? { maxPages } : {}),
    log: (s) => bar.note(s),
    onResult: (partial) => {
      // written after every kind, so an interrupted run keeps the kinds it finished
      if (values.out) writeFileSync(values.out, formatComparison(partial));
      if (values.json) writeFileSync(values.json, `${JSON.stringify(partial, null, 2)}\n`);
    },
    onPage: (_d, done, total) => {
      bar.setTotal(total);
      bar.tick();
      void done;
    },
  });
  bar.stop();
  process.stdout.write(formatComparison(result));
  process.stderr.write(
    `compared ${kinds.length} kinds in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
} catch (e) {
  bar.stop();
  process.stderr.write(`error: ${(e as Error).message.split("\n")[0]}\n`);
  process.exit(1);
}
