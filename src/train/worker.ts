/**
 * Worker-thread entry for pool.ts: receives {id, task, payload}, answers {id, ok, value}.
 * Tasks: "record" (a dataset page → PageRecord), "evaluate" (a page → word F1 of the
 * learned pipeline with a given model) and "fit" (training rows → a fitted classifier's JSON,
 * fit-pool.ts), so both cores share dataset-wide work and independent fits. The record
 * payload names the render mode (default static); an evaluation takes it from the model file.
 */
import { parentPort } from "node:worker_threads";
import { firstLine } from "../errors.ts";
import { loadDataset, type Dataset } from "../io/dataset.ts";
import type { RenderMode } from "../types.ts";
import { buildPageRecord } from "./page-record.ts";
import { evaluatePage, type EvaluatePayload } from "./evaluate-page.ts";
import { fitPayload, type FitPayload } from "./fit-pool.ts";

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
    const { dataset: dir, id, mode } = payload as { dataset: string; id: string; mode?: RenderMode };
    const ds = dataset(dir);
    const page = ds.pages.find((p) => p.id === id);
    if (!page) throw new Error(`no page ${id} in ${dir}`);
    return buildPageRecord(ds, page, mode ?? "static");
  }
  if (task === "evaluate") return evaluatePage(payload as EvaluatePayload, dataset);
  if (task === "fit") return fitPayload(payload as FitPayload);
  throw new Error(`unknown task ${task}`);
}

parentPort?.on("message", (msg: { id: number; task: string; payload: unknown }) => {
  run(msg.task, msg.payload).then(
    (value) => parentPort?.postMessage({ id: msg.id, ok: true, value }),
    (e: unknown) => parentPort?.postMessage({ id: msg.id, ok: false, error: firstLine(e) }),
  );
});
