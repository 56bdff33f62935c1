/**
 * Benchmark of pith's classifiers (src/ml): training time against rows, prediction speed
 * and held-out AUC, on synthetic node-feature tables shaped like ours (src/ml/synthetic.ts,
 * 100 features, sites held out) and, when present, on real tables in data/features/*.jsonl.
 *
 *   node --import tsx scripts/bench-ml.ts [--quick] [--no-ml-rf] [--sizes 10000,100000,400000]
 *                                        [--sections ml-rf,shared,scale,real]
 *
 * Sections: (1) ml-random-forest training time per tree at 2k / 4k / 8k rows (quadratic);
 * (2) every model on one shared 2k-row sample ml-random-forest can train on; (3) the
 * histogram learners (and the MLP up to 100k rows) at 10k / 100k / 400k rows.
 * JSONL rows: {"x": [numbers or null], "y": 0|1, "group": "site"} ("features"/"label"/"site" also read).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Classifier, ClassifierKind } from "../src/ml/classifier.ts";
import { createClassifier } from "../src/ml/kinds.ts";
import { type Matrix, matrixFromRows, selectIndices, selectRows } from "../src/ml/matrix.ts";
import { rocAuc } from "../src/ml/metrics.ts";
import { groupHoldout } from "../src/ml/split.ts";
import { makeSyntheticData, type SyntheticData } from "../src/ml/synthetic.ts";
import { intOption, scriptArgs } from "./args.ts";

const USAGE = `Usage: node --import tsx scripts/bench-ml.ts [--quick] [--no-ml-rf] [--sizes 10000,100000,400000]
                                         [--sections ml-rf,shared,scale,real]

Training time, prediction speed and held-out AUC of pith's classifiers on synthetic node-feature
tables (and on data/features/*.jsonl when present).`;
const args = scriptArgs(USAGE, {
  quick: { type: "boolean" },
  "no-ml-rf": { type: "boolean" },
  sizes: { type: "string" },
  sections: { type: "string" },
});
const QUICK = args.quick === true;
const NO_ML_RF = args["no-ml-rf"] === true;
const SIZES = args.sizes
  ? args.sizes.split(",").map((s) => intOption(USAGE, "sizes", s, 0))
  : QUICK
    ? [10_000, 50_000]
    : [10_000, 100_000, 400_000];
const SECTIONS = new Set(args.sections ? args.sections.split(",") : ["ml-rf", "shared", "scale", "real"]);
const N_COLS = 100;
const TEST_ROWS = QUICK ? 10_000 : 50_000;
const SHARED_ROWS = 2000;
/** ml-random-forest: trees on the shared sample, and rows timed for one tree. */
const ML_RF_TREES = QUICK ? 3 : 10;
const ML_RF_SCALING_ROWS = QUICK ? [2000] : [2000, 4000, 8000];
/** The MLP is timed up to this many rows (10 epochs). */
const MLP_MAX_ROWS = 100_000;

interface Row {
  data: string;
  model: string;
  rows: number;
  fitS: number;
  /** CPU seconds of this process during fit (the machine may be shared: wall time can lie). */
  fitCpuS: number;
  units: string;
  predRowsPerS: number;
  auc: number;
  jsonKB: number;
}

async function measure(
  kind: ClassifierKind,
  params: Record<string, unknown>,
  train: { X: Matrix; y: Uint8Array; groups?: Int32Array },
  test: { X: Matrix; y: Uint8Array },
  data: string,
): Promise<Row> {
  const clf: Classifier = await createClassifier(kind, params);
  let units = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await clf.fit(train.X, train.y, {
    seed: 1,
    ...(train.groups ? { groups: train.groups } : {}),
    onProgress: (d) => {
      units = d;
    },
  });
  const fitS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const fitCpuS = (cpu.user + cpu.system) / 1e6;
  const c1 = process.cpuUsage();
  const p = clf.predictProba(test.X);
  const pc = process.cpuUsage(c1);
  const predS = (pc.user + pc.system) / 1e6;
  const unitName = kind === "mlp" ? "epochs" : "trees";
  const row = {
    data,
    model: `${kind} ${JSON.stringify(params)}`,
    rows: train.X.nRows,
    fitS,
    fitCpuS,
    units: `${units} ${unitName}`,
    predRowsPerS: test.X.nRows / predS,
    auc: rocAuc(test.y, p),
    jsonKB: JSON.stringify(clf.toJSON()).length / 1024,
  };
  console.error(
    `  ${row.model} on ${row.rows} rows: fit ${fitS.toFixed(1)} s (CPU ${fitCpuS.toFixed(1)} s), ${row.units}, AUC ${row.auc.toFixed(4)}`,
  );
  return row;
}

function firstRows(d: SyntheticData, n: number): { X: Matrix; y: Uint8Array; groups: Int32Array } {
  const idx = Uint32Array.from({ length: n }, (_, i) => i);
  return { X: selectRows(d.X, idx), y: selectIndices(d.y, idx), groups: selectIndices(d.groups, idx) };
}

async function mlRfScaling(d: SyntheticData, test: { X: Matrix; y: Uint8Array }): Promise<Row[]> {
  const out: Row[] = [];
  for (const n of ML_RF_SCALING_ROWS)
    out.push(await measure("ml-rf", { nEstimators: 1 }, firstRows(d, n), test, "synthetic"));
  return out;
}

async function sharedSample(
  d: SyntheticData,
  test: { X: Matrix; y: Uint8Array },
  data: string,
): Promise<Row[]> {
  const train = firstRows(d, Math.min(SHARED_ROWS, d.X.nRows));
  const out: Row[] = [];
  if (!NO_ML_RF) out.push(await measure("ml-rf", { nEstimators: ML_RF_TREES }, train, test, data));
  out.push(await measure("rf", { nEstimators: ML_RF_TREES, maxFeatures: 0.7 }, train, test, data));
  out.push(await measure("rf", {}, train, test, data));
  out.push(await measure("gbdt", {}, train, test, data));
  out.push(await measure("mlp", { epochs: 50 }, train, test, data));
  return out;
}

async function scaling(d: SyntheticData, test: { X: Matrix; y: Uint8Array }): Promise<Row[]> {
  const out: Row[] = [];
  for (const n of SIZES) {
    const train = firstRows(d, n);
    out.push(await measure("gbdt", {}, train, test, "synthetic"));
    out.push(await measure("rf", {}, train, test, "synthetic"));
    if (n <= MLP_MAX_ROWS) out.push(await measure("mlp", { epochs: 10 }, train, test, "synthetic"));
  }
  return out;
}

/** Reads data/features/*.jsonl into one table, or null when there is none. */
function readFeatureTables(dir: string): { X: Matrix; y: Uint8Array; groups: Int32Array } | null {
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  const rows: (number | null)[][] = [];
  const labels: number[] = [];
  const groupIds: number[] = [];
  const siteIds = new Map<string, number>();
  for (const f of files) {
    for (const line of readFileSync(path.join(dir, f), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const o = JSON.parse(line) as Record<string, unknown>;
      const x = (o["x"] ?? o["features"]) as (number | null)[] | undefined;
      const y = o["y"] ?? o["label"];
      if (!Array.isArray(x) || (y !== 0 && y !== 1)) continue;
      const site = `${f}:${String(o["group"] ?? o["site"] ?? "")}`;
      if (!siteIds.has(site)) siteIds.set(site, siteIds.size);
      rows.push(x);
      labels.push(y);
      groupIds.push(siteIds.get(site)!);
    }
  }
  if (rows.length === 0) return null;
  return { X: matrixFromRows(rows), y: Uint8Array.from(labels), groups: Int32Array.from(groupIds) };
}

async function realData(): Promise<Row[]> {
  const table = readFeatureTables(path.resolve(import.meta.dirname, "../data/features"));
  if (!table) {
    console.error("no data/features/*.jsonl: real-table section skipped");
    return [];
  }
  const split = groupHoldout(table.X.nRows, 0.2, 1, table.groups);
  const pick = (idx: Uint32Array) => ({
    X: selectRows(table.X, idx),
    y: selectIndices(table.y, idx),
    groups: selectIndices(table.groups, idx),
  });
  const train = pick(split.train);
  const test = pick(split.test);
  console.error(`real table: ${table.X.nRows} rows × ${table.X.nCols} features`);
  const out: Row[] = [];
  out.push(...(await sharedSample(train as SyntheticData & typeof train, test, "real")));
  out.push(await measure("gbdt", {}, train, test, "real"));
  out.push(await measure("rf", {}, train, test, "real"));
  return out;
}

function table(rows: Row[]): string {
  const head =
    "| data | model | train rows | fit wall s | fit CPU s | size | JSON KB | predict rows/CPU-s | held-out AUC |\n|---|---|---:|---:|---:|---|---:|---:|---:|";
  const body = rows.map(
    (r) =>
      `| ${r.data} | ${r.model} | ${r.rows} | ${r.fitS.toFixed(1)} | ${r.fitCpuS.toFixed(1)} | ${r.units} | ${Math.round(r.jsonKB)} | ${Math.round(r.predRowsPerS)} | ${r.auc.toFixed(4)} |`,
  );
  return [head, ...body].join("\n");
}

async function main(): Promise<void> {
  const maxRows = Math.max(...(SECTIONS.has("scale") ? SIZES : []), SHARED_ROWS, ...ML_RF_SCALING_ROWS);
  const t0 = performance.now();
  const train = makeSyntheticData({ nRows: maxRows, nCols: N_COLS, seed: 1 });
  const test = makeSyntheticData({ nRows: TEST_ROWS, nCols: N_COLS, seed: 2 });
  console.error(
    `synthetic: ${maxRows} training rows × ${N_COLS} features (+${TEST_ROWS} rows of unseen sites) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const sections: [string, Row[]][] = [];
  if (!NO_ML_RF && SECTIONS.has("ml-rf"))
    sections.push(["ml-random-forest, one tree, against rows", await mlRfScaling(train, test)]);
  if (SECTIONS.has("shared"))
    sections.push([`Shared ${SHARED_ROWS}-row sample`, await sharedSample(train, test, "synthetic")]);
  if (SECTIONS.has("scale")) sections.push(["Histogram learners against rows", await scaling(train, test)]);
  const real = SECTIONS.has("real") ? await realData() : [];
  if (real.length > 0) sections.push(["Real feature table (data/features)", real]);
  for (const [title, rows] of sections) console.log(`\n### ${title}\n\n${table(rows)}`);
  console.log(
    `\nNode ${process.version}, load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        " ",
      )}, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB, total ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}

await main();
