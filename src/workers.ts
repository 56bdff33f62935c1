/**
 * Worker threads that run pith's TypeScript modules: the worker first registers tsx's loader
 * (as bin/pith.js does for the main thread), then imports the module at `url`.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

export function tsxWorker(url: string, options: Omit<WorkerOptions, "eval"> = {}): Worker {
  const boot = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
