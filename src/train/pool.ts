/**
 * A small worker_threads pool for training's parallel work: per-page jobs over datasets
 * (feature extraction, fold evaluation) and classifier fits (fit-pool.ts). Each worker runs
 * src/train/worker.ts through tsx and does one job at a time; jobs wait in submission order
 * for the next free worker. With one worker per core, a training run keeps both cores busy
 * where its fits do not depend on each other.
 */
import { availableParallelism } from "node:os";
import { DeadlinePool } from "../batch/pool.ts";
import { workerModule } from "../paths.ts";

export interface Job {
  task: string;
  payload: unknown;
}

/** A worker's answer to one job: its value, or the one-line error it threw. */
export interface JobReply {
  ok: boolean;
  value?: unknown;
  error?: string;
}

/** Default worker count: every core (this machine has 2). */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

/**
 * Worker threads that take jobs as they come (see the header), on the batch commands' pool
 * (src/batch/pool.ts) without a deadline: a fit or a cross-validation fold takes as long as it
 * takes. `run` answers with the job's value or rejects with its error; a worker that dies rejects
 * its job and every job after it, since a training run cannot go on without it. `close`
 * terminates the workers.
 */
export class WorkerPool {
  private readonly pool: DeadlinePool<Job, JobReply & { died?: true }>;
  private failure: Error | null = null;

  constructor(readonly size = defaultWorkers()) {
    this.pool = new DeadlinePool<Job, JobReply & { died?: true }>({
      url: workerModule("train/worker"),
      workerData: null,
      size,
      deadlineMs: () => Infinity,
      failure: (_job, _kind, detail) => ({
        ok: false,
        error: `a training worker stopped: ${detail}`,
        died: true,
      }),
      name: "a training worker",
    });
  }

  /** Runs `job` on the next free worker. */
  async run(job: Job): Promise<unknown> {
    if (this.failure) throw this.failure;
    const reply = await this.pool.run(job);
    if (reply.died) {
      this.failure ??= new Error(reply.error);
      void this.pool.close();
      throw this.failure;
    }
    if (!reply.ok) throw new Error(reply.error ?? "worker failed");
    return reply.value;
  }

  /** Why the pool stopped taking work (a worker died, or it was closed), or null. */
  get broken(): Error | null {
    return this.failure;
  }

  async close(): Promise<void> {
    this.failure ??= new Error("the worker pool is closed");
    await this.pool.close();
  }
}

/**
 * Runs every job on `workers` (a pool to share, or how many threads to start for this batch and
 * terminate after it); `onResult(i, value | Error)` is called as each finishes (a failed job
 * does not stop the others; a dead worker rejects the whole run).
 */
export async function runPool(
  jobs: readonly Job[],
  onResult: (index: number, value: unknown) => void,
  workers: number | WorkerPool = defaultWorkers(),
): Promise<void> {
  const pool =
    typeof workers === "number" ? new WorkerPool(Math.max(1, Math.min(workers, jobs.length))) : workers;
  try {
    await Promise.all(
      jobs.map((job, i) =>
        pool.run(job).then(
          (v) => onResult(i, v),
          (e: Error) => onResult(i, e),
        ),
      ),
    );
    if (pool.broken) throw pool.broken;
  } finally {
    if (pool !== workers) await pool.close();
  }
}
