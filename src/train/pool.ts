/**
 * A small worker_threads pool for training's parallel work: per-page jobs over datasets
 * (feature extraction, fold evaluation) and classifier fits (fit-pool.ts). Each worker runs
 * src/train/worker.ts through tsx and does one job at a time; jobs wait in submission order
 * for the next free worker. With one worker per core, a training run keeps both cores busy
 * where its fits do not depend on each other.
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { moduleWorker } from "../batch/module-worker.ts";
import { workerModule } from "../paths.ts";

export interface Job {
  task: string;
  payload: unknown;
}

interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

interface Pending {
  id: number;
  job: Job;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** Default worker count: every core (this machine has 2). */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

/**
 * Worker threads that take jobs as they come (see the header). `run` answers with the job's
 * value or rejects with its error; a worker that dies rejects its job and every job after it,
 * since a training run cannot go on without it. `close` terminates the workers.
 */
export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private readonly threads: Worker[] = [];
  private nextId = 0;
  private failure: Error | null = null;

  constructor(readonly size = defaultWorkers()) {
    const url = workerModule("train/worker");
    for (let i = 0; i < Math.max(1, size); i++) {
      const w = moduleWorker(url);
      this.threads.push(w);
      w.on("message", (r: Reply) => this.settle(w, r));
      w.on("error", (e: Error) => this.fail(e));
      w.on("exit", (code) => this.fail(new Error(`a training worker exited (code ${code})`)));
      w.once("online", () => this.release(w));
    }
  }

  /** Runs `job` on the next free worker. */
  run(job: Job): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject });
      this.dispatch();
    });
  }

  /** Why the pool stopped taking work (a worker died, or it was closed), or null. */
  get broken(): Error | null {
    return this.failure;
  }

  async close(): Promise<void> {
    this.failure ??= new Error("the worker pool is closed");
    for (const p of this.queue.splice(0)) p.reject(this.failure);
    await Promise.all(this.threads.map((t) => t.terminate()));
  }

  private release(w: Worker): void {
    this.idle.push(w);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.idle.length && this.queue.length) {
      const w = this.idle.pop() as Worker;
      const p = this.queue.shift() as Pending;
      this.busy.set(w, p);
      w.postMessage({ id: p.id, ...p.job });
    }
  }

  private settle(w: Worker, r: Reply): void {
    const p = this.busy.get(w);
    this.busy.delete(w);
    if (p && p.id === r.id) {
      if (r.ok) p.resolve(r.value);
      else p.reject(new Error(r.error ?? "worker failed"));
    }
    this.release(w);
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    for (const p of [...this.busy.values(), ...this.queue.splice(0)]) p.reject(e);
    this.busy.clear();
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
