/**
 * `npm run train:default`: rebuilds the bundled default model(s) in models/ from
 * ../shared/data, deterministically (fixed seed, fixed set list, cached feature tables under
 * data/cache/). Prints the site-grouped cross-validation report that models/MODEL_CARD.md
 * quotes, and the wall time.
 *
 * `--mode chromium` trains models/default-chromium.json (+ .cv.txt) the same way from
 * Chromium renders of the pages (rendered once into data/cache/snapshots/chromium/ by the
 * train cache; ~9 pages/s here, so the first run of all sets renders for about 9 minutes).
 * It uses the static recipe's sets unless --sets says otherwise; the general sets are the
 * static recipe's that are among them.
 *
 * `--no-borrow`: small page-type models train on their own pages only (src/train/fit.ts BORROW_*).
 * `--no-context`: no context stage (src/pipeline/context/context.ts).
 * `--no-tree-floor`: the final fit's GBDTs stop early on their own holdouts alone, instead of
 * keeping at least the fold models' mean tree count (src/train/final-trees.ts).
 * `--bags N`: every GBDT averages N boosters (src/ml/gbdt.ts `bags`; not the shipped recipe:
 * docs/experiments.md has what 3 bags cost and gained).
 *
 * `--pages FILE`: where the held-out word F1 of every page goes, one JSON line per page with its
 * type, routed type and F1 per CV variant (default data/cv/<model>.pages.jsonl, not committed).
 *
 * `--seed S`: another seed than DEFAULT_SEED (folds, row and column sampling). Measured over
 * seeds 42, 7 and 1 with nothing changed: all sets 0.915-0.917, a wcxb-dev page type up to 0.03
 * apart, so a change is compared under more than one seed (docs/training.md).
 *
 * Usage: npm run train:default -- [--mode static|chromium] [--seed S] [--folds K] [--no-cv] [--sets A,B] [--general-sets A,B] [--no-borrow] [--no-context] [--no-tree-floor] [--bags N] [--out FILE] [--pages FILE]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { formatReport, reportFailures } from "../src/cli/train.ts";
import { saveModel } from "../src/ml/artifact.ts";
import { defaultModelPath } from "../src/pipeline/model/resolve.ts";
import { train } from "../src/train/train.ts";
import type { RenderMode } from "../src/types.ts";
import { intOption, scriptArgs, usageError } from "./args.ts";
import { DEFAULT_GENERAL_SETS, DEFAULT_SETS } from "../src/train/recipes.ts";

export const DEFAULT_SEED = 42;
export const DEFAULT_FOLDS = 3;

const USAGE = `Usage: npm run train:default -- [--mode static|chromium] [--seed S] [--folds K] [--no-cv] [--sets A,B]
                              [--general-sets A,B] [--no-borrow] [--no-context] [--no-tree-floor] [--bags N] [--out FILE] [--pages FILE]

Rebuilds the bundled default model (models/default-<mode>.json and its .cv.txt) from $PITH_DATA
(default ../shared/data), with site-grouped cross-validation. Defaults: --mode static --seed ${DEFAULT_SEED}
--folds ${DEFAULT_FOLDS}, sets ${DEFAULT_SETS.join(",")}. Exits 1 (after writing the model) when a page was
skipped or failed its held-out evaluation, each named on stderr as in pith train.`;
const values = scriptArgs(USAGE, {
  mode: { type: "string" },
  seed: { type: "string" },
  folds: { type: "string" },
  "no-cv": { type: "boolean" },
  sets: { type: "string" },
  "general-sets": { type: "string" },
  "no-borrow": { type: "boolean" },
  "no-context": { type: "boolean" },
  "no-tree-floor": { type: "boolean" },
  bags: { type: "string" },
  out: { type: "string" },
  pages: { type: "string" },
});
const mode = (values.mode ?? "static") as RenderMode;
if (mode !== "static" && mode !== "chromium")
  usageError(USAGE, `--mode must be static or chromium, not "${String(values.mode)}"`);
const datasets = values.sets ? values.sets.split(",") : DEFAULT_SETS;
const generalSets = values["general-sets"]
  ? values["general-sets"].split(",")
  : DEFAULT_GENERAL_SETS.filter((s) => datasets.includes(s));
const bags = intOption(USAGE, "bags", values.bags, 1);
const seed = intOption(USAGE, "seed", values.seed, DEFAULT_SEED, 0);
const started = performance.now();
const result = await train({
  datasets,
  mode,
  kind: "gbdt",
  params: bags > 1 ? { bags } : {},
  seed,
  folds: values["no-cv"] ? 0 : intOption(USAGE, "folds", values.folds, DEFAULT_FOLDS, 2),
  perType: true,
  segment: true,
  borrow: !values["no-borrow"],
  ...(values["no-context"] ? { context: false } : {}),
  genres: [],
  domain: null,
  ...(generalSets.length ? { generalSets } : {}),
  ...(values["no-tree-floor"] ? { finalTrees: false } : {}),
  name: `default-${mode}`,
  log: (s) => void process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${s}\n`),
  onReport: (r) => void process.stderr.write(`${formatReport(r)}\n`),
});
const out = values.out ?? defaultModelPath(mode);
await saveModel(out, result.artifact);
if (result.report) {
  const text = formatReport(result.report);
  process.stdout.write(`${text}\n`);
  writeFileSync(out.replace(/\.json$/, ".cv.txt"), `${text}\n`);
  const pagesFile = values.pages ?? join("data", "cv", `${basename(out, ".json")}.pages.jsonl`);
  mkdirSync(dirname(pagesFile), { recursive: true });
  writeFileSync(pagesFile, result.report.perPage.map((p) => JSON.stringify(p)).join("\n") + "\n");
  process.stdout.write(`held-out word F1 per page: ${pagesFile}\n`);
}
process.stdout.write(
  `wrote ${out} from ${result.records} pages in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
);
process.exitCode = reportFailures(result.failures); // as pith train: 1 when a page was skipped or failed its held-out evaluation
