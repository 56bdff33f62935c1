/**
 * `pith queue status`: a run's jobs (pending, active, done, failed), pages, error records,
 * pages/s and ETA (src/queue/status.ts); every run in one line each without a RUN. `--wait`
 * polls until every job is done or failed, with a progress bar on a terminal.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { progress } from "../batch/progress.ts";
import { listRuns, loadRun } from "../queue/run.ts";
import { runStatus, type RunStatus } from "../queue/status.ts";
import { EXIT, UsageError, parse } from "./command.ts";
import {
  connect,
  namedRun,
  REDIS_FLAG,
  REDIS_HELP,
  type QueueConnection,
  type Subcommand,
} from "./queue-connection.ts";

/** How often --wait asks Redis. */
const POLL_MS = 1000;

const STATUS_FLAGS = { ...REDIS_FLAG, wait: { type: "boolean" }, json: { type: "boolean" } } as const;

const HELP = `Usage: pith queue status [RUN] --redis URL [--wait] [--json]

A run's jobs (pending, active, done, failed, with the failed jobs' reasons), pages extracted, error
records (the latest shown), pages/s since its first job started, and the time left at that pace.
Without RUN: one line per run. Ids are those \`pith queue submit\` prints.

Options:
${REDIS_HELP}
  --wait             wait until every job of the run is done or failed (a progress bar on a terminal);
                     without RUN, the only run
  --json             the status as one JSON object (without RUN: one per line)
  -h, --help         this help

Exit codes: 0 (with --wait: every job done), 1 with --wait: some jobs failed, 2 usage error (no
such run), 3 Redis unreachable.`;

const count = (n: number) => n.toLocaleString("en-US");

function duration(s: number): string {
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

/** The status as lines a person reads. */
export function statusText(s: RunStatus): string {
  const j = s.jobs;
  const speed =
    s.pagesPerSecond === null
      ? "no job done yet"
      : `${s.pagesPerSecond.toFixed(1)} pages/s` + (s.settled ? "" : `, eta ${duration(s.etaSeconds ?? 0)}`);
  return [
    `run     ${s.run} (submitted ${s.created})`,
    `out     ${s.out}`,
    `jobs    ${count(j.total)}: ${count(j.pending)} pending, ${count(j.active)} active, ${count(j.done)} done, ${count(j.failed)} failed`,
    `pages   ${count(s.pages.extracted)} extracted (${count(s.pages.empty)} empty), ${count(s.pages.errors)} error record(s)`,
    `speed   ${speed}`,
    ...s.failed.map((f) => `failed  ${f.id}: ${f.reason} (${f.attempts} attempt(s))`),
    ...s.recentErrors,
  ].join("\n");
}

/** One line per run. */
async function allRuns(c: QueueConnection, json: boolean): Promise<number> {
  for (const id of await listRuns(c.redis)) {
    const run = await loadRun(c.redis, id);
    if (!run) continue;
    const s = await runStatus(c.redis, c.queue, run);
    const j = s.jobs;
    process.stdout.write(
      json
        ? JSON.stringify(s) + "\n"
        : `${s.run}\t${j.done}/${j.total} jobs done, ${j.failed} failed, ${s.pages.extracted} pages, ` +
            `${s.pages.errors} errors\t${s.out}\n`,
    );
  }
  return EXIT.ok;
}

/** Polls until the run settles; a bar of jobs done on a terminal. */
async function waitFor(c: QueueConnection, id: string): Promise<RunStatus> {
  const run = await namedRun("queue status", c, id);
  let s = await runStatus(c.redis, c.queue, run);
  const bar = progress("queue", s.jobs.total);
  let shown = 0;
  for (;;) {
    const settled = s.jobs.done + s.jobs.failed;
    bar.setTotal(s.jobs.total);
    const label = `${count(s.pages.extracted)} pages, ${s.pagesPerSecond?.toFixed(0) ?? 0}/s`;
    for (; shown < settled; shown++) bar.tick(label);
    if (s.settled) break;
    await sleep(POLL_MS);
    s = await runStatus(c.redis, c.queue, run);
  }
  bar.stop();
  return s;
}

export const statusCommand: Subcommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parse("queue status", argv, STATUS_FLAGS);
    const c = await connect("queue status", values.redis);
    try {
      let id = positionals[0];
      if (!id && !values.wait) return await allRuns(c, values.json ?? false);
      if (!id) {
        const runs = await listRuns(c.redis);
        if (runs.length !== 1)
          throw new UsageError(
            `queue status: --wait without RUN needs exactly one run (there are ${runs.length})`,
          );
        id = runs[0];
      }
      const s = values.wait
        ? await waitFor(c, id as string)
        : await runStatus(c.redis, c.queue, await namedRun("queue status", c, id));
      process.stdout.write((values.json ? JSON.stringify(s) : statusText(s)) + "\n");
      return values.wait && s.jobs.failed ? EXIT.pageErrors : EXIT.ok;
    } finally {
      await c.close();
    }
  },
};
