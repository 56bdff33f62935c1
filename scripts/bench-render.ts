/**
 * Render benchmark: the same deterministic sample of wcxb-dev pages through
 *   - a bare htmlparser2 parse (`parseDocument`), the floor for any parser-based snapshot, with
 *     htmlparser2's own tokenizer and with pith's (src/render/fast-tokenizer.ts, which the static
 *     snapshot uses),
 *   - the static snapshot (src/render/static.ts),
 *   - the Chromium snapshot at 1, 2 and 4 concurrent pages, JavaScript off (the default policy).
 * Prints pages/s, ms/page (median, p95, per page as measured by the renderer), CPU ms/page
 * (this process + the Chromium process tree: steadier than wall time on a shared machine) and
 * its inverse, pages per CPU-second (on N idle cores, at most N times that),
 * and peak memory: RSS summed over this process and every Chromium process (shared pages
 * counted once per process, so an overestimate) and PSS (shared pages split, from
 * /proc/<pid>/smaps_rollup), as a Markdown table.
 *
 *   npm run bench:render -- [--pages 300] [--modes parse,parse-fast,static,chromium-1,chromium-2,chromium-4]
 *                           [--data DIR] [--timeout-ms 15000] [--max-kb N]
 * `--max-kb N` keeps only sampled pages of at most N KB of HTML (cost grows with page size).
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { parseDocument } from "htmlparser2";
import { ChromiumRenderer } from "../src/render/chromium.ts";
import { fastTokenizer } from "../src/render/fast-tokenizer.ts";
import { StaticRenderer } from "../src/render/static.ts";
import type { PageInput } from "../src/types.ts";
import { createRng } from "../src/ml/prng.ts";
import { intOption, scriptArgs } from "./args.ts";
import { quantile } from "./stats.ts";

const DEFAULT_DATA = resolve(import.meta.dirname, "../../shared/data/wcxb-dev");
const DEFAULT_PAGES = 300;
const DEFAULT_MODES = "parse,parse-fast,static,chromium-1,chromium-2,chromium-4";
const USAGE = `Usage: npm run bench:render -- [--pages ${DEFAULT_PAGES}] [--modes ${DEFAULT_MODES}]
                        [--data DIR] [--timeout-ms 15000] [--max-kb N]

Pages/s, ms/page, CPU ms/page and peak memory of a bare parse, the static snapshot and the
Chromium snapshot at 1, 2 and 4 concurrent pages, on the same sample of pages (default: wcxb-dev).`;
/** Sampling seed: the same pages on every run. */
const SAMPLE_SEED = 20_260_101;
/** Memory is sampled this often while a mode runs. */
const MEMORY_SAMPLE_MS = 100;
/** PSS costs a smaps read per process: sampled every this many memory samples. */
const PSS_EVERY = 5;
/** Pages rendered before timing starts (JIT, font caches, first tab). */
const WARMUP_PAGES = 5;

interface ModeResult {
  mode: string;
  pages: number;
  errors: number;
  wallMs: number;
  perPageMs: number[];
  cpuMs: number;
  peakRssMb: number;
  peakPssMb: number;
}

function loadSample(dataDir: string, count: number): PageInput[] {
  const index = readFileSync(join(dataDir, "index.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { id: string; url?: string | null });
  const random = createRng(SAMPLE_SEED).next;
  const shuffled = index.map((entry) => ({ entry, key: random() })).sort((a, b) => a.key - b.key);
  const decoder = new TextDecoder("utf-8");
  return shuffled.slice(0, count).map(({ entry }) => {
    const path = join(dataDir, "html", `${entry.id}.html.gz`);
    const html = decoder.decode(gunzipSync(readFileSync(path)));
    return { id: entry.id, source: path, url: entry.url ?? null, html, encoding: "utf-8", remote: false };
  });
}

/** /proc/<pid>/stat fields after the command name. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/**
 * User + system CPU ms of these processes, plus that of their exited, reaped children
 * (cutime/cstime: recycled Chromium tabs end their renderer processes). Ticks are 10 ms.
 */
function cpuMsOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const f = statFields(pid);
    if (f) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  }
  return ticks * 10;
}

function rssMbOf(pids: number[]): number {
  const pageKb = 4;
  let pages = 0;
  for (const pid of pids) {
    const f = statFields(pid);
    if (f) pages += Number(f[21]);
  }
  return (pages * pageKb) / 1024;
}

function pssMbOf(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // exited
    }
  }
  return kb / 1024;
}

/** Samples peak memory of this process plus `extra()` processes until stopped. */
function memoryProbe(extra: () => number[]): { stop: () => { rss: number; pss: number } } {
  let rss = 0;
  let pss = 0;
  let n = 0;
  const sample = (): void => {
    const pids = [process.pid, ...extra()];
    rss = Math.max(rss, rssMbOf(pids));
    if (n++ % PSS_EVERY === 0) pss = Math.max(pss, pssMbOf(pids));
  };
  sample();
  const timer = setInterval(sample, MEMORY_SAMPLE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return { rss, pss };
    },
  };
}

/** Run a synchronous per-page function over all pages, one at a time. */
function runSequential(mode: string, pages: PageInput[], fn: (page: PageInput) => void): ModeResult {
  for (const page of pages.slice(0, WARMUP_PAGES)) fn(page);
  const probe = memoryProbe(() => []);
  const cpu0 = cpuMsOf([process.pid]);
  const perPageMs: number[] = [];
  const started = performance.now();
  for (const page of pages) {
    const t = performance.now();
    fn(page);
    perPageMs.push(performance.now() - t);
  }
  const wallMs = performance.now() - started;
  const memory = probe.stop();
  const cpuMs = cpuMsOf([process.pid]) - cpu0;
  return {
    mode,
    pages: pages.length,
    errors: 0,
    wallMs,
    perPageMs,
    cpuMs,
    peakRssMb: memory.rss,
    peakPssMb: memory.pss,
  };
}

async function runChromium(concurrency: number, pages: PageInput[], timeoutMs: number): Promise<ModeResult> {
  const renderer = await ChromiumRenderer.launch({ concurrency });
  try {
    await Promise.all(
      pages.slice(0, WARMUP_PAGES).map((page) => renderer.render(page, { timeoutMs }).catch(() => undefined)),
    );
    const probe = memoryProbe(() => renderer.processIds());
    const pids0 = [process.pid, ...renderer.processIds()];
    const cpu0 = cpuMsOf(pids0);
    const perPageMs: number[] = [];
    let errors = 0;
    let next = 0;
    const started = performance.now();
    const worker = async (): Promise<void> => {
      for (let page = pages[next++]; page; page = pages[next++]) {
        try {
          perPageMs.push((await renderer.render(page, { timeoutMs })).ms);
        } catch (err) {
          errors++;
          console.error(`  ${page.id}: ${(err as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const wallMs = performance.now() - started;
    const memory = probe.stop();
    // Processes started during the run (relaunches) are missed; the usual tree is stable.
    const cpuMs = cpuMsOf([...new Set([...pids0, ...renderer.processIds()])]) - cpu0;
    return {
      mode: `chromium, ${concurrency} page${concurrency > 1 ? "s" : ""} at once`,
      pages: pages.length,
      errors,
      wallMs,
      perPageMs,
      cpuMs,
      peakRssMb: memory.rss,
      peakPssMb: memory.pss,
    };
  } finally {
    await renderer.close();
  }
}

function tableRow(r: ModeResult): string {
  const sorted = [...r.perPageMs].sort((a, b) => a - b);
  const done = r.pages - r.errors;
  const cells = [
    r.mode,
    String(r.pages),
    String(r.errors),
    ((done / r.wallMs) * 1000).toFixed(1),
    quantile(sorted, 0.5).toFixed(1),
    quantile(sorted, 0.95).toFixed(1),
    (r.cpuMs / r.pages).toFixed(1),
    ((done / r.cpuMs) * 1000).toFixed(1),
    r.peakRssMb.toFixed(0),
    r.peakPssMb.toFixed(0),
  ];
  return `| ${cells.join(" | ")} |`;
}

async function runMode(mode: string, pages: PageInput[], timeoutMs: number): Promise<ModeResult> {
  if (mode === "parse")
    return runSequential("htmlparser2 parseDocument (bare parse)", pages, (p) => void parseDocument(p.html));
  if (mode === "parse-fast") {
    const options = { Tokenizer: fastTokenizer() };
    return runSequential(
      "htmlparser2 parseDocument with pith's tokenizer",
      pages,
      (p) => void parseDocument(p.html, options),
    );
  }
  if (mode === "static") {
    const renderer = new StaticRenderer();
    // StaticRenderer.render is async only by interface; staticSnapshot work happens synchronously.
    return runSequential("static snapshot", pages, (p) => void renderer.render(p));
  }
  const m = /^chromium-(\d+)$/.exec(mode);
  if (m) return runChromium(Number(m[1]), pages, timeoutMs);
  throw new Error(`unknown mode ${mode} (use ${DEFAULT_MODES})`);
}

async function main(): Promise<void> {
  const values = scriptArgs(USAGE, {
    pages: { type: "string" },
    modes: { type: "string" },
    data: { type: "string" },
    "timeout-ms": { type: "string" },
    "max-kb": { type: "string" },
  });
  const count = intOption(USAGE, "pages", values.pages, DEFAULT_PAGES);
  const timeoutMs = intOption(USAGE, "timeout-ms", values["timeout-ms"], 15_000);
  const maxBytes =
    values["max-kb"] === undefined ? Infinity : intOption(USAGE, "max-kb", values["max-kb"], 0) * 1024;
  const pages = loadSample(values.data ?? DEFAULT_DATA, count).filter(
    (p) => Buffer.byteLength(p.html) <= maxBytes,
  );
  const kb = pages.reduce((sum, p) => sum + Buffer.byteLength(p.html), 0) / pages.length / 1024;
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");
  console.log(
    `${pages.length} pages from ${values.data ?? "wcxb-dev"} (seed ${SAMPLE_SEED}), mean ${kb.toFixed(0)} KB of HTML; load average at start: ${load}\n`,
  );
  const header =
    "| mode | pages | errors | pages/s | median ms/page | p95 ms/page | CPU ms/page | pages per CPU-s | peak RSS MB | peak PSS MB |";
  const rows: string[] = [];
  for (const mode of (values.modes ?? DEFAULT_MODES).split(",")) {
    const result = await runMode(mode.trim(), pages, timeoutMs);
    rows.push(tableRow(result));
    console.error(`done: ${rows.at(-1)} (load ${loadavg()[0]?.toFixed(1)})`);
  }
  console.log([header, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|", ...rows].join("\n"));
}

await main();
