/**
 * A run's state for `pith queue status`, and `retry` and `clean`. Jobs done and their pages come
 * from the run's own keys (run.ts); failed and active jobs from BullMQ's lists, filtered by the
 * run's id (a job id starts with it); pending is the rest. Pages/s is the run's pages over the time
 * since its first job started (to its last job, once it is complete), and the ETA assumes the
 * jobs left take as long as the jobs done took on average.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { deleteRun, runKeys, runStats, type RunMeta, type RunStats } from "./run.ts";

export interface FailedJob {
  id: string;
  reason: string;
  attempts: number;
}

export interface RunStatus {
  run: string;
  out: string;
  created: string;
  jobs: { total: number; pending: number; active: number; done: number; failed: number };
  pages: { extracted: number; empty: number; errors: number };
  pagesPerSecond: number | null;
  etaSeconds: number | null;
  /** Every job of the run is done or failed. */
  settled: boolean;
  failed: FailedJob[];
  /** The latest error records, newest first (`error<TAB>page<TAB>stage<TAB>reason`). */
  recentErrors: string[];
}

/** Failed jobs of the run shown with their reasons (all are counted). */
const SHOWN_FAILED = 20;

/** The ids of the run's jobs in BullMQ's list `state`. */
async function idsIn(queue: Queue, state: "failed" | "active", run: string): Promise<string[]> {
  const ids = await queue.getRanges([state], 0, -1);
  return ids.filter((id) => id.startsWith(`${run}-`));
}

export async function runStatus(redis: Redis, queue: Queue, run: RunMeta): Promise<RunStatus> {
  const k = runKeys(run.id);
  const [total, done, stats, failedIds, activeIds, recentErrors] = await Promise.all([
    redis.scard(k.jobs),
    redis.scard(k.done),
    runStats(redis, run.id),
    idsIn(queue, "failed", run.id),
    idsIn(queue, "active", run.id),
    redis.lrange(k.errors, 0, 9),
  ]);
  const failed = await failedJobs(queue, failedIds.slice(0, SHOWN_FAILED));
  const active = activeIds.length;
  const pending = Math.max(0, total - done - failedIds.length - active);
  const settled = pending + active === 0;
  return {
    run: run.id,
    out: run.out,
    created: new Date(run.created).toISOString(),
    jobs: { total, pending, active, done, failed: failedIds.length },
    pages: { extracted: stats.pages, empty: stats.empty, errors: stats.errors },
    ...rates(stats, done, pending + active, settled),
    settled,
    failed,
    recentErrors,
  };
}

async function failedJobs(queue: Queue, ids: string[]): Promise<FailedJob[]> {
  const jobs = await Promise.all(ids.map((id) => queue.getJob(id)));
  return jobs.flatMap((job) =>
    job ? [{ id: job.id as string, reason: job.failedReason ?? "", attempts: job.attemptsMade }] : [],
  );
}

function rates(s: RunStats, done: number, left: number, settled: boolean) {
  if (s.started === null || done === 0) return { pagesPerSecond: null, etaSeconds: null };
  const end = settled && s.last !== null ? s.last : Date.now();
  const seconds = Math.max(0.001, (end - s.started) / 1000);
  return {
    pagesPerSecond: (s.pages + s.errors) / seconds,
    etaSeconds: settled ? 0 : (left * seconds) / done,
  };
}

/** Moves the run's failed jobs back to the queue with fresh attempts; how many. */
export async function retryRun(queue: Queue, run: string): Promise<number> {
  const ids = await idsIn(queue, "failed", run);
  for (const id of ids)
    await (await queue.getJob(id))?.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
  return ids.length;
}

/**
 * Removes the run's jobs and keys (its output files stay). Refused while some of its jobs are
 * running (their workers hold them): returns how many, and removes nothing.
 */
export async function cleanRun(
  redis: Redis,
  queue: Queue,
  run: string,
): Promise<{ removed: number; active: number }> {
  const active = (await idsIn(queue, "active", run)).length;
  if (active) return { removed: 0, active };
  let removed = 0;
  let cursor = "0";
  do {
    const [next, ids] = await redis.sscan(runKeys(run).jobs, cursor, "COUNT", 500);
    for (const id of ids) removed += await queue.remove(id);
    cursor = next;
  } while (cursor !== "0");
  await deleteRun(redis, run);
  return { removed, active: 0 };
}
