/**
 * Worker threads for `pith extract` in static mode: each worker decodes, renders (static
 * parser), extracts and formats one page at a time (extract-worker.ts), so a batch uses every
 * core instead of one. The main thread reads the inputs' bytes, hands each page to the next free
 * worker and writes the outputs in input order; it copies compressed bytes to a worker rather than
 * decoded text, and its share of the work stays small as workers are added.
 *
 * Every page runs under a deadline. A page still running when it expires, or whose worker dies
 * (a crash, or a heap that outgrows its limit), becomes an error record for that page alone: the
 * worker is terminated and a fresh one takes its place, so a hanging or explosive page can no
 * longer stall a batch (the in-thread static path cannot interrupt synchronous parsing).
 */
import type { Worker } from "node:worker_threads";
import type { PageBytes } from "../io/inputs.ts";
import type { PageResult, RenderOptions } from "../types.ts";
import type { Format } from "../output/index.ts";
import type { Params } from "./command.ts";
import type { PageOutput } from "./extract-page.ts";
import { tsxWorker } from "../workers.ts";

/** What every worker needs to process pages exactly like the in-thread path. */
export interface ExtractSetup {
  method: string;
  params: Params;
  format: Format;
  render: RenderOptions;
}

/** Messages from a worker: ready after its extractor is prepared, a fatal setup error, or one page's result. */
export type WorkerReply = { ready: true } | { fatal: string } | { id: number; result: PageResult<PageOutput> };

/**
 * Old-generation heap limit of each worker (MB). A page whose extraction needs more ends that
 * worker with ERR_WORKER_OUT_OF_MEMORY: an error record for the page, not a dead process. It also
 * makes V8 collect sooner on long batches: wcxb-dev's 1,358 pages on 2 workers peaked at 1.4-1.5 GB
 * RSS with a 2,048 MB limit and 1.0-1.1 GB with this one, for the same CPU time (two runs each,
 * interleaved); a 30 MB page still fits in 768 MB.
 */
export const WORKER_HEAP_MB = 1024;

interface Job {
  id: number;
  input: PageBytes;
  resolve: (r: PageResult<PageOutput>) => void;
}

interface Slot {
  worker: Worker;
  /** True once the worker has prepared its extractor; a worker that dies before is a setup failure. */
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

export class ExtractPool {
  private readonly slots = new Set<Slot>();
  private readonly idle: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private fatal: Error | null = null;
  private closed = false;
  private readonly started: Promise<void>;
  private onStarted: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private startedCount = 0;

  /** Worker threads (at least one). */
  readonly size: number;

  constructor(
    workers: number,
    private readonly setup: ExtractSetup,
    private readonly timeoutMs: number,
    private readonly heapMb = WORKER_HEAP_MB,
  ) {
    this.size = Math.max(1, Math.floor(workers));
    this.started = new Promise((resolve, reject) => (this.onStarted = { resolve, reject }));
    this.started.catch(() => {}); // observed through ready()
    for (let i = 0; i < this.size; i++) this.spawn();
  }

  /** Resolves once the first workers have prepared their extractor (loaded the model); rejects with a setup error. */
  ready(): Promise<void> {
    return this.started;
  }

  /** Decodes, renders, extracts and formats one page on the next free worker. Never rejects: failures are error records. */
  extract(input: PageBytes): Promise<PageResult<PageOutput>> {
    if (this.fatal) return Promise.resolve(failed(input, "extract", this.fatal.message));
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, input, resolve });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve(failed(job.input, "extract", "the extraction pool was closed"));
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.all(slots.map((s) => (s.timer && clearTimeout(s.timer), s.worker.terminate())));
  }

  private spawn(): void {
    const url = new URL("./extract-worker.ts", import.meta.url).href;
    const worker = tsxWorker(url, { workerData: this.setup, resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    this.slots.add(slot);
    worker.on("message", (m: WorkerReply) => this.onMessage(slot, m));
    worker.on("error", (e: Error) => this.onDeath(slot, `worker crashed: ${e.message.split("\n")[0]}`));
    worker.on("exit", (code) => this.onDeath(slot, `worker exited (code ${code})`));
  }

  private onMessage(slot: Slot, m: WorkerReply): void {
    if ("ready" in m) {
      slot.ready = true;
      if (++this.startedCount === this.size) this.onStarted?.resolve();
      this.release(slot);
    } else if ("fatal" in m) {
      this.fail(new Error(m.fatal));
    } else if (slot.job?.id === m.id) {
      this.finish(slot, m.result);
      this.release(slot);
    }
  }

  /** A worker died (a crash, out of memory): its page fails alone and a new worker takes its place. */
  private onDeath(slot: Slot, reason: string): void {
    if (!this.slots.delete(slot)) return; // already retired (timeout, close)
    const idle = this.idle.indexOf(slot);
    if (idle >= 0) this.idle.splice(idle, 1);
    if (!slot.ready) return this.fail(new Error(`an extraction worker failed to start: ${reason}`));
    if (slot.job) this.finish(slot, failed(slot.job.input, "extract", reason));
    this.replace();
  }

  /** The page outran its deadline: record a timeout, end its worker, start another. */
  private expire(slot: Slot): void {
    if (!slot.job) return;
    this.finish(slot, failed(slot.job.input, "timeout", `timeout: extraction took longer than ${this.timeoutMs} ms`));
    this.slots.delete(slot);
    void slot.worker.terminate();
    this.replace();
  }

  private replace(): void {
    if (!this.closed && !this.fatal) this.spawn();
  }

  private finish(slot: Slot, result: PageResult<PageOutput>): void {
    if (slot.timer) clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = null;
    slot.timer = null;
    job?.resolve(result);
  }

  private release(slot: Slot): void {
    if (!this.slots.has(slot)) return;
    this.idle.push(slot);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.idle.length && this.queue.length) {
      const slot = this.idle.pop() as Slot;
      const job = this.queue.shift() as Job;
      slot.job = job;
      slot.timer = setTimeout(() => this.expire(slot), this.timeoutMs);
      slot.worker.postMessage({ id: job.id, input: job.input });
    }
  }

  private fail(e: Error): void {
    if (this.fatal) return;
    this.fatal = e;
    this.onStarted?.reject(e);
    for (const job of this.queue.splice(0)) job.resolve(failed(job.input, "extract", e.message));
    for (const slot of this.slots) if (slot.job) this.finish(slot, failed(slot.job.input, "extract", e.message));
  }
}

function failed(input: PageBytes, stage: string, reason: string): PageResult<PageOutput> {
  return { ok: false, error: { id: input.id, source: input.source, stage, reason } };
}
