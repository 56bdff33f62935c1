/**
 * Worker threads that run pith's TypeScript modules: the worker first registers tsx's loader
 * (as bin/pith.js does for the main thread), then imports the module at `url`. A module of the
 * bundle (dist/, already JavaScript) starts as it is.
 *
 * A worker started from source text resolves bare specifiers against the process's working
 * directory, not against pith's files, so tsx is imported by the absolute URL this module
 * resolves: pith run from any directory (`/path/to/pith/bin/pith.js`, a global install) finds it.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

const TSX_API = import.meta.resolve("tsx/esm/api");

/**
 * A worker running the module at `url`: a bundled .js module as it is, a .ts source through tsx
 * (src/paths.ts workerModule).
 */
export function moduleWorker(url: string, options: Omit<WorkerOptions, "eval"> = {}): Worker {
  if (url.endsWith(".js")) return new Worker(new URL(url), options);
  const boot =
    `import(${JSON.stringify(TSX_API)})` +
    `.then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
