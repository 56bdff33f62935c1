/**
 * Worker task "evaluate": run the learned pipeline with a given model file on one dataset
 * page and score it against the gold (WCXB word F1), for one or more variants of the model
 * (refiners per page type, routing on or off), so cross-validation compares them on the
 * very same held-out pages. The page is rendered in the fold model's own render mode (read
 * from the model file, since cv.ts's payload does not carry it): statically, or from the
 * chromium snapshot cache that the records were built from.
 */
import type { Dataset } from "../io/dataset.ts";
import { readGold } from "../io/dataset.ts";
import type { PipelineModel, RefinerName } from "../pipeline/model/model.ts";
import { readFile } from "node:fs/promises";
import { parseModel } from "../ml/artifact.ts";
import { pipelineFromArtifact } from "../pipeline/model/model.ts";
import { GENERAL, modelView, runOnTable, runPipeline, type Table } from "../pipeline/run.ts";
import type { Bias } from "../pipeline/options.ts";
import { buildTree, type Tree } from "../dom/tree.ts";
import { structuralNodes } from "../features/structural.ts";
import type { PageSnapshot, RenderMode } from "../types.ts";
import { datasetSnapshot } from "./page-record.ts";
import { pageTypeOf } from "./page-types.ts";
import { wordF1, type PageScore } from "./score.ts";

export interface Variant {
  name: string;
  /** Refiner per routed page type (replaces the model's). */
  refiners?: Record<string, RefinerName>;
  /**
   * false: always use the general content model. "true-type": the page's labeled type when the
   * model has a content model for it, else the router's choice (a diagnostic: the ceiling of
   * better routing, never shipped).
   */
  route?: boolean | "true-type";
  /** Segment smoothing weight (replaces the model's). */
  segmentBlend?: number;
  /** Router confidence below which a page goes to the general model (replaces the model's). */
  routerConfidence?: number;
  /** false: skip the model's context stage. */
  context?: boolean;
  /** Favour precision or recall (run.ts BIAS_OFFSET; a diagnostic, never shipped). */
  bias?: Bias;
  /** false: no rules after the classifiers (RunOptions.rules). */
  rules?: boolean;
}

export interface EvaluatePayload {
  dataset: string;
  id: string;
  model: string;
  variants: Variant[];
  /** The page's cached feature table: used when its nodes match the fresh snapshot's. */
  nodes?: Int32Array;
  values?: Float32Array;
}

export interface PageEvaluation {
  id: string;
  routed: string;
  scores: Record<string, PageScore>;
}

function variantModel(model: PipelineModel, v: Variant): PipelineModel {
  const router =
    v.route === false || !model.router
      ? null
      : v.routerConfidence === undefined
        ? model.router
        : { ...model.router, minConfidence: v.routerConfidence };
  return {
    ...model,
    refiners: v.refiners ?? model.refiners,
    router,
    segmentBlend: v.segmentBlend ?? model.segmentBlend,
  };
}

const models = new Map<string, Promise<PipelineModel>>();

/** A fold model loaded against its own recorded schema: it is applied to cached tables of that schema. */
function ownSchemaModel(file: string): Promise<PipelineModel> {
  let m = models.get(file);
  if (!m) {
    m = readFile(file, "utf8").then(async (text) => {
      const own = JSON.parse(text) as { featureSchema: { hash: string }; mode: RenderMode };
      return pipelineFromArtifact(
        parseModel(text, file, { schemaHash: own.featureSchema.hash, mode: own.mode }),
        file,
      );
    });
    models.set(file, m);
  }
  return m;
}

/** The cached table when it describes this snapshot's structural nodes (same renderer, same rule). */
function cachedTable(payload: EvaluatePayload, snap: PageSnapshot, tree: Tree, nCols: number): Table | null {
  const { nodes, values } = payload;
  if (!nodes || !values || values.length !== nodes.length * nCols) return null;
  const fresh = structuralNodes(snap, tree);
  if (fresh.length !== nodes.length || fresh.some((v, i) => v !== nodes[i])) return null;
  return { nodes, values, nCols };
}

export async function evaluatePage(
  payload: EvaluatePayload,
  dataset: (dir: string) => Dataset,
): Promise<PageEvaluation> {
  const ds = dataset(payload.dataset);
  const page = ds.pages.find((p) => p.id === payload.id);
  if (!page) throw new Error(`no page ${payload.id}`);
  const gold = (await readGold(ds, page)) ?? "";
  const model = await ownSchemaModel(payload.model);
  const snap = modelView(model, await datasetSnapshot(ds, page, model.artifact.mode));
  const scores: Record<string, PageScore> = {};
  let routed: string | null = null;
  const tree = buildTree(snap);
  const table = cachedTable(payload, snap, tree, model.artifact.featureSchema.names.length);
  const trueType = pageTypeOf(page);
  for (const v of payload.variants) {
    const vm = variantModel(model, v);
    const options = {
      trace: false,
      ...(v.context === false ? { context: false } : {}),
      ...(v.rules === false ? { rules: false } : {}),
      ...(v.bias ? { bias: v.bias } : {}),
      ...(v.route === "true-type" && trueType && model.byType.has(trueType) ? { pageType: trueType } : {}),
    };
    const run = table ? runOnTable(vm, snap, tree, table, options) : runPipeline(vm, snap, options);
    // the routing the model ships (a variant with another router confidence must not relabel the page)
    if (routed === null && (v.route === undefined || v.route === true) && v.routerConfidence === undefined)
      routed = run.pageType;
    scores[v.name] = wordF1(run.extraction.text, gold);
  }
  return { id: payload.id, routed: routed ?? GENERAL, scores };
}
