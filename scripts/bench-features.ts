/**
 * Feature extraction cost beside static snapshot cost (issue 3 target: features < snapshot).
 * Per page: staticSnapshot(), buildTree(), computeFeatures() and labelNodes() (alignment),
 * each timed separately after a warm-up pass; prints mean and median ms/page of wall time and
 * the mean process CPU time (user + system: steadier than wall time on a shared, loaded machine).
 *
 *   node --import tsx scripts/bench-features.ts [--data wcxb-dev] [--limit 300]
 */
import { buildTree } from "../src/dom/tree.ts";
import { computeFeatures } from "../src/features/index.ts";
import { loadDataset, readDatasetPage, readGold } from "../src/io/dataset.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { labelNodes } from "../src/train/labels.ts";
import type { PageInput } from "../src/types.ts";
import { intOption, scriptArgs } from "./args.ts";
import { median } from "./stats.ts";

/** Pages used to warm up the JIT before timing. */
export const WARMUP_PAGES = 20;

const USAGE = `Usage: node --import tsx scripts/bench-features.ts [--data wcxb-dev] [--limit 300]

Static snapshot, tree, feature and label-alignment cost per page (ms/page, CPU ms/page).`;
const values = scriptArgs(USAGE, { data: { type: "string" }, limit: { type: "string" } });
const limit = intOption(USAGE, "limit", values.limit, 300);
const ds = loadDataset(values.data ?? "wcxb-dev");
const pages = ds.pages.slice(0, limit);
const inputs: Array<{ input: PageInput; gold: string | null; lang: string | null }> = [];
for (const p of pages)
  inputs.push({ input: await readDatasetPage(ds, p), gold: await readGold(ds, p), lang: p.lang });

const times = {
  snapshot: [] as number[],
  tree: [] as number[],
  features: [] as number[],
  labels: [] as number[],
};
const cpu = { snapshot: 0, tree: 0, features: 0, labels: 0 };
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};
let rows = 0;
let nodes = 0;
for (let pass = 0; pass < 2; pass++) {
  for (const [k, { input, gold, lang }] of inputs.entries()) {
    if (pass === 0 && k >= WARMUP_PAGES) break;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const snap = staticSnapshot(input);
    const t1 = performance.now();
    const c1 = cpuMs(c0);
    const tree = buildTree(snap);
    const t2 = performance.now();
    const c2 = cpuMs(c0);
    const table = computeFeatures(snap, tree, { lang }); // the dataset's language, as `pith features` passes it
    const t3 = performance.now();
    const c3 = cpuMs(c0);
    if (gold !== null) labelNodes(snap, tree, gold);
    const t4 = performance.now();
    const c4 = cpuMs(c0);
    if (pass === 0) continue;
    cpu.snapshot += c1;
    cpu.tree += c2 - c1;
    cpu.features += c3 - c2;
    cpu.labels += c4 - c3;
    times.snapshot.push(t1 - t0);
    times.tree.push(t2 - t1);
    times.features.push(t3 - t2);
    if (gold !== null) times.labels.push(t4 - t3);
    rows += table.nodes.length;
    nodes += snap.nodes.length;
  }
}
const mean = (a: number[]): number => a.reduce((s, x) => s + x, 0) / Math.max(1, a.length);
console.log(
  `${ds.name}: ${inputs.length} pages, ${(nodes / inputs.length).toFixed(0)} nodes/page, ${(rows / inputs.length).toFixed(0)} structural rows/page`,
);
for (const [k, a] of Object.entries(times)) {
  const c = cpu[k as keyof typeof cpu] / Math.max(1, a.length);
  console.log(
    `  ${k.padEnd(9)} wall mean ${mean(a).toFixed(2)} ms/page, median ${median(a).toFixed(2)} ms/page; CPU mean ${c.toFixed(2)} ms/page`,
  );
}

/** Stage by stage over all pages, best of SEPARATE_REPS (less noise from a shared machine). */
export const SEPARATE_REPS = 3;
const snaps = inputs.map(({ input, lang }) => {
  const snap = staticSnapshot(input);
  return { input, lang, snap, tree: buildTree(snap) };
});
const best = (fn: () => void): number => {
  let min = Infinity;
  for (let rep = 0; rep < SEPARATE_REPS; rep++) {
    const c = process.cpuUsage();
    fn();
    min = Math.min(min, cpuMs(c) / inputs.length);
  }
  return min;
};
const snapCpu = best(() => inputs.forEach(({ input }) => staticSnapshot(input)));
const featCpu = best(() => snaps.forEach(({ snap, tree, lang }) => computeFeatures(snap, tree, { lang })));
console.log(
  `  separate passes, best of ${SEPARATE_REPS}: snapshot CPU ${snapCpu.toFixed(2)} ms/page, features CPU ${featCpu.toFixed(2)} ms/page (${((100 * featCpu) / snapCpu).toFixed(0)} %)`,
);
