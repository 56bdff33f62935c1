/**
 * Packs fitted classifiers, thresholds, refiners and the cross-validation report into one
 * pipeline artifact (src/ml/artifact.ts), and records the training sets with their licenses.
 */
import { createArtifact, type ModelArtifact, type TrainingSet } from "../ml/artifact.ts";
import { featureSchema } from "../features/index.ts";
import { DEFAULT_ROUTER_CONFIDENCE, type PipelineExtra, type RefinerName } from "../pipeline/model/model.ts";
import type { RenderMode } from "../types.ts";
import { CONTEXT_FEATURES, type ContextModel } from "../pipeline/context/context.ts";
import type { FittedPipeline } from "./fit.ts";
import { HIDDEN_TEXT_CANDIDATES, readsHiddenText } from "../pipeline/hidden-text.ts";

export interface ArtifactInput {
  /** Artifact kind: "pipeline" or "domain:<domain>". */
  kind: string;
  name: string;
  mode: RenderMode;
  fitted: FittedPipeline;
  thresholds: Record<string, number>;
  refiners: Record<string, RefinerName>;
  trainingSets: TrainingSet[];
  hyperParameters: Record<string, unknown>;
  metrics: Record<string, unknown>;
  routerConfidence?: number;
  segmentBlend?: number;
  /** Per-domain models: blend with the bundled default at this weight of the domain model. */
  baseWeight?: number;
  /** The context stage (src/pipeline/context/context.ts), when trained. */
  context?: ContextModel;
}

export function pipelineArtifact(a: ArtifactInput): ModelArtifact {
  const schema = featureSchema();
  const classifiers: Record<string, unknown> = { content: a.fitted.content.toJSON() };
  if (a.fitted.segment) classifiers["segment"] = a.fitted.segment.toJSON();
  for (const [t, c] of a.fitted.byType) classifiers[`content:${t}`] = c.toJSON();
  const extra: PipelineExtra = {
    name: a.name,
    thresholds: a.thresholds,
    refiners: a.refiners,
    types: [...a.fitted.byType.keys()],
    segmentBlend: a.segmentBlend ?? 0,
  };
  if (a.context) {
    classifiers["context"] = a.context.classifier.toJSON();
    extra.context = {
      features: [...CONTEXT_FEATURES],
      thresholds: a.context.thresholds,
      ...(a.context.lexicon ? { lexicon: a.context.lexicon } : {}),
      ...(a.context.headingLexicon ? { headingLexicon: a.context.headingLexicon } : {}),
    };
  }
  if (readsHiddenText(a.mode)) extra.hiddenText = HIDDEN_TEXT_CANDIDATES;
  if (a.baseWeight !== undefined) extra.base = { model: "default", weight: a.baseWeight };
  if (a.fitted.router) {
    extra.router = {
      types: a.fitted.router.types,
      classifiers: a.fitted.router.classifiers.map((c) => c.toJSON()),
      minConfidence: a.routerConfidence ?? DEFAULT_ROUTER_CONFIDENCE,
    };
  }
  return createArtifact({
    kind: a.kind,
    featureSchema: { names: schema.names, hash: schema.hash },
    mode: a.mode,
    trainingSets: a.trainingSets,
    hyperParameters: a.hyperParameters,
    metrics: a.metrics,
    classifiers,
    extra,
  });
}
