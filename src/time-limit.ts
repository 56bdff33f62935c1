/**
 * A time limit on synchronous work in this thread. The main thread renders and extracts pages
 * too: `pith extract` on a single page, with `--workers 0` or in Chromium mode, `pith render`,
 * `pith features`, and `pith evaluate` in Chromium mode or with one worker.
 *
 * Static parsing, extraction and formatting are synchronous, so a page that keeps them busy (a
 * quadratic case nobody has found yet; two have been found before) holds the thread, and no timer can
 * fire meanwhile. Worker threads are ended from outside (batch/pool.ts terminates them). In the
 * main thread, node:vm's `timeout` is the one way: a watchdog thread calls V8's
 * TerminateExecution, which ends whatever JavaScript is running, this realm's functions included,
 * and node:vm turns that into an error at its boundary (ERR_SCRIPT_EXECUTION_TIMEOUT), after
 * which the thread goes on as before. A call costs about 50 µs (one watchdog thread each), so a
 * page makes a handful of calls, not one per node.
 *
 * What it cannot cover, and what code under a limit must respect:
 * - Work after an `await` inside `fn` runs later, outside the limit: the caller wraps each
 *   synchronous stretch (the ml extractor does its work at once when its model is loaded).
 * - Termination skips `catch` and `finally` on its way out: code run under a limit must not rely
 *   on them to restore state another page will read. pith's module-level state is memo tables
 *   (Map.set: an entry is there or not), so a page cut short leaves nothing half done.
 */
import vm from "node:vm";

/** The error a limit raises; the page it guarded becomes a timeout record. */
/** A page's time limit when the caller gives none (ms): rendering, parsing and extraction. */
export const DEFAULT_TIMEOUT_MS = 15_000;

export class TimeLimitExceeded extends Error {
  constructor(
    readonly ms: number,
    what: string,
  ) {
    super(`timeout: ${what} took longer than ${ms} ms`);
    this.name = "TimeLimitExceeded";
  }
}

/**
 * The function the vm script calls: set for the length of one run()
 * (runs do not overlap: a run is synchronous).
 */
const SLOT: { fn: (() => unknown) | null } = { fn: null };
const CONTEXT = vm.createContext(SLOT);
const CALL = new vm.Script("fn()", { filename: "pith-time-limit" });

/**
 * A budget of `ms` milliseconds spent by the synchronous calls made through run(): only their
 * own time counts, not the waits between them, so pages interleaved in one thread (mapLimit)
 * do not spend each other's budgets. `what` names the work in the error ("extraction").
 */
export class TimeLimit {
  private spent = 0;
  constructor(
    readonly ms: number,
    private readonly what = "extraction",
  ) {}

  /** `fn()`, ended with TimeLimitExceeded when the budget runs out before it returns. */
  run<T>(fn: () => T): T {
    const left = Math.ceil(this.ms - this.spent);
    if (left <= 0) throw new TimeLimitExceeded(this.ms, this.what);
    const outer = SLOT.fn;
    SLOT.fn = fn;
    const started = performance.now();
    try {
      return CALL.runInContext(CONTEXT, { timeout: left }) as T;
    } catch (e) {
      if ((e as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
        // the budget is gone: vm's timer can fire a fraction of a
        // millisecond before performance.now() says so
        this.spent = this.ms;
        throw new TimeLimitExceeded(this.ms, this.what);
      }
      throw e;
    } finally {
      this.spent += performance.now() - started;
      SLOT.fn = outer;
    }
  }
}

/** What code under a limit is handed: a TimeLimit, or NO_LIMIT. */
export type Limit = Pick<TimeLimit, "run">;

/** No limit: run() is a plain call. */
export const NO_LIMIT: Limit = { run: (fn) => fn() };
