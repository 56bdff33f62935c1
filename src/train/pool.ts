/**
 * A small worker_threads pool for per-page work over datasets (feature extraction, fold
 * evaluation): one worker per core, each running src/train/worker.ts through tsx, jobs
 * handed out as workers free up, results returned in completion order with their index.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/** Bootstrap: register tsx in the worker, then load the TypeScript worker module. */
const BOOT = (url: string): string =>
  `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`;

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

/** Default worker count: every core (this machine has 2). */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

/**
 * Runs every job on a pool of `workers` threads; `onResult(i, value | Error)` is called as
 * each finishes. Workers are terminated at the end (and on failure).
 */
export async function runPool(jobs: readonly Job[], onResult: (index: number, value: unknown) => void, workers = defaultWorkers()): Promise<void> {
  const url = new URL("./worker.ts", import.meta.url).href;
  const n = Math.max(1, Math.min(workers, jobs.length));
  let next = 0;
  const threads: Worker[] = [];
  try {
    await Promise.all(
      Array.from({ length: n }, () => {
        const w = new Worker(BOOT(url), { eval: true });
        threads.push(w);
        return new Promise<void>((resolve, reject) => {
          const feed = (): void => {
            if (next >= jobs.length) return resolve();
            const id = next++;
            w.postMessage({ id, ...(jobs[id] as Job) });
          };
          w.on("message", (r: Reply) => {
            onResult(r.id, r.ok ? r.value : new Error(r.error ?? "worker failed"));
            feed();
          });
          w.on("error", reject);
          w.on("online", feed);
        });
      }),
    );
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
  }
}
