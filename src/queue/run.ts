/**
 * A run of `pith queue`: one output folder and the extract flags its pages are extracted with,
 * and the jobs submitted to it. BullMQ holds the jobs themselves (one queue for every run,
 * `pith:extract`; a job's id starts with its run's); this file holds what BullMQ does not, under
 * `pith:run:<id>`:
 *
 * - the run's meta (hash): its --out folder, the extract flags, when it was first submitted;
 * - `:jobs`, every job id submitted (set), for status, retry and clean;
 * - `:roots`, the absolute paths of the inputs submitted (set): a worker refuses a job that names
 *   a file outside them (jobs.ts checkRoots);
 * - `:done`, the jobs whose outputs are written (set), and `:stats`, their pages, empty pages and
 *   error records (hash), both written by one script (recordDone) that counts a job only the first
 *   time it is added: a job is done at least once (a worker that dies after writing its outputs
 *   has it redone) and counted exactly once;
 * - `:errors`, the latest error records (list, at most MAX_ERRORS).
 *
 * A run's id is a hash of its output folder and flags, so submitting the same inputs to the same
 * folder again finds the same run and the same job ids, and skips the jobs already done.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/** BullMQ's key prefix and queue name: every run's jobs are in `pith:extract:*`. */
export const PREFIX = "pith";
export const QUEUE_NAME = "extract";
/** Error records kept per run for `status` (the count is exact; the list shows the latest). */
export const MAX_ERRORS = 100;

const RUNS = `${PREFIX}:runs`;

export interface RunMeta {
  id: string;
  /** The absolute output folder every worker writes the run's pages under. */
  out: string;
  /** `pith extract`'s flags for every page of the run (paths in them absolute). */
  argv: string[];
  /** When the run was first submitted (ms since the epoch). */
  created: number;
}

/** Counts of the run's finished jobs. */
export interface RunStats {
  /** Pages extracted (an empty page included) and error records. */
  pages: number;
  empty: number;
  errors: number;
  /** When the first job started and the last one was recorded (ms), or null. */
  started: number | null;
  last: number | null;
}

/** The keys of one run. */
export function runKeys(id: string) {
  const base = `${PREFIX}:run:${id}`;
  return {
    meta: base,
    jobs: `${base}:jobs`,
    roots: `${base}:roots`,
    done: `${base}:done`,
    stats: `${base}:stats`,
    errors: `${base}:errors`,
  };
}

/** The run id of an output folder and its flags (12 hex digits of a SHA-1). */
export function runId(out: string, argv: readonly string[]): string {
  return createHash("sha1")
    .update(JSON.stringify([out, ...argv]))
    .digest("hex")
    .slice(0, 12);
}

/** Writes the run's meta (kept as first written when it exists) and lists it among the runs. */
export async function saveRun(redis: Redis, run: RunMeta): Promise<void> {
  const k = runKeys(run.id);
  await redis
    .multi()
    .hsetnx(k.meta, "out", run.out)
    .hsetnx(k.meta, "argv", JSON.stringify(run.argv))
    .hsetnx(k.meta, "created", String(run.created))
    .zadd(RUNS, "NX", String(run.created), run.id)
    .exec();
}

export async function loadRun(redis: Redis, id: string): Promise<RunMeta | null> {
  const m = await redis.hgetall(runKeys(id).meta);
  if (!m["out"] || !m["argv"]) return null;
  return { id, out: m["out"], argv: JSON.parse(m["argv"]) as string[], created: Number(m["created"]) };
}

/** Every run's id, oldest first. */
export function listRuns(redis: Redis): Promise<string[]> {
  return redis.zrange(RUNS, "0", "-1");
}

/** Deletes the run's own keys and its entry among the runs (its jobs are removed by the caller). */
export async function deleteRun(redis: Redis, id: string): Promise<void> {
  const k = runKeys(id);
  await redis.multi().del(k.meta, k.jobs, k.roots, k.done, k.stats, k.errors).zrem(RUNS, id).exec();
}

/** Notes when the run's first job started (later calls change nothing). */
export async function recordStart(redis: Redis, id: string): Promise<void> {
  await redis.hsetnx(runKeys(id).stats, "started", String(Date.now()));
}

/**
 * KEYS: done, stats, errors. ARGV: job id, pages, empty, errors, now, max errors kept, then the
 * error records. Adds the job to the done set and, the first time only, its counts to the stats.
 */
const RECORD_DONE = `
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[2], 'pages', ARGV[2])
redis.call('HINCRBY', KEYS[2], 'empty', ARGV[3])
redis.call('HINCRBY', KEYS[2], 'errors', ARGV[4])
redis.call('HSET', KEYS[2], 'last', ARGV[5])
for i = 7, #ARGV do redis.call('LPUSH', KEYS[3], ARGV[i]) end
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[6]) - 1)
return 1`;

/** What a finished job adds to its run. */
export interface JobCounts {
  pages: number;
  empty: number;
  errors: number;
  /** Its error records (`error<TAB>page<TAB>stage<TAB>reason`), at most MAX_ERRORS. */
  records: string[];
}

/** Records a job as done with its counts; false when it was already (a job redone). */
export async function recordDone(redis: Redis, run: string, job: string, c: JobCounts): Promise<boolean> {
  const k = runKeys(run);
  const args = [job, c.pages, c.empty, c.errors, Date.now(), MAX_ERRORS, ...c.records.slice(0, MAX_ERRORS)];
  return (await redis.eval(RECORD_DONE, 3, k.done, k.stats, k.errors, ...args.map(String))) === 1;
}

export async function runStats(redis: Redis, id: string): Promise<RunStats> {
  const s = await redis.hgetall(runKeys(id).stats);
  const n = (key: string) => Number(s[key] ?? 0);
  return {
    pages: n("pages"),
    empty: n("empty"),
    errors: n("errors"),
    started: s["started"] ? Number(s["started"]) : null,
    last: s["last"] ? Number(s["last"]) : null,
  };
}
