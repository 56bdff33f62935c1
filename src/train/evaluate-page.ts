/**
 * Worker task "evaluate": run the learned pipeline with a given model file on one dataset
 * page and score it against the gold (WCXB word F1), for one or more variants of the model
 * (refiners per page type, routing on or off), so cross-validation compares them on the
 * very same held-out pages.
 */
import type { Dataset } from "../io/dataset.ts";
import { readDatasetPage, readGold } from "../io/dataset.ts";
import type { PipelineModel, RefinerName } from "../pipeline/model.ts";
import { cachedModel } from "../pipeline/resolve.ts";
import { GENERAL, runPipeline } from "../pipeline/run.ts";
import { staticSnapshot } from "../render/static.ts";
import { wordF1, type PageScore } from "./score.ts";

export interface Variant {
  name: string;
  /** Refiner per routed page type (replaces the model's). */
  refiners?: Record<string, RefinerName>;
  /** false: always use the general content model. */
  route?: boolean;
  /** Segment smoothing weight (replaces the model's). */
  segmentBlend?: number;
}

export interface EvaluatePayload {
  dataset: string;
  id: string;
  model: string;
  variants: Variant[];
}

export interface PageEvaluation {
  id: string;
  routed: string;
  scores: Record<string, PageScore>;
}

function variantModel(model: PipelineModel, v: Variant): PipelineModel {
  return { ...model, refiners: v.refiners ?? model.refiners, router: v.route === false ? null : model.router, segmentBlend: v.segmentBlend ?? model.segmentBlend };
}

export async function evaluatePage(payload: EvaluatePayload, dataset: (dir: string) => Dataset): Promise<PageEvaluation> {
  const ds = dataset(payload.dataset);
  const page = ds.pages.find((p) => p.id === payload.id);
  if (!page) throw new Error(`no page ${payload.id}`);
  const gold = (await readGold(ds, page)) ?? "";
  const snap = staticSnapshot(await readDatasetPage(ds, page));
  const model = await cachedModel(payload.model, "static");
  const scores: Record<string, PageScore> = {};
  let routed = GENERAL;
  for (const v of payload.variants) {
    const run = runPipeline(variantModel(model, v), snap, { trace: false });
    if (v.route !== false) routed = run.pageType;
    scores[v.name] = wordF1(run.extraction.text, gold);
  }
  return { id: payload.id, routed, scores };
}
