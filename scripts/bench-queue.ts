/**
 * `npm run bench:queue`: what the queue costs. The same N pages of the shared sets (static mode,
 * text) extracted three ways, each a fresh set of processes with start-up included:
 *   - `pith extract --input-list LIST --out DIR` alone (one worker thread per core);
 *   - through the queue with 1 worker process (one thread per core), then 2 (half the threads each):
 *     `pith queue submit`, then the workers from their start to the run's last job.
 * Also Redis's memory per queued job (INFO memory's used_memory before and after the submit, over
 * the jobs added) and per page, and the jobs' latency (a job's start to its done line, from the
 * workers' logs). A fresh redis-server (append-only file on) on a free loopback port.
 *
 *   npm run bench:queue -- [--pages 2000] [--job-size 200] [--json FILE]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { intOption, scriptArgs } from "./args.ts";
import { sharedPages } from "./shared-pages.ts";
import { ensureBundle, timedRun } from "./timed.ts";

const USAGE = `Usage: npm run bench:queue -- [--pages 2000] [--job-size 200] [--json FILE]

Pages/s of \`pith extract\` alone against the same --pages pages of the shared sets through
\`pith queue\` with 1 and 2 worker processes (static, text, start-up included), Redis memory per
queued job, and job latency.`;

const ROOT = resolve(import.meta.dirname, "..");
const PITH = join(ROOT, "bin", "pith.js");

const values = scriptArgs(USAGE, {
  pages: { type: "string" },
  "job-size": { type: "string" },
  json: { type: "string" },
});
const pages = intOption(USAGE, "pages", values.pages, 2000);
const jobSize = intOption(USAGE, "job-size", values["job-size"], 200);

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

/** One queue run: submit, then `processes` workers until every job is done. */
async function queueRun(o: { redis: Redis; url: string; list: string; out: string; processes: number }) {
  const before = await usedMemory(o.redis);
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
  const bytes = (await usedMemory(o.redis)) - before;
  const run = (await o.redis.zrange("pith:runs", "-1", "-1"))[0] as string;
  const jobs = await o.redis.scard(`pith:run:${run}:jobs`);
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
  while ((await o.redis.scard(`pith:run:${run}:done`)) < jobs) await sleep(100);
  const wallS = (performance.now() - started) / 1000;
  await Promise.all(workers.map((w) => new Promise((done) => (w.once("close", done), w.kill("SIGTERM")))));
  const latencies = logs
    .join("")
    .split("\n")
    .flatMap((l) => /\tdone\t.* in ([\d.]+) s$/.exec(l)?.[1] ?? [])
    .map(Number)
    .sort((a, b) => a - b);
  return {
    processes: o.processes,
    threads: Number(threads),
    jobs,
    wallS,
    submitS: submit.wallS,
    bytesPerJob: bytes / jobs,
    latencies,
  };
}

const quantile = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

async function main(): Promise<void> {
  await ensureBundle();
  const dir = mkdtempSync(join(tmpdir(), "pith-bench-queue-"));
  const list = join(dir, "pages.txt");
  writeFileSync(list, firstPages(pages).join("\n") + "\n");
  const load = loadavg()[0]?.toFixed(1);
  process.stderr.write(
    `bench:queue: ${pages} pages, job size ${jobSize}, ${availableParallelism()} cores, load ${load}\n`,
  );
  const alone = timedRun(["node", PITH, "extract", "--input-list", list, "--out", join(dir, "alone")]);
  const { url, redis, child } = await startRedis(dir);
  const runs = [];
  try {
    for (const processes of [1, 2])
      runs.push(await queueRun({ redis, url, list, out: join(dir, `queue-${processes}`), processes }));
  } finally {
    redis.disconnect();
    child.kill("SIGTERM");
  }
  const rate = (s: number) => pages / s;
  const rows = [
    `| run | pages/s | wall s | vs extract alone |`,
    `|---|---:|---:|---:|`,
    `| pith extract alone (${availableParallelism()} threads) | ${rate(alone.wallS).toFixed(1)} | ${alone.wallS.toFixed(1)} | |`,
    ...runs.map(
      (r) =>
        `| queue, ${r.processes} worker process(es) × ${r.threads} thread(s) | ${rate(r.wallS).toFixed(1)} | ${r.wallS.toFixed(1)} | ` +
        `${((rate(r.wallS) / rate(alone.wallS) - 1) * 100).toFixed(1)} % |`,
    ),
  ];
  process.stdout.write(rows.join("\n") + "\n\n");
  for (const r of runs)
    process.stdout.write(
      `${r.processes} process(es): ${r.jobs} jobs, submit ${r.submitS.toFixed(1)} s, Redis ${Math.round(r.bytesPerJob)} bytes/queued job ` +
        `(${(r.bytesPerJob / jobSize).toFixed(0)} per page), job latency median ${quantile(r.latencies, 0.5)} s, p90 ${quantile(r.latencies, 0.9)} s\n`,
    );
  if (values.json)
    writeFileSync(values.json, JSON.stringify({ pages, jobSize, load, alone, runs }, null, 2) + "\n");
  rmSync(dir, { recursive: true, force: true });
}

await main();
