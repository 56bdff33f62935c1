/**
 * Worker threads for `pith extract` in static mode: each worker decodes, renders (static
 * parser), extracts and formats one page at a time (extract-worker.ts), so a batch uses every
 * core instead of one. The main thread reads the inputs' bytes, hands each page to the next free
 * worker and writes the outputs in input order; it copies compressed bytes to a worker rather than
 * decoded text, and its share of the work stays small as workers are added.
 *
 * Every page runs under a deadline (`--timeout`). A page still running when it expires, or whose
 * worker dies (a crash, or a heap that outgrows its limit), becomes an error record for that page
 * alone (stage `timeout` or `extract`) and a fresh worker takes its place: src/batch/pool.ts.
 */
import type { PageBytes } from "../io/inputs.ts";
import type { ExtractorContext, PageResult, RenderOptions } from "../types.ts";
import type { Format, OutputOptions } from "../output/index.ts";
import type { PageOutput } from "./page-output.ts";
import { availableParallelism } from "node:os";
import { DeadlinePool } from "./pool.ts";
import { workerModule } from "../paths.ts";

/**
 * The worker threads a static batch starts when `--workers` is not given: one per core the process
 * may use, and none on a single core, where a worker only adds a second load of the modules and the
 * model and a hand-off of every page to the same core. 500 wcxb-dev pages, `pith extract DIR --out
 * OUT` under `taskset -c 1` on an idle machine: 7.26 CPU s with one worker, 6.39 in this thread.
 * In this thread a page is still bounded: the time limit ends a stuck parse or extraction
 * (time-limit.ts) and the snapshot's node cap refuses a page whose parse would exhaust the heap
 * (render/static.ts MAX_SNAPSHOT_NODES).
 */
export function defaultWorkers(): number {
  const cores = availableParallelism();
  return cores > 1 ? cores : 0;
}

/**
 * A page's bytes and, with a site-aware model, those of other pages of its site (src/batch/extract.ts
 * withSiblings): the worker renders them into the page's SiteContext.
 */
export interface SitePageBytes extends PageBytes {
  siblings?: PageBytes[];
}

/** What every worker needs to process pages exactly like the in-thread path. */
export interface ExtractSetup {
  method: string;
  /** The extractor's context on every page (mode, model, trace switch, params), without a site. */
  context: Omit<ExtractorContext, "site">;
  format: Format;
  output: OutputOptions;
  render: RenderOptions;
  /**
   * `--mode auto`: the worker decides from each page's static pass whether Chromium should render
   * it, and sends such a page back unformatted (PageOutput.rerender; src/batch/auto-mode.ts).
   */
  auto?: boolean;
}

/**
 * Old-generation heap limit of each worker (MB). A page whose extraction needs more ends that
 * worker with ERR_WORKER_OUT_OF_MEMORY: an error record for the page, not a dead process. It also
 * makes V8 collect sooner on long batches: wcxb-dev's 1,358 pages on 2 workers peaked at 1.4-1.5 GB
 * RSS with a 2,048 MB limit and 1.0-1.1 GB with this one, for the same CPU time (two runs each,
 * interleaved); a 30 MB page still fits in 768 MB.
 */
export const WORKER_HEAP_MB = 1024;

/**
 * Decodes, renders, extracts and formats pages on worker threads (src/batch/pool.ts), one at a time each.
 */
export class ExtractPool {
  private readonly pool: DeadlinePool<SitePageBytes, PageResult<PageOutput>>;

  /** Worker threads (at least one). */
  get size(): number {
    return this.pool.size;
  }

  constructor(workers: number, setup: ExtractSetup, timeoutMs: number, heapMb = WORKER_HEAP_MB) {
    this.pool = new DeadlinePool({
      url: workerModule("batch/extract-worker"),
      workerData: setup,
      size: workers,
      heapMb,
      deadlineMs: () => timeoutMs,
      failure: (input, kind, detail) =>
        kind === "timeout"
          ? failed(input, "timeout", `timeout: extraction took longer than ${detail} ms`)
          : failed(input, "extract", detail),
      name: "an extraction worker",
    });
  }

  /**
   * Resolves once the first workers have prepared their extractor
   * (loaded the model); rejects with a setup error.
   */
  ready(): Promise<void> {
    return this.pool.ready();
  }

  /** One page's output or error record. Never rejects. */
  extract(input: SitePageBytes): Promise<PageResult<PageOutput>> {
    return this.pool.run(input);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function failed(input: PageBytes, stage: string, reason: string): PageResult<PageOutput> {
  return { ok: false, error: { id: input.id, source: input.source, stage, reason } };
}
