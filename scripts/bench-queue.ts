/**
 * `npm run bench:queue`: what the queue costs. The same N pages of the shared sets (static mode,
 * text) extracted three ways, each a fresh set of processes with start-up included:
 *   - `pith extract --input-list LIST --out DIR` alone (one worker thread per core);
 *   - through the queue with 1 worker process (one thread per core), then 2 (half the threads each):
 *     `pith queue submit`, then the workers from their start to the run's last job.
 * CPU: the processes' user + system seconds (extract: /usr/bin/time; the queue: submit's, the workers'
 * from /proc/PID/stat before they stop, and Redis's from INFO cpu), the figure to trust on a loaded
 * machine, where wall time moves with the neighbours.
 * Also Redis's memory per queued job (INFO memory's used_memory before and after the submit, over
 * the jobs added) and per page, and the jobs' latency (a job's start to its done line, from the
 * workers' logs). A fresh redis-server (append-only file on) on a free loopback port.
 *
 *   npm run bench:queue -- [--pages 2000] [--job-size 200] [--runs 1] [--json FILE]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { intOption, scriptArgs } from "./args.ts";
import { sharedPages } from "./shared-pages.ts";
import { ensureBundle, timedRun } from "./timed.ts";

const USAGE = `Usage: npm run bench:queue -- [--pages 2000] [--job-size 200] [--runs 1] [--json FILE]

Pages/s and CPU ms/page of \`pith extract\` alone against the same --pages pages of the shared sets
through \`pith queue\` with 1 and 2 worker processes (static, text; submit and start-up included;
the median of --runs interleaved rounds), Redis memory per queued job, and job latency.`;

const ROOT = resolve(import.meta.dirname, "..");
const PITH = join(ROOT, "bin", "pith.js");

const values = scriptArgs(USAGE, {
  pages: { type: "string" },
  "job-size": { type: "string" },
  json: { type: "string" },
  runs: { type: "string" },
});
const pages = intOption(USAGE, "pages", values.pages, 2000);
const jobSize = intOption(USAGE, "job-size", values["job-size"], 200);
const runs = intOption(USAGE, "runs", values.runs, 1);

/** The first `n` page files of the shared sets. */
function firstPages(n: number): string[] {
  const all = sharedPages();
  if (all.length < n) throw new Error(`only ${all.length} pages in the shared sets`);
  return all.slice(0, n);
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => done(port));
    });
  });
}

async function startRedis(dir: string): Promise<{ url: string; redis: Redis; child: ChildProcess }> {
  const port = await freePort();
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "yes",
    "--dir",
    dir,
  ];
  const child = spawn("redis-server", args, { stdio: "ignore" });
  const redis = new Redis({ port, host: "127.0.0.1", retryStrategy: () => 50 });
  redis.on("error", () => {});
  for (let i = 0; (await redis.ping().catch(() => "")) !== "PONG"; i++) {
    if (i > 200) throw new Error("redis-server did not start");
    await sleep(50);
  }
  return { url: `redis://127.0.0.1:${port}`, redis, child };
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info("memory");
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? NaN);
}

/** Redis's own CPU seconds so far (INFO cpu). */
async function redisCpu(redis: Redis): Promise<number> {
  const info = await redis.info("cpu");
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return field("used_cpu_user") + field("used_cpu_sys");
}

/** Linux's clock ticks per second (USER_HZ), the unit of /proc/PID/stat's times. */
const CLOCK_TICKS = 100;

/** A running process's CPU seconds so far, its threads included (/proc/PID/stat utime + stime). */
function processCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** One measured way of extracting the pages. */
interface Measure {
  mode: string;
  wallS: number;
  /** CPU seconds of every process involved (pith's, and Redis's for the queue). */
  cpuS: number;
  /** The submit's share of wallS and cpuS (the queue only). */
  submitWallS?: number;
  submitCpuS?: number;
  bytesPerJob?: number;
  jobs?: number;
  latencies?: number[];
}

function alone(list: string, out: string): Measure {
  const r = timedRun(["node", PITH, "extract", "--input-list", list, "--out", out]);
  if (r.exitCode !== 0) throw new Error(`pith extract failed: ${r.stderr}`);
  return {
    mode: `pith extract alone (${availableParallelism()} threads)`,
    wallS: r.wallS,
    cpuS: (r.userS ?? NaN) + (r.sysS ?? NaN),
  };
}

/** `processes` workers until the run's every job is done: their wall time, CPU and job latencies. */
async function workUntilDone(o: { redis: Redis; url: string; run: string; jobs: number; processes: number }) {
  const threads = String(Math.max(1, Math.floor(availableParallelism() / o.processes)));
  const started = performance.now();
  const logs: string[] = [];
  const workers = Array.from({ length: o.processes }, (_, i) => {
    const w = spawn("node", [PITH, "queue", "worker", "--redis", o.url, "--workers", threads], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    logs[i] = "";
    w.stderr.on("data", (d) => (logs[i] += d));
    return w;
  });
  while ((await o.redis.scard(`pith:run:${o.run}:done`)) < o.jobs) await sleep(100);
  const wallS = (performance.now() - started) / 1000;
  const cpuS = workers.reduce((sum, w) => sum + processCpu(w.pid as number), 0);
  await Promise.all(workers.map((w) => new Promise((done) => (w.once("close", done), w.kill("SIGTERM")))));
  const latencies = logs
    .join("")
    .split("\n")
    .flatMap((l) => /\tdone\t.* in ([\d.]+) s$/.exec(l)?.[1] ?? [])
    .map(Number)
    .sort((a, b) => a - b);
  return { wallS, cpuS, latencies, threads };
}

/** One queue run: submit (Redis memory before and after), then `processes` workers until every job is done. */
async function queueRun(o: {
  redis: Redis;
  url: string;
  list: string;
  out: string;
  processes: number;
}): Promise<Measure> {
  const [memory, redisCpuBefore] = [await usedMemory(o.redis), await redisCpu(o.redis)];
  const submit = timedRun([
    "node",
    PITH,
    "queue",
    "submit",
    "--input-list",
    o.list,
    "--out",
    o.out,
    "--job-size",
    String(jobSize),
    "--redis",
    o.url,
  ]);
  if (submit.exitCode !== 0) throw new Error(`submit failed: ${submit.stderr}`);
  const bytes = (await usedMemory(o.redis)) - memory;
  const run = (await o.redis.zrange("pith:runs", "-1", "-1"))[0] as string;
  const jobs = await o.redis.scard(`pith:run:${run}:jobs`);
  const w = await workUntilDone({ ...o, run, jobs });
  const cpuS =
    w.cpuS + (submit.userS ?? NaN) + (submit.sysS ?? NaN) + (await redisCpu(o.redis)) - redisCpuBefore;
  return {
    mode: `queue, ${o.processes} worker process(es) × ${w.threads} thread(s)`,
    wallS: submit.wallS + w.wallS,
    cpuS,
    submitWallS: submit.wallS,
    submitCpuS: (submit.userS ?? NaN) + (submit.sysS ?? NaN),
    bytesPerJob: bytes / jobs,
    jobs,
    latencies: w.latencies,
  };
}

const quantile = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
const median = (xs: number[]) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/**
 * The table: median pages/s and CPU ms/page of each way against extract alone, submit and start-up
 * included, and for the queue without the submit (the workers' share, which a long run is made of).
 */
function table(measures: Measure[]): string {
  const modes = [...new Set(measures.map((m) => m.mode))];
  const row = (mode: string) => {
    const ms = measures.filter((m) => m.mode === mode);
    const rate = (m: Measure, submit: boolean) => pages / (m.wallS - (submit ? 0 : (m.submitWallS ?? 0)));
    const cpu = (m: Measure, submit: boolean) =>
      ((m.cpuS - (submit ? 0 : (m.submitCpuS ?? 0))) * 1000) / pages;
    return {
      mode,
      rate: median(ms.map((m) => rate(m, true))),
      cpu: median(ms.map((m) => cpu(m, true))),
      workRate: median(ms.map((m) => rate(m, false))),
      workCpu: median(ms.map((m) => cpu(m, false))),
    };
  };
  const rows = modes.map(row);
  const base = rows[0] as { rate: number; cpu: number };
  const pct = (x: number, y: number) => `${x >= y ? "+" : ""}${((x / y - 1) * 100).toFixed(1)} %`;
  const cell = (x: number, y: number, first: boolean) => `${x.toFixed(1)}${first ? "" : ` (${pct(x, y)})`}`;
  return [
    "| run | pages/s | CPU ms/page | without the submit: pages/s | CPU ms/page |",
    "|---|---:|---:|---:|---:|",
    ...rows.map(
      (r, i) =>
        `| ${r.mode} | ${cell(r.rate, base.rate, !i)} | ${cell(r.cpu, base.cpu, !i)} | ` +
        `${i ? cell(r.workRate, base.rate, false) : ""} | ${i ? cell(r.workCpu, base.cpu, false) : ""} |`,
    ),
  ].join("\n");
}

async function main(): Promise<void> {
  await ensureBundle();
  const dir = mkdtempSync(join(tmpdir(), "pith-bench-queue-"));
  const list = join(dir, "pages.txt");
  writeFileSync(list, firstPages(pages).join("\n") + "\n");
  const load = loadavg()[0]?.toFixed(1);
  process.stderr.write(
    `bench:queue: ${pages} pages, job size ${jobSize}, ${runs} round(s), ${availableParallelism()} cores, load ${load}\n`,
  );
  const { url, redis, child } = await startRedis(dir);
  const measures: Measure[] = [];
  try {
    for (let round = 0; round < runs; round++) {
      measures.push(alone(list, join(dir, `alone-${round}`)));
      for (const processes of [1, 2])
        measures.push(
          await queueRun({ redis, url, list, out: join(dir, `queue-${round}-${processes}`), processes }),
        );
    }
  } finally {
    redis.disconnect();
    child.kill("SIGTERM");
  }
  process.stdout.write(table(measures) + "\n\n");
  // the first submit also loads BullMQ's scripts into Redis: the memory per job is the later submits'
  const queued = measures.filter((m) => m.bytesPerJob !== undefined);
  const steady = median(queued.slice(1).map((m) => m.bytesPerJob as number));
  const latencies = queued.flatMap((m) => m.latencies ?? []).sort((a, b) => a - b);
  process.stdout.write(
    `Redis: ${Math.round(steady)} bytes per queued job of ${jobSize} pages (${(steady / jobSize).toFixed(0)} per page); ` +
      `job latency (start to done) median ${quantile(latencies, 0.5)} s, p90 ${quantile(latencies, 0.9)} s; ` +
      `load ${load} at the start, ${loadavg()[0]?.toFixed(1)} at the end\n`,
  );
  if (values.json)
    writeFileSync(values.json, JSON.stringify({ pages, jobSize, load, measures }, null, 2) + "\n");
  rmSync(dir, { recursive: true, force: true });
}

await main();
