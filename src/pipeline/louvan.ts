/**
 * `--method louvan`: Louvan's content seeker as the paper publishes it (S. Louvan, "Extracting
 * the Main Content from HTML Documents", TU Eindhoven; Figure 1), composed of the learned
 * pipeline's pieces and run with a model of its own (`pith train --recipe louvan`,
 * models/louvan-<mode>.json):
 *
 *   §2.1 segment classifier: a random forest marks the structural nodes that are good segments
 *        (segments.ts; each leaf belongs to its outermost predicted segment);
 *   §2.2 content classifier over the chosen segments: a random forest (one per page type, §4.1)
 *        scores the leaf segments, and each chosen segment is kept or dropped whole on the
 *        word-weighted mean of its leaves' scores (blend LOUVAN_SEGMENT_BLEND = 1);
 *   §2.3 heuristics on what was kept: LBS on article (news and blog) pages, TP on forum pages
 *        (louvanRefiner); `--param refiner=sls` puts SLS (§2.3.2) where LBS would run.
 *
 * None of pith's additions run: no rules (fallback, consent, duplicates, …), no context stage
 * (the recipe trains none). The page type, which the paper knew for each data set, comes from
 * the model's router; a page routed to a type the paper has no heuristic for (product, listing,
 * …) is refined like an article, the paper's default.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ExtractorContext, RenderMode } from "../types.ts";
import { pipelineExtractor } from "./extractor.ts";
import { BUNDLED_MODEL_DIR, type RefinerName } from "./model/model.ts";
import type { RunOptions } from "./options.ts";

export const LOUVAN_METHOD = "louvan";
/** The page type whose pages go through Table Pattern (§2.3.3: "mainly to extract the content from web forums"). */
export const FORUM = "forum";
/**
 * Weight of the segment's mean score in a leaf's (segments.ts): 1, the segment is decided whole, as the
 * paper's content classifier decides segments (§2.2); pith's content classifier scores leaf segments.
 */
export const LOUVAN_SEGMENT_BLEND = 1;
/** What may stand where LBS runs (`--param refiner=`): LBS (§2.3.1, the paper's CS+LBS), SLS (§2.3.2), or none. */
export const LOUVAN_REFINERS = ["lbs", "sls", "none"] as const;
export type LouvanRefiner = (typeof LOUVAN_REFINERS)[number];

/** The heuristic of §2.3 a page type gets: TP on forums, `other` (LBS by default) on the rest. */
export function louvanRefiner(pageType: string, other: LouvanRefiner = "lbs"): RefinerName {
  return pageType === FORUM ? "tp" : other;
}

/** The bundled louvan model of a render mode (`pith train --recipe louvan` writes it). */
export function louvanModelPath(mode: RenderMode): string {
  return join(BUNDLED_MODEL_DIR, `louvan-${mode}.json`);
}

function louvanOptions(context: ExtractorContext): RunOptions {
  const v = context.params?.["refiner"];
  if (v !== undefined && !(LOUVAN_REFINERS as readonly unknown[]).includes(v))
    throw new Error(
      `--param refiner must be ${LOUVAN_REFINERS.join(", ")} (forums keep TP), not "${String(v)}"`,
    );
  const other = (v ?? "lbs") as LouvanRefiner;
  return {
    segments: "on",
    segmentBlend: LOUVAN_SEGMENT_BLEND,
    refinerFor: (pageType) => louvanRefiner(pageType, other),
    rules: false,
    context: false,
    ...(context.trace === false ? { trace: false } : {}),
  };
}

export const louvanExtractor = pipelineExtractor({
  name: LOUVAN_METHOD,
  knownParams: ["refiner"],
  description:
    "Louvan's content seeker as published: random-forest segment classifier → random-forest content " +
    "classifier over the chosen segments → LBS on articles, TP on forums (Louvan 2009, §2)",
  options: louvanOptions,
  resolve: (_url, mode, context) =>
    context.model
      ? { file: context.model, why: "explicit" }
      : { file: louvanModelPath(mode), why: "default" },
  missing: (file, mode, context) =>
    context.model || existsSync(file)
      ? null
      : `no louvan model for --mode ${mode} (${file}): train one with ` +
        `\`pith train --recipe louvan --data SETS --out ${file}\`, or pass --model FILE`,
});
