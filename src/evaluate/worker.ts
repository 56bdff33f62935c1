/**
 * Worker thread of `pith evaluate` (started by runner.ts through a tsx bootstrap): receives
 * GroupJob messages, answers each with its PageFigures, keeps one renderer for its lifetime.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { RenderMode } from "../types.ts";
import { evaluateGroup, JobEnv, type GroupJob } from "./page.ts";

interface Request {
  id: number;
  job?: GroupJob;
  close?: boolean;
}

const port = parentPort;
if (!port) throw new Error("src/evaluate/worker.ts must run in a worker thread");
const env = new JobEnv((workerData as { mode: RenderMode }).mode);

port.on("message", async (req: Request) => {
  if (req.close || !req.job) {
    await env.close();
    port.postMessage({ id: req.id, ok: true, value: [] });
    return;
  }
  try {
    port.postMessage({ id: req.id, ok: true, value: await evaluateGroup(env, req.job) });
  } catch (e) {
    port.postMessage({ id: req.id, ok: false, error: String((e as Error)?.message ?? e) });
  }
});
