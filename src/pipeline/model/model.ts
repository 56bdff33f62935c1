/**
 * The learned pipeline's model: one versioned artifact (src/ml/artifact.ts) holding the
 * content classifier (P(main) of a leaf segment), the segment classifier (P(good segment) of
 * a structural node, Louvan §2.1), optional per-page-type content classifiers with a
 * page-type router, the decision thresholds, and the context stage (context.ts) that rescores
 * leaves from what stage 1 decided around them. Classifier names inside the artifact:
 * "content", "segment", "content:<page type>", "context"; the router and thresholds live in `extra`.
 */
import { HIDDEN_TEXT_CANDIDATES } from "../hidden-text.ts";
import {
  artifactClassifier,
  checkModel,
  ModelLoadError,
  parseModel,
  readModelText,
  type ModelArtifact,
} from "../../ml/artifact.ts";
import type { Classifier } from "../../ml/classifier.ts";
import { loadClassifier } from "../../ml/kinds.ts";
import { featureSchema } from "../../features/index.ts";
import { join } from "node:path";
import type { RenderMode } from "../../types.ts";
import { columnMap } from "../columns.ts";
import type { ClassLexicon } from "../context/class-lexicon.ts";
import { CONTEXT_FEATURES, type ContextModel } from "../context/context.ts";
import { BUNDLED } from "../../paths.ts";
import { BUNDLED_MODEL_DIR, readModelCache } from "./cache.ts";

/** Decision threshold on P(main) when an artifact names none. */
export const DEFAULT_THRESHOLD = 0.5;
/** Router: below this probability for the best page type, the general model is used. */
export const DEFAULT_ROUTER_CONFIDENCE = 0.6;

export type RefinerName = "none" | "lbs" | "sls" | "tp" | "region" | "records" | "fill";
/** Every refiner name, for validating user input. */
export const REFINER_NAMES: readonly RefinerName[] = [
  "none",
  "lbs",
  "sls",
  "tp",
  "region",
  "records",
  "fill",
];

export interface ContentModel {
  classifier: Classifier;
  threshold: number;
}

export interface RouterJSON {
  /** Page types, one one-vs-rest classifier each (over page-level features). */
  types: string[];
  classifiers: unknown[];
  minConfidence: number;
}

export interface PipelineExtra {
  name: string;
  thresholds: Record<string, number>;
  refiners?: Record<string, RefinerName>;
  router?: RouterJSON;
  /** Page types whose content model exists in the artifact. */
  types?: string[];
  /** Weight of the segment mean in a leaf's score (segments.ts); 0 = off. */
  segmentBlend?: number;
  /**
   * Per-domain models: average P(main) with the bundled default model of the render mode
   * (weight = the domain model's share), so 20 pages of a site refine the default instead of
   * replacing it.
   */
  base?: { model: "default"; weight: number };
  /** "candidates": the model reads markup-hidden text (src/pipeline/hidden-text.ts); absent: it does not. */
  hiddenText?: typeof HIDDEN_TEXT_CANDIDATES;
  /**
   * The context stage's feature names, decision threshold per routed type, class-token and heading
   * lexicons (its classifier is "context").
   */
  context?: {
    features: string[];
    thresholds: Record<string, number>;
    lexicon?: ClassLexicon;
    headingLexicon?: ClassLexicon;
  };
}

export interface Router {
  types: string[];
  classifiers: Classifier[];
  minConfidence: number;
}

export interface PipelineModel {
  /** Short name shown in Extraction.model. */
  name: string;
  /** Where it was loaded from. */
  source: string;
  artifact: ModelArtifact;
  general: ContentModel;
  segment: Classifier | null;
  byType: Map<string, ContentModel>;
  router: Router | null;
  refiners: Record<string, RefinerName>;
  segmentBlend: number;
  /** Reads markup-hidden text as candidates (src/pipeline/hidden-text.ts). */
  hiddenText: boolean;
  /** The context stage (context.ts), when the artifact has one. */
  context?: ContextModel;
  /**
   * Set when the model reads a subset of the current features: its columns in the current table (columns.ts).
   */
  columns?: Int32Array;
  /** A per-domain model's base model and the domain model's weight in the blend. */
  base?: { model: PipelineModel; weight: number };
}

export { BUNDLED_MODEL_DIR };

/** The bundled default model of a render mode (also resolve.ts's last resort). */
export function bundledDefaultPath(mode: RenderMode): string {
  return join(BUNDLED_MODEL_DIR, `default-${mode}.json`);
}

/**
 * The bundled site-aware model of a render mode (`pith extract --site-features on` without
 * --site-model), trained with `pith train --site-features`; absent unless it won held out.
 */
export function bundledSitePath(mode: RenderMode): string {
  return join(BUNDLED_MODEL_DIR, `site-${mode}.json`);
}

function extraOf(artifact: ModelArtifact, source: string): PipelineExtra {
  const e = artifact.extra as Partial<PipelineExtra> | undefined;
  if (!e || typeof e !== "object" || typeof e.name !== "string" || typeof e.thresholds !== "object") {
    throw new ModelLoadError(
      source,
      `model ${source} is not a pipeline model (no extra.name / extra.thresholds); retrain it with \`pith train\``,
    );
  }
  return e as PipelineExtra;
}

async function loadRouter(json: RouterJSON, source: string): Promise<Router> {
  try {
    return {
      types: json.types,
      classifiers: await Promise.all(json.classifiers.map((c) => loadClassifier(c))),
      minConfidence: json.minConfidence,
    };
  } catch (e) {
    throw new ModelLoadError(
      source,
      `model ${source} is corrupt (router: ${(e as Error).message.split("\n")[0]})`,
    );
  }
}

/** Builds the pipeline model from a validated artifact. */
export async function pipelineFromArtifact(artifact: ModelArtifact, source: string): Promise<PipelineModel> {
  const extra = extraOf(artifact, source);
  const threshold = (k: string): number =>
    extra.thresholds[k] ?? extra.thresholds["general"] ?? DEFAULT_THRESHOLD;
  const general = {
    classifier: await artifactClassifier(artifact, "content", source),
    threshold: threshold("general"),
  };
  const segment =
    "segment" in artifact.classifiers ? await artifactClassifier(artifact, "segment", source) : null;
  const byType = new Map<string, ContentModel>();
  for (const t of extra.types ?? [])
    byType.set(t, {
      classifier: await artifactClassifier(artifact, `content:${t}`, source),
      threshold: threshold(t),
    });
  const router = extra.router ? await loadRouter(extra.router, source) : null;
  const model: PipelineModel = {
    name: extra.name,
    source,
    artifact,
    general,
    segment,
    byType,
    router,
    refiners: extra.refiners ?? {},
    segmentBlend: extra.segmentBlend ?? 0,
    hiddenText: extra.hiddenText === HIDDEN_TEXT_CANDIDATES,
  };
  if (extra.context) model.context = await loadContext(artifact, extra.context, source);
  if (extra.base)
    model.base = {
      model: await loadPipelineModel(bundledDefaultPath(artifact.mode), artifact.mode),
      weight: extra.base.weight,
    };
  return model;
}

async function loadContext(
  artifact: ModelArtifact,
  context: NonNullable<PipelineExtra["context"]>,
  source: string,
): Promise<ContextModel> {
  const names = context.features;
  const columns = Array.isArray(names) ? contextColumns(names) : undefined;
  if (columns === undefined) {
    throw new ModelLoadError(
      source,
      `model ${source} has a context stage over other context features than this pith computes; ` +
        `retrain it with \`pith train\``,
    );
  }
  const lexicon = context.lexicon ?? null;
  if (lexicon !== null && !isLexicon(lexicon))
    throw new ModelLoadError(
      source,
      `model ${source} is corrupt (context.lexicon is not a token → weight table)`,
    );
  const headingLexicon = context.headingLexicon ?? null;
  if (headingLexicon !== null && !isLexicon(headingLexicon))
    throw new ModelLoadError(
      source,
      `model ${source} is corrupt (context.headingLexicon is not a token → weight table)`,
    );
  const classifier = await artifactClassifier(artifact, "context", source, (names as string[]).length);
  return {
    classifier,
    thresholds: context.thresholds,
    lexicon,
    headingLexicon,
    ...(columns ? { columns } : {}),
  };
}

/**
 * A model's context features in this pith's CONTEXT_FEATURES: null when they are the same list,
 * their positions when they are a subset (a model trained before a family was added still loads,
 * as stage-1 features do in columns.ts), undefined when one is unknown.
 */
function contextColumns(names: readonly unknown[]): Int32Array | null | undefined {
  if (names.length === CONTEXT_FEATURES.length && names.every((n, i) => n === CONTEXT_FEATURES[i]))
    return null;
  const index = new Map(CONTEXT_FEATURES.map((n, k) => [n, k]));
  const map = names.map((n) => (typeof n === "string" ? index.get(n) : undefined));
  return map.every((k) => k !== undefined) ? Int32Array.from(map as number[]) : undefined;
}

function isLexicon(x: unknown): x is ClassLexicon {
  const l = x as Partial<ClassLexicon> | null;
  return (
    typeof l === "object" &&
    l !== null &&
    typeof l.pages === "number" &&
    typeof l.weights === "object" &&
    l.weights !== null &&
    Object.values(l.weights).every((w) => typeof w === "number")
  );
}

/**
 * Loads a pipeline model file for the current feature schema and render mode (ModelLoadError on any
 * problem): a bundled model from its binary cache when the build made one of the file as it is
 * (cache.ts), else from the JSON.
 */
export async function loadPipelineModel(file: string, mode: RenderMode): Promise<PipelineModel> {
  const current = featureSchema();
  // the bundle reads the caches its own build wrote; the sources (after an edit) read the JSON
  const cached = BUNDLED ? readModelCache(file) : null;
  if (cached !== null) {
    try {
      return await pipelineFromArtifact(checkModel(cached, file, { schemaHash: current.hash, mode }), file);
    } catch (e) {
      // another feature schema: the JSON's path below maps its columns
      if (!(e instanceof ModelLoadError) || !/feature schema/.test(e.message)) throw e;
    }
  }
  const text = await readModelText(file); // the file is read once
  try {
    return await pipelineFromArtifact(parseModel(text, file, { schemaHash: current.hash, mode }), file);
  } catch (e) {
    if (!(e instanceof ModelLoadError) || !/feature schema/.test(e.message)) throw e;
    const recorded = recordedSchema(text);
    const map = recorded ? columnMap(recorded, current.names) : null;
    if (!recorded || !map) throw e;
    const model = await pipelineFromArtifact(
      parseModel(text, file, { schemaHash: recorded.hash, mode }),
      file,
    );
    return { ...model, columns: map };
  }
}

/** The feature schema a model's text records (names and hash), or null when it has none. */
function recordedSchema(text: string): { names: string[]; hash: string } | null {
  try {
    const json = JSON.parse(text) as {
      featureSchema?: { names?: unknown; hash?: unknown };
    };
    const s = json.featureSchema;
    return s && Array.isArray(s.names) && typeof s.hash === "string"
      ? { names: s.names as string[], hash: s.hash }
      : null;
  } catch {
    return null;
  }
}
