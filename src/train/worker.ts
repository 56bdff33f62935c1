/**
 * Worker-thread entry for pool.ts (the batch pool's protocol, src/batch/pool.ts): says it is ready,
 * then answers each {id, job: {task, payload}} with {id, result: {ok, value | error}}.
 * Tasks: "record" (a dataset page → PageRecord), "evaluate" (a page → word F1 of the
 * learned pipeline with a given model) and "fit" (training rows → a fitted classifier's JSON,
 * fit-pool.ts), so both cores share dataset-wide work and independent fits. The record
 * payload names the render mode (default static) and, with site features, the page's siblings; an evaluation takes it from the model file.
 */
import { parentPort } from "node:worker_threads";
import type { PoolReply, PoolRequest } from "../batch/pool.ts";
import { firstLine } from "../errors.ts";
import type { Job, JobReply } from "./pool.ts";
import { loadDataset, type Dataset } from "../io/dataset.ts";
import type { RenderMode } from "../types.ts";
import { buildPageRecord } from "./page-record.ts";
import { evaluatePage, type EvaluatePayload } from "./evaluate-page.ts";
import { fitPayload, type FitPayload } from "./fit-pool.ts";

/** A "record" task: the page, its render mode, and other pages of its site for the site features. */
interface RecordPayload {
  dataset: string;
  id: string;
  mode?: RenderMode;
  siblings?: string[];
}

const datasets = new Map<string, Dataset>();

function dataset(dir: string): Dataset {
  let ds = datasets.get(dir);
  if (!ds) {
    ds = loadDataset(dir);
    datasets.set(dir, ds);
  }
  return ds;
}

async function run(task: string, payload: unknown): Promise<unknown> {
  if (task === "record") {
    const { dataset: dir, id, mode, siblings } = payload as RecordPayload;
    const ds = dataset(dir);
    const page = ds.pages.find((p) => p.id === id);
    if (!page) throw new Error(`no page ${id} in ${dir}`);
    return buildPageRecord(ds, page, mode ?? "static", siblings ?? []);
  }
  if (task === "evaluate") return evaluatePage(payload as EvaluatePayload, dataset);
  if (task === "fit") return fitPayload(payload as FitPayload);
  throw new Error(`unknown task ${task}`);
}

const port = parentPort;
if (!port) throw new Error("src/train/worker.ts must run in a worker thread");
const reply = (m: PoolReply<JobReply>): void => port.postMessage(m);
port.on("message", (m: PoolRequest<Job>) => {
  if (!("job" in m)) return; // no close message: the pool terminates training workers
  run(m.job.task, m.job.payload).then(
    (value) => reply({ id: m.id, result: { ok: true, value } }),
    (e: unknown) => reply({ id: m.id, result: { ok: false, error: firstLine(e) } }),
  );
});
reply({ ready: true });
