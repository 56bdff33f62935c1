/**
 * `pith queue worker`'s library side: a BullMQ Worker on the `pith:extract` queue whose processor
 * runs each job as a `pith extract` batch (src/batch/extract.ts extractBatch, the same options
 * from the same flags, the same worker threads, the same Sink and output files), so a page
 * extracted through the queue is byte for byte the page `pith extract --out DIR` writes.
 *
 * - Worker threads: one ExtractPool per run (its setup: model, format, flags), started by the
 *   run's first job and shared by the jobs this process runs at once (`concurrency`), so a job
 *   does not pay the threads' start; a pool whose run has no job here is closed when another
 *   run's pool starts.
 * - At least once: a job's outputs are written whole or not at all (src/io/write-atomic.ts) under
 *   names that depend on the page alone, so a job redone after its worker died (BullMQ moves a job
 *   whose lock expired back to the queue: `lockMs`) rewrites the same files, and the run's done
 *   set counts it once (run.ts recordDone).
 * - A job whose every input failed to read (a missing or corrupt WARC) throws: BullMQ retries it
 *   up to its attempts, then it is `failed` with that reason. A job that names files outside its
 *   run's inputs is refused at once (jobs.ts checkRoots), never retried.
 * - An --out this machine cannot write: the job goes back to the queue for another worker, and
 *   this worker stops (`fatal`), as `pith extract` stops on it.
 * - close(graceMs): no new job; running jobs get `graceMs` to finish, then go back to the queue
 *   (moveToWait), their written pages kept (the next worker rewrites them).
 */
import { hostname } from "node:os";
import { UnrecoverableError, WaitingError, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { extractBatch, type BatchOptions } from "../batch/extract.ts";
import { ExtractPool } from "../batch/extract-pool.ts";
import { OutputDir } from "../batch/output-files.ts";
import type { PageOutput } from "../batch/page-output.ts";
import type { Progress } from "../batch/progress.ts";
import { Sink, type BatchSink } from "../batch/sink.ts";
import { firstLine, UsageError } from "../errors.ts";
import type { InputSpec } from "../io/inputs.ts";
import { FORMAT_EXTENSION, type Format } from "../output/index.ts";
import { DEFAULT_TIMEOUT_MS } from "../time-limit.ts";
import type { PageResult } from "../types.ts";
import type { RedisTarget } from "./redis.ts";
import { checkRoots, jobInputs, RefusedJob, type JobData } from "./jobs.ts";
import {
  loadRun,
  MAX_ERRORS,
  PREFIX,
  QUEUE_NAME,
  recordDone,
  recordStart,
  runKeys,
  type JobCounts,
  type RunMeta,
} from "./run.ts";

/** A job's share of extractBatch's options that its run's flags decide (src/cli/extract.ts extractPlan). */
export type JobPlan = Omit<BatchOptions, "specs" | "sink" | "workers" | "pool"> & { format: Format };

export interface QueueWorkerOptions {
  redis: RedisTarget;
  /** Worker threads per run's pool (at least 1). */
  workers: number;
  /** Jobs this process runs at once. */
  concurrency: number;
  /** How long a job's lock lasts without renewal: a dead worker's job is taken again after about this. */
  lockMs: number;
  /** The batch options of a run's extract flags (a usage error for flags this pith does not know). */
  plan: (argv: string[]) => JobPlan;
  /** One line of the worker's log (job started / done, error records). */
  log: (line: string) => void;
}

/** How often a running job reports its pages to BullMQ (job.progress). */
const PROGRESS_MS = 2000;
/** A dead worker's job may be taken again this many times before it fails as stalled. */
const MAX_STALLED = 2;

interface RunPool {
  pool: ExtractPool;
  users: number;
}

/** A job given back to the queue (shutdown, or an --out this worker cannot write). */
class Released extends Error {}

export class QueueWorker {
  private readonly worker: Worker;
  private readonly redis: Redis;
  private readonly pools = new Map<string, RunPool>();
  private readonly plans = new Map<string, { run: RunMeta; plan: JobPlan }>();
  /** Set when this worker must stop: why (a usage error: an --out it cannot write). */
  fatal: Error | null = null;
  private stopping: Promise<void> | null = null;

  constructor(private readonly o: QueueWorkerOptions) {
    this.redis = new Redis(o.redis);
    this.redis.on("error", () => {}); // BullMQ's worker reports connection trouble once (cli)
    this.worker = new Worker(QUEUE_NAME, (job, token, signal) => this.process(job, token, signal), {
      connection: o.redis,
      prefix: PREFIX,
      concurrency: o.concurrency,
      lockDuration: o.lockMs,
      stalledInterval: o.lockMs,
      maxStalledCount: MAX_STALLED,
      name: `${hostname()}:${process.pid}`,
      autorun: false,
    });
  }

  /** The BullMQ worker, for its events (error, failed). */
  get events(): Worker {
    return this.worker;
  }

  /** Takes jobs until close(); resolves when the worker has stopped. */
  async run(): Promise<void> {
    await this.worker.run();
  }

  /**
   * Stops taking jobs; running jobs get `graceMs` to finish, then go back to the queue. Resolves
   * once every job is finished or released and the connections and threads are closed.
   */
  close(graceMs: number): Promise<void> {
    this.stopping ??= (async () => {
      const timer = setTimeout(() => this.worker.cancelAllJobs("the worker is stopping"), graceMs);
      try {
        await this.worker.close();
      } finally {
        clearTimeout(timer);
        await Promise.all([...this.pools.values()].map((p) => p.pool.close()));
        this.redis.disconnect();
      }
    })();
    return this.stopping;
  }

  private async process(job: Job<JobData>, token?: string, signal?: AbortSignal): Promise<JobCounts> {
    const data = job.data;
    const id = job.id as string;
    const run = await this.runOf(data.run);
    if (await this.redis.sismember(runKeys(run.id).done, id))
      return { pages: 0, empty: 0, errors: 0, records: [] };
    try {
      await checkRoots(this.redis, data);
    } catch (e) {
      if (e instanceof RefusedJob) throw new UnrecoverableError(e.message);
      throw e;
    }
    await recordStart(this.redis, run.id);
    const started = Date.now();
    this.o.log(`job\t${id}\tstarted\t${data.items.length} input(s)`);
    try {
      const counts = await this.extract(run, job, jobInputs(data), signal);
      failIfUnread(counts, data.items.filter((i) => typeof i !== "string").length);
      await recordDone(this.redis, run.id, id, counts);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      this.o.log(`job\t${id}\tdone\t${counts.pages} page(s), ${counts.errors} error(s) in ${seconds} s`);
      return counts;
    } catch (e) {
      if (!(e instanceof Released) && !signal?.aborted) throw e;
      await job.moveToWait(token);
      this.o.log(`job\t${id}\treleased\t${e instanceof Released ? e.message : "the worker is stopping"}`);
      throw new WaitingError();
    }
  }

  /** The run's meta and batch options (cached); a job of a run that is gone is refused. */
  private async runOf(id: string): Promise<RunMeta> {
    const known = this.plans.get(id);
    if (known) return known.run;
    const run = await loadRun(this.redis, id);
    if (!run) throw new UnrecoverableError(`refused: run ${id} is not in Redis (cleaned?)`);
    let plan: JobPlan;
    try {
      plan = this.o.plan(run.argv);
    } catch (e) {
      throw new UnrecoverableError(`refused: this pith cannot run the job's flags: ${firstLine(e)}`);
    }
    this.plans.set(id, { run, plan });
    return run;
  }

  /**
   * Runs the job's pages as one extract batch (the run's flags, this worker's threads); its counts
   * and error records. The job's id is its name for any output made per job rather than per page.
   */
  private async extract(run: RunMeta, job: Job<JobData>, inputs: InputSpec[], signal?: AbortSignal) {
    const { plan } = this.plans.get(run.id) as { plan: JobPlan };
    const out = await this.outputDir(run, plan.format);
    const records: string[] = [];
    const bar = jobProgress(records, this.o.log);
    // --out-format jsonl|warc: one batch file per job, named by the job id (a retry rewrites it)
    const perPage = (plan.outFormat ?? "files") === "files";
    const sink = new Sink(plan.format, perPage ? out : null, true, bar);
    const pool = this.poolFor(run.id, plan);
    const ticker = setInterval(
      () => void job.updateProgress({ pages: sink.counts.ok }).catch(() => {}),
      PROGRESS_MS,
    );
    try {
      const batch = {
        ...plan,
        workers: this.o.workers,
        specs: inputs,
        pool,
        outDir: out.root,
        batchName: job.id as string,
      };
      await extractBatch({ ...batch, sink: new JobSink(sink, signal) });
    } finally {
      clearInterval(ticker);
      this.leave(run.id);
    }
    const { ok, empty, errors } = sink.counts;
    return { pages: ok, empty, errors, records, readErrors: records.filter(isReadError).length };
  }

  /** The run's --out, made now; one this machine cannot write stops the worker and releases the job. */
  private async outputDir(run: RunMeta, format: Format): Promise<OutputDir> {
    try {
      return await OutputDir.open("queue worker", run.out, FORMAT_EXTENSION[format]);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      this.fatal ??= e;
      void this.close(0);
      throw new Released(`this worker cannot write ${run.out}`);
    }
  }

  /** The run's worker threads, started by its first job here; other runs' idle pools are closed. */
  private poolFor(run: string, plan: JobPlan): ExtractPool {
    let entry = this.pools.get(run);
    if (!entry) {
      for (const [other, p] of this.pools)
        if (p.users === 0) {
          this.pools.delete(other);
          void p.pool.close();
        }
      const timeout = plan.setup.render.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      entry = { pool: new ExtractPool(this.o.workers, plan.setup, timeout), users: 0 };
      this.pools.set(run, entry);
    }
    entry.users++;
    return entry.pool;
  }

  private leave(run: string): void {
    const entry = this.pools.get(run);
    if (entry) entry.users--;
  }
}

/**
 * A job whose inputs all failed to read (a missing or corrupt WARC, an unmounted share): an
 * error, so BullMQ retries it, then fails it. Inputs submit already found unreadable (`known`:
 * a missing file, an empty directory) are error records, as in `pith extract`, not a reason to retry.
 */
function failIfUnread(c: JobCounts & { readErrors: number }, known: number): void {
  if (c.pages > 0 || c.errors === 0 || c.readErrors < c.errors || c.readErrors <= known) return;
  const reason = (c.records[0] ?? "").split("\t").slice(3).join("\t");
  throw new Error(`nothing could be read: ${reason || "every input failed"}`);
}

function isReadError(record: string): boolean {
  return record.split("\t")[2] === "read";
}

/** The Sink's notes of one job: error records kept (up to MAX_ERRORS) and every note logged. */
function jobProgress(records: string[], log: (line: string) => void): Progress {
  return {
    active: false,
    tick() {},
    setTotal() {},
    note(line) {
      if (line.startsWith("error\t") && records.length < MAX_ERRORS) records.push(line);
      log(line);
    },
    stop() {},
  };
}

/** Hands outputs to the job's Sink until the job is cancelled (shutdown), then stops the batch. */
class JobSink implements BatchSink {
  constructor(
    private readonly inner: Sink,
    private readonly signal: AbortSignal | undefined,
  ) {}

  take(r: PageResult<PageOutput>): Promise<void> {
    if (this.signal?.aborted) return Promise.reject(new Released("the worker is stopping"));
    return this.inner.take(r);
  }

  count(r: PageResult<PageOutput>): Promise<void> {
    if (this.signal?.aborted) return Promise.reject(new Released("the worker is stopping"));
    return this.inner.count(r);
  }

  done(): Promise<void> {
    return this.inner.done();
  }
}
