/**
 * A pool of worker threads that run jobs, each under a deadline, for the batch commands
 * (`pith extract` on pages, `pith evaluate` on page groups). The main thread hands each job to
 * the next free worker; a job still running when its deadline expires, or whose worker dies (a
 * crash, or a heap past `heapMb`), resolves with the caller's failure result for that job alone:
 * the worker is terminated and a fresh one takes its place. So one hanging or explosive page
 * cannot stall a batch, which the main thread alone could not prevent (static parsing is
 * synchronous). Workers start on demand, up to `size` (grow()).
 *
 * Worker protocol (the module at `url`, started through moduleWorker with `workerData`):
 * - worker → main: `{ready: true}` once set up, `{fatal: message}` when it cannot set up (the
 *   whole pool fails: every job gets the failure result, `ready()` rejects), `{id, result}` per job,
 *   and `{holds: [...]}` whenever what it holds outside the thread changes (a browser's profile
 *   directory): when the pool must terminate the worker without a close (a deadline, a crash),
 *   it hands the last list to `release`, since a terminated thread frees no child process;
 * - main → worker: `{id, job}`; with `closeGraceMs`, `{close: true}` at close, answered with
 *   `{closed: true}` once the worker has released what it holds (a browser) before it is terminated.
 */
import type { Worker } from "node:worker_threads";
import { exitOnSignals } from "../exit-on-signal.ts";
import { moduleWorker } from "./module-worker.ts";

/** Messages a pool worker sends. */
export type PoolReply<R> =
  { ready: true } | { fatal: string } | { closed: true } | { id: number; result: R } | { holds: string[] };

/** Messages a pool worker receives. */
export type PoolRequest<J> = { id: number; job: J } | { close: true };

const CLOSED = "the worker pool was closed before this job finished";

/** Why a job has no result of its own. */
export type JobFailure = "timeout" | "crash";

export interface DeadlinePoolOptions<J, R> {
  /** The worker module's URL. */
  url: string;
  workerData: unknown;
  /** Worker threads at most (at least one); they start as jobs arrive. */
  size: number;
  /** Old-generation heap limit of each worker (MB); none when omitted. */
  heapMb?: number;
  /** Time limit of one job, from the moment a worker takes it (Infinity: none). */
  deadlineMs: (job: J) => number;
  /**
   * The result of a job that timed out (`detail`: the limit in ms) or whose worker died or
   * could not start (`detail`: one line saying why). Must not throw.
   */
  failure: (job: J, kind: JobFailure, detail: string) => R | Promise<R>;
  /**
   * How long a worker may take to answer `{close: true}` before it is
   * terminated (default 0: no close message).
   */
  closeGraceMs?: number;
  /** Frees what a worker reported holding (`{holds}`) when it was terminated without closing. */
  release?: (holds: string[]) => void;
  /** What the workers are, for messages ("an extraction worker"). */
  name: string;
}

interface Task<J, R> {
  id: number;
  job: J;
  resolve: (r: R) => void;
}

interface Slot<J, R> {
  worker: Worker;
  /** True once the worker is set up; a worker that dies before is a setup failure. */
  ready: boolean;
  task: Task<J, R> | null;
  timer: NodeJS.Timeout | null;
  /** What the worker last reported holding outside the thread. */
  holds: string[];
}

export class DeadlinePool<J, R> {
  private readonly slots = new Set<Slot<J, R>>();
  private readonly idle: Slot<J, R>[] = [];
  private readonly queue: Task<J, R>[] = [];
  private nextId = 0;
  private fatal: Error | null = null;
  private closed = false;
  private readonly started: Promise<void>;
  private onStarted: { resolve: () => void; reject: (e: Error) => void } | null = null;
  /** Worker threads (at least one). */
  readonly size: number;

  /** At process exit (an interrupted batch), what the workers still hold is released too. */
  private readonly onExit = (): void => {
    for (const slot of this.slots) this.releaseHolds(slot);
  };

  constructor(private readonly o: DeadlinePoolOptions<J, R>) {
    if (o.release) {
      process.on("exit", this.onExit);
      exitOnSignals();
    }
    this.size = Math.max(1, Math.floor(o.size));
    this.started = new Promise((resolve, reject) => (this.onStarted = { resolve, reject }));
    this.started.catch(() => {}); // observed through ready()
    this.spawn();
  }

  /** Worker threads running or starting now (at most `size`). */
  get threads(): number {
    return this.slots.size;
  }

  /** Resolves once the first worker is set up; rejects with a setup error. */
  ready(): Promise<void> {
    return this.started;
  }

  /** Runs one job on the next free worker. Never rejects: failures are the caller's failure results. */
  run(job: J): Promise<R> {
    if (this.fatal) return Promise.resolve(this.o.failure(job, "crash", this.fatal.message));
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, job, resolve });
      this.dispatch();
    });
  }

  /** Ends every worker; a job still queued or running gets its failure result. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) this.settle(task, "crash", CLOSED);
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.all(slots.map((s) => this.retire(s)));
    process.off("exit", this.onExit);
  }

  private async retire(slot: Slot<J, R>): Promise<void> {
    const running = this.finish(slot);
    if (running) this.settle(running, "crash", CLOSED);
    const grace = this.o.closeGraceMs ?? 0;
    let closed = false;
    if (grace > 0 && running === null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, grace);
        slot.worker.on("message", (m: PoolReply<R>) => {
          if (!("closed" in m)) return;
          closed = true;
          clearTimeout(timer);
          resolve();
        });
        slot.worker.on("exit", () => (clearTimeout(timer), resolve()));
        slot.worker.postMessage({ close: true } satisfies PoolRequest<J>);
      });
    }
    await slot.worker.terminate();
    if (!closed) this.releaseHolds(slot);
  }

  /** After a worker was terminated without closing: free what it held. */
  private releaseHolds(slot: Slot<J, R>): void {
    const holds = slot.holds.splice(0);
    if (holds.length && this.o.release) {
      try {
        this.o.release(holds);
      } catch {
        // best effort: a leftover is not worth failing the batch for
      }
    }
  }

  private spawn(): void {
    const worker = moduleWorker(this.o.url, {
      workerData: this.o.workerData,
      ...(this.o.heapMb ? { resourceLimits: { maxOldGenerationSizeMb: this.o.heapMb } } : {}),
    });
    const slot: Slot<J, R> = { worker, ready: false, task: null, timer: null, holds: [] };
    this.slots.add(slot);
    worker.on("message", (m: PoolReply<R>) => this.onMessage(slot, m));
    worker.on("error", (e: Error) => this.onDeath(slot, `worker crashed: ${e.message.split("\n")[0]}`));
    worker.on("exit", (code) => this.onDeath(slot, `worker exited (code ${code})`));
  }

  private onMessage(slot: Slot<J, R>, m: PoolReply<R>): void {
    if ("ready" in m) {
      slot.ready = true;
      this.onStarted?.resolve();
      this.release(slot);
    } else if ("holds" in m) {
      slot.holds = m.holds;
      // a worker's last messages can arrive after its death was handled (an error overtakes
      // them): what it reported then is released at once
      if (!this.slots.has(slot)) this.releaseHolds(slot);
    } else if ("fatal" in m) {
      this.fail(new Error(m.fatal));
    } else if ("id" in m && slot.task?.id === m.id) {
      this.finish(slot)?.resolve(m.result);
      this.release(slot);
    }
  }

  /** A worker died (a crash, out of memory): its job fails alone and a new worker takes its place. */
  private onDeath(slot: Slot<J, R>, reason: string): void {
    if (!this.slots.delete(slot)) return; // already retired (timeout, close)
    const idle = this.idle.indexOf(slot);
    if (idle >= 0) this.idle.splice(idle, 1);
    if (!slot.ready) return this.fail(new Error(`${this.o.name} failed to start: ${reason}`));
    const task = this.finish(slot);
    if (task) this.settle(task, "crash", reason);
    this.releaseHolds(slot);
    this.replace();
  }

  /** The job outran its deadline: its failure result, its worker terminated, another started. */
  private expire(slot: Slot<J, R>, ms: number): void {
    const task = this.finish(slot);
    if (!task) return;
    this.settle(task, "timeout", String(ms));
    this.slots.delete(slot);
    void slot.worker.terminate().then(() => this.releaseHolds(slot));
    this.replace();
  }

  /** After a worker was lost: a fresh one when jobs are waiting (else the next job starts one). */
  private replace(): void {
    this.dispatch();
  }

  /** Detach the slot's task (and its timer); returns it. */
  private finish(slot: Slot<J, R>): Task<J, R> | null {
    if (slot.timer) clearTimeout(slot.timer);
    const task = slot.task;
    slot.task = null;
    slot.timer = null;
    return task;
  }

  private settle(task: Task<J, R>, kind: JobFailure, reason: string): void {
    void Promise.resolve(this.o.failure(task.job, kind, reason)).then(task.resolve);
  }

  private release(slot: Slot<J, R>): void {
    if (!this.slots.has(slot)) return;
    this.idle.push(slot);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.idle.length && this.queue.length) {
      const slot = this.idle.pop() as Slot<J, R>;
      const task = this.queue.shift() as Task<J, R>;
      const ms = this.o.deadlineMs(task.job);
      slot.task = task;
      // no timer for a job without a deadline (Infinity): setTimeout would fire it at once
      slot.timer = Number.isFinite(ms) ? setTimeout(() => this.expire(slot, ms), ms) : null;
      slot.worker.postMessage({ id: task.id, job: task.job } satisfies PoolRequest<J>);
    }
    this.grow();
  }

  /**
   * Workers start on demand: one at construction (so `ready()` reports a setup error before any
   * job), another whenever queued jobs outnumber the workers still starting, up to `size`. A
   * batch of three pages on `--workers 8` starts at most three.
   */
  private grow(): void {
    if (this.closed || this.fatal) return;
    let starting = 0;
    for (const slot of this.slots) if (!slot.ready) starting++;
    while (this.slots.size < this.size && starting < this.queue.length) {
      this.spawn();
      starting++;
    }
  }

  private fail(e: Error): void {
    if (this.fatal) return;
    this.fatal = e;
    this.onStarted?.reject(e);
    for (const task of this.queue.splice(0)) this.settle(task, "crash", e.message);
    for (const slot of this.slots) {
      const task = this.finish(slot);
      if (task) this.settle(task, "crash", e.message);
    }
  }
}
