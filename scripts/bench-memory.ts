/**
 * Memory over a long batch, as a user runs it: `pith extract --input-list LIST` over N pages of the
 * shared sets (repeated when N is larger than they are), text to /dev/null, in one thread
 * (`--workers 0`) or on worker threads, as a fresh process. Reports the peak RSS of the process
 * (worker threads are in it) from /usr/bin/time, and whether the same run passes with the main
 * thread's heap capped (`node --max-old-space-size=MB`: what a page retained after it is done would
 * exhaust).
 *
 *   npm run bench:memory -- [--pages 5000] [--workers 0] [--heap-mb 300]
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { intOption, scriptArgs } from "./args.ts";
import { sharedPages } from "./shared-pages.ts";
import { timedRun } from "./timed.ts";

const USAGE = `Usage: npm run bench:memory -- [--pages 5000] [--workers 0] [--heap-mb 300]

Peak RSS of \`pith extract --input-list\` over --pages pages of the shared sets (repeated as needed),
text to /dev/null, with --workers worker threads (0: this thread); then the same run under
\`node --max-old-space-size=--heap-mb\`, which passes only when pages leave nothing behind.`;

const ROOT = resolve(import.meta.dirname, "..");

const values = scriptArgs(USAGE, {
  pages: { type: "string" },
  workers: { type: "string" },
  "heap-mb": { type: "string" },
});
const pages = intOption(USAGE, "pages", values.pages, 5000);
const workers = intOption(USAGE, "workers", values.workers, 0, 0);
const heapMb = intOption(USAGE, "heap-mb", values["heap-mb"], 300);

/** One run: wall seconds, peak RSS (MB), exit code and the summary line. */
function run(
  list: string,
  nodeArgs: string[],
): { s: number; rssMb: number; status: number | null; summary: string } {
  const pith = [join(ROOT, "bin", "pith.js"), "extract", "--input-list", list, "--workers", String(workers)];
  const r = timedRun(["node", ...nodeArgs, ...pith]);
  const summary =
    r.stderr.split("\n").find((l) => l.startsWith("extracted ")) ?? "(no summary: the process died)";
  return { s: r.wallS, rssMb: r.rssMb ?? NaN, status: r.exitCode, summary };
}

const all = sharedPages();
const list = join(mkdtempSync(join(tmpdir(), "pith-bench-memory-")), "pages.txt");
writeFileSync(list, Array.from({ length: pages }, (_, i) => all[i % all.length]).join("\n") + "\n");
const free = run(list, []);
const capped = run(list, [`--max-old-space-size=${heapMb}`]);
process.stdout.write(
  [
    `| run (${pages} pages, --workers ${workers}) | wall s | peak RSS MB | exit | summary |`,
    "|---|---:|---:|---:|---|",
    `| default heap | ${free.s.toFixed(1)} | ${free.rssMb.toFixed(0)} | ${free.status} | ${free.summary} |`,
    `| --max-old-space-size=${heapMb} | ${capped.s.toFixed(1)} | ${capped.rssMb.toFixed(0)} | ${capped.status} | ${capped.summary} |`,
  ].join("\n") + "\n",
);
