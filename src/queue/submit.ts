/**
 * `pith queue submit`'s library side: the run's meta and roots written, then its jobs added to
 * BullMQ in batches of SUBMIT_BATCH. A job already done (in the run's done set) is skipped, and
 * one still in the queue (waiting, active, delayed or failed) is left as it is: BullMQ adds
 * nothing for an id it holds, and `pith queue retry` re-enqueues failed ones.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { WARC_FILE } from "../io/inputs.ts";
import { jobId, type JobData, type PlannedJob } from "./jobs.ts";
import { PREFIX, QUEUE_NAME, runKeys, saveRun, type RunMeta } from "./run.ts";

/** Jobs checked and added per round trip. */
const SUBMIT_BATCH = 500;

/** What a submit did. */
export interface Submitted {
  /** Jobs of these inputs. */
  jobs: number;
  added: number;
  /** Done in an earlier submit of the same inputs. */
  done: number;
  /** Still in the queue from an earlier submit (waiting, active or failed). */
  queued: number;
}

/** BullMQ's options of every job: `attempts` tries, the first retry after a second, then doubling. */
export function jobOptions(attempts: number) {
  return {
    attempts,
    backoff: { type: "exponential", delay: 1000 },
    // the done set remembers finished jobs; the queue forgets them, so Redis holds pending work only
    removeOnComplete: true,
    removeOnFail: false,
  };
}

/** Submits the planned jobs to the run (its roots: the absolute paths of the inputs, known once planned). */
export async function submitJobs(
  o: { redis: Redis; queue: Queue; run: RunMeta; attempts: number },
  jobs: AsyncIterable<PlannedJob>,
  roots: Set<string>,
): Promise<Submitted> {
  await saveRun(o.redis, o.run);
  const total: Submitted = { jobs: 0, added: 0, done: 0, queued: 0 };
  let batch: JobData[] = [];
  const flush = async () => {
    // roots first: a worker may take a job as soon as it is added
    if (roots.size) await o.redis.sadd(runKeys(o.run.id).roots, ...roots);
    roots.clear();
    add(total, await submitBatch(o, batch));
    batch = [];
  };
  for await (const job of jobs) {
    batch.push({ run: o.run.id, ...job });
    if (batch.length >= SUBMIT_BATCH) await flush();
  }
  await flush();
  return total;
}

function add(total: Submitted, part: Submitted): void {
  for (const k of ["jobs", "added", "done", "queued"] as const) total[k] += part[k];
}

async function submitBatch(
  o: { redis: Redis; queue: Queue; run: RunMeta; attempts: number },
  batch: JobData[],
): Promise<Submitted> {
  if (!batch.length) return { jobs: 0, added: 0, done: 0, queued: 0 };
  const k = runKeys(o.run.id);
  const ids = batch.map((job) => jobId(o.run.id, job));
  const done = await o.redis.smismember(k.done, ...ids);
  const held = await o.redis.pipeline(ids.map((id) => ["exists", `${PREFIX}:${QUEUE_NAME}:${id}`])).exec();
  const fresh = batch.filter((_, i) => !done[i] && !held?.[i]?.[1]);
  await o.redis.sadd(k.jobs, ...ids);
  await o.queue.addBulk(
    fresh.map((data) => ({
      name: typeof data.items[0] === "string" && WARC_FILE.test(data.items[0]) ? "warc" : "pages",
      data,
      opts: { jobId: jobId(o.run.id, data), ...jobOptions(o.attempts) },
    })),
  );
  const doneCount = done.filter(Boolean).length;
  return {
    jobs: batch.length,
    added: fresh.length,
    done: doneCount,
    queued: batch.length - fresh.length - doneCount,
  };
}
