/**
 * Worker threads that run pith's TypeScript modules: the worker first registers tsx's loader
 * (as bin/pith.js does for the main thread), then imports the module at `url`.
 *
 * A worker started from source text resolves bare specifiers against the process's working
 * directory, not against pith's files, so tsx is imported by the absolute URL this module
 * resolves: pith run from any directory (`/path/to/pith/bin/pith.js`, a global install) finds it.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

const TSX_API = import.meta.resolve("tsx/esm/api");

export function tsxWorker(url: string, options: Omit<WorkerOptions, "eval"> = {}): Worker {
  const boot = `import(${JSON.stringify(TSX_API)}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
