/**
 * `npm run bench:cli`: what the user runs. Times the `pith` command itself,
 *   node bin/pith.js extract DIR --out OUT --format text   (static mode, method ml, from the bundle)
 * beside Mozilla Readability and defuddle run the same way (scripts/peers/*-cli.ts: one Node
 * process that reads every page of DIR, gunzips it, parses it with linkedom as `pith evaluate`'s
 * peers do, and writes one .txt per page), a fresh process for every batch, so start-up, module
 * loading, the model, reading and writing the files are all paid as a user pays them.
 *
 * Batches: the first N pages of a labeled set (default wcxb-dev, sorted by name; 1,358 = all of
 * it), each a temp directory of symlinks, so that every tool reads the same files. The 1-page
 * batch is a directory of one page too, the same command as the others: its wall time is the
 * start-up of `pith extract DIR` (worker threads included; `npm run bench:startup` times one file).
 * Core settings: `one` runs every process under `taskset -c 1` (pith then extracts in its main
 * thread, its default on a single core); `all` runs it unpinned (pith: one worker per
 * core; the peers are single-threaded whatever the setting, beside V8's GC threads). Runs are
 * interleaved (run i of pith, then of readability, then of defuddle) and the median of --runs is
 * reported, so a busy minute on a shared machine falls on every tool.
 *
 * Measures, per run, from /usr/bin/time -f "%e %U %S %M" around the tool's process:
 *   - wall seconds, spawn to exit (this process's clock); pages/s = pages / wall, start-up included;
 *   - CPU ms/page = (user + sys) / pages: %U and %S count the process and the children it waited
 *     for, so worker threads (in-process) are in; it is the figure to trust on a loaded machine;
 *   - peak RSS = %M, the max RSS of the largest single process of the tree. In static mode pith is
 *     one process (its workers are threads, whose memory is the process's) and the peers are one
 *     process each, so that is the whole tree's peak; it would not be for chromium mode, which
 *     this script does not run.
 * Each run's non-empty output files are counted and printed, so that a broken run is not reported
 * as fast; a run where fewer than half the pages gave a file is flagged in the table.
 *
 * The peers run from an esbuild bundle of their scripts (under .cache/bench-cli/), as pith runs
 * from dist/ (built first when it is stale): neither pays tsx's ~0.3 s of start-up.
 *
 *   npm run bench:cli -- [--runs 3] [--batches 1,200,500,1358] [--tools pith,readability,defuddle]
 *                        [--cores one,all] [--set DIR] [--json FILE]
 *   npm run bench:cli -- --from A.json,B.json   (the tables of saved samples, merged)
 *   quick check: npm run bench:cli -- --batches 1,50 --runs 1
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { intOption, scriptArgs, usageError } from "./args.ts";
import { median } from "./stats.ts";
import { ensureBundle, timedRun } from "./timed.ts";

const ROOT = resolve(import.meta.dirname, "..");
const PITH = join(ROOT, "bin", "pith.js");
const TIME = "/usr/bin/time";
const TASKSET = "/usr/bin/taskset";
const DEFAULT_SET = join(
  process.env["PITH_DATA"] ? resolve(process.env["PITH_DATA"]) : resolve(ROOT, "../shared/data"),
  "wcxb-dev",
);
const TOOLS = ["pith", "readability", "defuddle"] as const;
const CORES = ["one", "all"] as const;
type Tool = (typeof TOOLS)[number];
type Cores = (typeof CORES)[number];
const PAGE = /\.html?(\.gz)?$/i;
/** A run where fewer pages than this share gave an output file is flagged as broken. */
const MOST = 0.5;

const USAGE = `Usage: npm run bench:cli -- [--runs 3] [--batches 1,200,500,1358] [--tools pith,readability,defuddle]
                            [--cores one,all] [--set DIR] [--json FILE] [--from FILES]

Times \`pith extract DIR --out OUT --format text\` (static, ml, from the bundle) beside Mozilla
Readability and defuddle (scripts/peers/*-cli.ts), a fresh process per batch, on batches of the
first N pages of a labeled set (--set, default ${DEFAULT_SET}),
on one core (taskset -c 1) and on all cores. Reports the median of --runs interleaved runs:
pages/s (start-up included), CPU ms/page, peak RSS and the count of non-empty outputs.
--json FILE writes every run's raw sample (rewritten after each run, so a cut run keeps them);
--from A.json,B.json prints the tables of saved samples, merged, instead of running.
Quick check: --batches 1,50 --runs 1`;

interface Sample {
  tool: Tool;
  cores: Cores;
  pages: number;
  run: number;
  /** 1-minute load average when the run started. */
  load1: number;
  /** Spawn to exit, this process's clock. */
  wallS: number;
  /** /usr/bin/time's fields (null without it): user and system CPU seconds, peak RSS in MB. */
  userS: number | null;
  sysS: number | null;
  rssMb: number | null;
  exitCode: number | null;
  /** Output files holding some text. */
  outputs: number;
}

function listOption(raw: string | undefined, name: string, allowed: readonly string[]): string[] {
  if (raw === undefined) return [...allowed];
  const xs = raw.split(",").filter(Boolean);
  const bad = xs.find((x) => !allowed.includes(x));
  if (bad !== undefined || !xs.length)
    usageError(USAGE, `--${name} takes a list of ${allowed.join(", ")}, not "${raw}"`);
  return xs;
}

/** The commands a tool runs on `dir`, writing to `out`. */
function command(tool: Tool, peers: ReadonlyMap<Tool, string>, dir: string, out: string): string[] {
  if (tool === "pith") return ["node", PITH, "extract", dir, "--out", out, "--format", "text"];
  return ["node", peers.get(tool) as string, dir, "--out", out];
}

/** Files under `dir` holding at least one byte. */
function countOutputs(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((n) => {
    const st = statSync(join(dir, n));
    return st.isFile() && st.size > 0;
  }).length;
}

function runOnce(
  argv: string[],
  cores: Cores,
  core: number,
  out: string,
): Omit<Sample, "tool" | "pages" | "run" | "load1"> {
  rmSync(out, { recursive: true, force: true });
  const r = timedRun(cores === "one" ? [TASKSET, "-c", String(core), ...argv] : argv);
  if (r.exitCode !== 0 && r.exitCode !== 1) {
    const tail = r.stderr.trim().split("\n").slice(-4).join(" | ");
    process.stderr.write(`  warning: ${argv.slice(0, 3).join(" ")} exited ${r.exitCode}: ${tail}\n`);
  }
  const { wallS, userS, sysS, rssMb, exitCode } = r;
  return { cores, wallS, userS, sysS, rssMb, exitCode, outputs: countOutputs(out) };
}

/** Bundles the peer CLIs (esbuild, packages external) so that they start without tsx, as pith starts from dist/. */
async function bundlePeers(tools: readonly Tool[]): Promise<Map<Tool, string>> {
  const peers = tools.filter((t) => t !== "pith");
  const paths = new Map<Tool, string>();
  if (!peers.length) return paths;
  const outdir = join(ROOT, ".cache", "bench-cli");
  const esbuild = await import("esbuild");
  await esbuild.build({
    entryPoints: peers.map((t) => join(ROOT, "scripts", "peers", `${t}-cli.ts`)),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "silent",
  });
  for (const t of peers) paths.set(t, join(outdir, `${t}-cli.mjs`));
  return paths;
}

/** A directory of symlinks to the first N pages of the set for every N of `sizes`, and for N = 1 (the warm-up's). */
function batchDirs(setDir: string, sizes: readonly number[], tmp: string): Map<number, string> {
  const htmlDir = join(setDir, "html");
  const names = readdirSync(htmlDir)
    .filter((n) => PAGE.test(n))
    .sort();
  const dirs = new Map<number, string>();
  for (const n of new Set([1, ...sizes])) {
    if (n > names.length) usageError(USAGE, `--batches: ${htmlDir} holds ${names.length} pages, not ${n}`);
    const dir = join(tmp, `batch-${n}`);
    mkdirSync(dir);
    for (const name of names.slice(0, n)) symlinkSync(join(htmlDir, name), join(dir, name));
    dirs.set(n, dir);
  }
  // read every page once, so that the first tool does not pay for a cold file cache
  for (const name of names.slice(0, Math.max(...sizes))) readFileSync(join(htmlDir, name));
  return dirs;
}

const fmt = (x: number | null, digits = 0): string =>
  x === null || Number.isNaN(x) ? "–" : x.toFixed(digits);
const nonNull = (xs: Array<number | null>): number[] => xs.filter((x): x is number => x !== null);
const medianOrNull = (xs: Array<number | null>): number | null => {
  const v = nonNull(xs);
  return v.length ? median(v) : null;
};

interface Cell {
  tool: Tool;
  cores: Cores;
  pages: number;
  wallS: number;
  minWall: number;
  maxWall: number;
  cpuMsPerPage: number | null;
  rssMb: number | null;
  minOutputs: number;
  runs: number;
}

function cells(samples: readonly Sample[]): Cell[] {
  const groups = new Map<string, Sample[]>();
  for (const s of samples) {
    const key = `${s.pages}\t${s.cores}\t${s.tool}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.values()].map((xs) => {
    const { tool, cores, pages } = xs[0] as Sample;
    const walls = xs.map((x) => x.wallS);
    return {
      tool,
      cores,
      pages,
      wallS: median(walls),
      minWall: Math.min(...walls),
      maxWall: Math.max(...walls),
      cpuMsPerPage: medianOrNull(
        xs.map((x) => (x.userS === null || x.sysS === null ? null : ((x.userS + x.sysS) * 1000) / pages)),
      ),
      rssMb: medianOrNull(xs.map((x) => x.rssMb)),
      minOutputs: Math.min(...xs.map((x) => x.outputs)),
      runs: xs.length,
    };
  });
}

const CORE_LABEL: Record<Cores, string> = { one: "1 (taskset)", all: `all (${availableParallelism()})` };

function fullTable(cs: readonly Cell[]): string {
  const lines = [
    "| pages | cores | tool | pages/s | wall s (median, range) | CPU ms/page | peak RSS MB | outputs (fewest) |",
    "|---:|---|---|---:|---|---:|---:|---:|",
  ];
  for (const c of cs) {
    const broken = c.minOutputs < MOST * c.pages ? " ⚠ broken?" : "";
    lines.push(
      `| ${c.pages} | ${CORE_LABEL[c.cores]} | ${c.tool} | ${fmt(c.pages / c.wallS, 1)} | ${fmt(c.wallS, 2)} (${fmt(c.minWall, 2)}–${fmt(c.maxWall, 2)}) | ${fmt(c.cpuMsPerPage, 1)} | ${fmt(c.rssMb)} | ${c.minOutputs}/${c.pages}${broken} |`,
    );
  }
  return lines.join("\n");
}

/** One row per tool × cores: start-up (1-page batch), pages/s per batch, CPU and RSS of the largest batch. */
function summaryTable(cs: readonly Cell[], tools: readonly Tool[], cores: readonly Cores[]): string {
  const sizes = [...new Set(cs.map((c) => c.pages))].sort((a, b) => a - b);
  const big = sizes.filter((n) => n > 1);
  const largest = sizes.at(-1) as number;
  const header = [
    "tool",
    "cores",
    ...(sizes.includes(1) ? ["start-up s (1 page)"] : []),
    ...big.map((n) => `pages/s (${n})`),
    `CPU ms/page (${largest})`,
    `peak RSS MB (${largest})`,
  ];
  const lines = [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i < 2 ? "---" : "---:")).join("|")}|`,
  ];
  for (const core of cores)
    for (const tool of tools) {
      const at = (n: number) => cs.find((c) => c.tool === tool && c.cores === core && c.pages === n);
      const last = at(largest);
      const row = [
        tool,
        CORE_LABEL[core],
        ...(sizes.includes(1) ? [fmt(at(1)?.wallS ?? null, 2)] : []),
        ...big.map((n) => {
          const c = at(n);
          return c ? fmt(c.pages / c.wallS, 1) : "–";
        }),
        fmt(last?.cpuMsPerPage ?? null, 1),
        fmt(last?.rssMb ?? null),
      ];
      lines.push(`| ${row.join(" | ")} |`);
    }
  return lines.join("\n");
}

function gitCommit(): string {
  const r = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : "unknown";
}

interface Report {
  date: string;
  commit: string;
  node: string;
  cpus: number;
  cpuModel: string | null;
  loadBefore: number[];
  loadAfter: number[];
  set: string;
  runs: number;
  batches: number[];
  tools: Tool[];
  cores: Cores[];
  /** False while the run goes on (the file is rewritten after every sample, so a cut run keeps its samples). */
  complete: boolean;
  samples: Sample[];
}

const loadText = (xs: readonly number[]) => xs.map((x) => x.toFixed(2)).join(" ");

function printReport(reports: readonly Report[]): void {
  const samples = reports.flatMap((r) => r.samples);
  const tools = TOOLS.filter((t) => samples.some((s) => s.tool === t));
  const cores = CORES.filter((c) => samples.some((s) => s.cores === c));
  for (const r of reports) {
    const runs = new Set(r.samples.map((s) => `${s.pages} pages ×${r.runs}`));
    console.log(
      `pith ${r.commit}, set ${r.set}, ${[...runs].join(", ")} run(s)${r.complete ? "" : " (cut short)"}, Node ${r.node}, ${r.cpus} CPUs (${r.cpuModel ?? "?"}); load average ${loadText(r.loadBefore)} before, ${loadText(r.loadAfter)} after`,
    );
  }
  const cs = cells(samples).sort(
    (a, b) =>
      a.pages - b.pages ||
      CORES.indexOf(a.cores) - CORES.indexOf(b.cores) ||
      TOOLS.indexOf(a.tool) - TOOLS.indexOf(b.tool),
  );
  console.log("");
  console.log(summaryTable(cs, tools, cores));
  console.log("");
  console.log(fullTable(cs));
}

async function main(): Promise<void> {
  const values = scriptArgs(USAGE, {
    runs: { type: "string" },
    batches: { type: "string" },
    tools: { type: "string" },
    cores: { type: "string" },
    set: { type: "string" },
    json: { type: "string" },
    from: { type: "string" },
  });
  if (values.from) {
    printReport(values.from.split(",").map((f) => JSON.parse(readFileSync(f, "utf8")) as Report));
    return;
  }
  const runs = intOption(USAGE, "runs", values.runs, 3);
  const batches = [
    ...new Set((values.batches ?? "1,200,500,1358").split(",").map((b) => intOption(USAGE, "batches", b, 1))),
  ];
  const tools = listOption(values.tools, "tools", TOOLS) as Tool[];
  let cores = listOption(values.cores, "cores", CORES) as Cores[];
  const setDir = resolve(values.set ?? DEFAULT_SET);
  if (!existsSync(join(setDir, "html"))) usageError(USAGE, `no ${join(setDir, "html")} (--set DIR)`);
  if (cores.includes("one") && !existsSync(TASKSET)) {
    process.stderr.write(`warning: no ${TASKSET} (util-linux): the one-core runs are left out\n`);
    cores = cores.filter((c) => c !== "one");
    if (!cores.length) usageError(USAGE, "nothing to run: --cores one needs taskset");
  }
  if (!existsSync(TIME))
    process.stderr.write(`warning: no ${TIME}: CPU time and peak RSS are not measured (wall time only)\n`);
  const core = cpus().length > 1 ? 1 : 0;

  if (tools.includes("pith")) await ensureBundle();
  const peers = await bundlePeers(tools);
  const tmp = mkdtempSync(join(tmpdir(), "pith-bench-cli-"));
  const out = join(tmp, "out");
  const report: Report = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? null,
    loadBefore: loadavg(),
    loadAfter: loadavg(),
    set: setDir,
    runs,
    batches,
    tools,
    cores,
    complete: false,
    samples: [],
  };
  const save = () => {
    report.loadAfter = loadavg();
    if (values.json) writeFileSync(values.json, JSON.stringify(report, null, 2) + "\n");
  };
  try {
    const dirs = batchDirs(setDir, batches, tmp);
    // one untimed page per tool first: the first process pays for a cold cache of node_modules
    const one = dirs.get(1) as string;
    for (const tool of tools) runOnce(command(tool, peers, one, out), "all", core, out);
    report.loadBefore = loadavg();
    process.stderr.write(`load average before: ${loadText(report.loadBefore)} (${cpus().length} CPUs)\n`);
    for (const pages of batches)
      for (const c of cores)
        for (let run = 1; run <= runs; run++)
          for (const tool of tools) {
            const load1 = loadavg()[0] as number;
            const s: Sample = {
              tool,
              pages,
              run,
              load1,
              ...runOnce(command(tool, peers, dirs.get(pages) as string, out), c, core, out),
            };
            report.samples.push(s);
            save();
            const cpu = s.userS === null || s.sysS === null ? null : ((s.userS + s.sysS) * 1000) / pages;
            process.stderr.write(
              `${tool.padEnd(11)} ${String(pages).padStart(5)} pages  cores ${c.padEnd(3)}  run ${run}/${runs}: ${fmt(s.wallS, 2)} s, ${fmt(pages / s.wallS, 1)} pages/s, CPU ${fmt(cpu, 1)} ms/page, ${fmt(s.rssMb)} MB, outputs ${s.outputs}/${pages}${s.exitCode === 0 ? "" : ` (exit ${s.exitCode})`}${s.outputs < MOST * pages ? "  ⚠ BROKEN?" : ""}, load ${load1.toFixed(1)}\n`,
            );
          }
    report.complete = true;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    save();
  }
  if (values.json) process.stderr.write(`raw samples: ${values.json}\n`);
  printReport([report]);
}

await main();
