/**
 * Worker thread of `pith evaluate` (runner.ts, through src/batch/pool.ts): answers each
 * GroupJob with its PageFigures and keeps one renderer for its lifetime, which it closes when
 * asked (a Chromium process must not outlive the run); it tells the pool which browsers it runs,
 * for the pool to end them if it terminates this thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { PoolReply, PoolRequest } from "../batch/pool.ts";
import { firstLine } from "../errors.ts";
import type { RenderMode } from "../types.ts";
import { evaluateGroup, failedGroup, JobEnv, type GroupJob, type PageFigures } from "./page.ts";

const port = parentPort;
if (!port) throw new Error("src/evaluate/worker.ts must run in a worker thread");
const reply = (m: PoolReply<PageFigures[]>): void => port.postMessage(m);
// the pool ends these browsers itself if it has to terminate this thread (a deadline, a crash)
const env = new JobEnv((workerData as { mode: RenderMode }).mode, 1, (dirs) => reply({ holds: dirs }));

port.on("message", async (m: PoolRequest<GroupJob>) => {
  if (!("job" in m)) {
    await env.close();
    reply({ closed: true });
    return;
  }
  try {
    reply({ id: m.id, result: await evaluateGroup(env, m.job) });
  } catch (e) {
    reply({ id: m.id, result: await failedGroup(env, m.job, `evaluate: ${firstLine(e)}`) });
  }
});
reply({ ready: true });
