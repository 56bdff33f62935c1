/**
 * Training recipes (`pith train --recipe NAME`): a named set of training choices that makes the
 * model of one method.
 *
 * `louvan`: the model of `--method louvan` (src/pipeline/louvan.ts), Louvan's content seeker as
 * published (S. Louvan, "Extracting the Main Content from HTML Documents"): random forests for
 * the segment classifier (§2.1) and the content classifiers (§2.2; Table 2-3: the forest scored
 * best, and one model per data-set type, §4.1), LBS on articles and TP on forums (§2.3), and
 * none of pith's additions: no context stage, no borrowed pages, no rules. The page types the
 * paper trains a model for (news, blogs: pith's article; forum) get their own content model;
 * the others use the general one. Trained on site-grouped folds as every pith model, the
 * paper's own split (§3.2: training sources never occur in the evaluation set).
 */
import type { ClassifierKind } from "../ml/classifier.ts";
import { GENERAL } from "../pipeline/run.ts";
import { FORUM, LOUVAN_SEGMENT_BLEND, louvanRefiner } from "../pipeline/louvan.ts";
import type { RefinerName } from "../pipeline/model/model.ts";
import type { FixedChoices } from "./cv.ts";
import type { Variant } from "./evaluate-page.ts";
import { PAGE_TYPES } from "./page-types.ts";

/** The sets the bundled default model learns from (scripts/train-default.ts; models/MODEL_CARD.md says why). */
export const DEFAULT_SETS = [
  "wcxb-dev",
  "cleaneval",
  "harvest-forums",
  "dragnet",
  "l3s-gn1",
  "utomo-big9",
  "readability",
];
/**
 * Sets that train the default's general content model (the one pages go to when the router is unsure):
 * the ones whose gold keeps every kind of main content. Measured: 0.885 vs 0.868 word F1 over all
 * held-out pages against a general model pooled over every set (models/MODEL_CARD.md).
 */
export const DEFAULT_GENERAL_SETS = ["wcxb-dev", "cleaneval", "harvest-forums"];

export const RECIPES = ["louvan"] as const;
export type RecipeName = (typeof RECIPES)[number];

/**
 * pith's histogram random forest (src/ml/hist-forest.ts), kept small: fewer, shallower trees than
 * its defaults (100 trees of depth 16), so that the model file stays small and a page fast. On
 * wcxb-dev's held-out sites depth 12 doubled the file for the same word F1 (docs/algorithms.md).
 * The paper used WEKA's forest with default settings.
 */
export const LOUVAN_FOREST = { nEstimators: 30, maxDepth: 8, minSamplesLeaf: 40 };
/** The page types of the paper's data sets (§3.1: news and blogs are pith's article; forums). */
export const LOUVAN_TYPES = ["article", FORUM];

function refinersOf(other: "lbs" | "sls" | "none"): Record<string, RefinerName> {
  return Object.fromEntries([GENERAL, ...PAGE_TYPES].map((t) => [t, louvanRefiner(t, other)]));
}

/** The variant `--method louvan` runs, which the model ships and the shipped column scores. */
const LOUVAN_VARIANT: Variant = {
  name: "louvan",
  refiners: refinersOf("lbs"),
  segmentBlend: LOUVAN_SEGMENT_BLEND,
  rules: false,
};

/** The shipped variant and the diagnostics beside it, each changing one of its choices. */
export const LOUVAN_VARIANTS: Variant[] = [
  LOUVAN_VARIANT,
  { ...LOUVAN_VARIANT, name: "classifiers-only", refiners: refinersOf("none") },
  { ...LOUVAN_VARIANT, name: "sls", refiners: refinersOf("sls") },
  { ...LOUVAN_VARIANT, name: "no-segments", segmentBlend: 0 },
  { ...LOUVAN_VARIANT, name: "with-rules", rules: true },
];

/** What a recipe sets of the training options. */
export interface Recipe {
  kind: ClassifierKind;
  params: Record<string, unknown>;
  types: string[];
  borrow: boolean;
  segment: boolean;
  context: boolean;
  variants: Variant[];
  fixed: FixedChoices;
}

export const LOUVAN_RECIPE: Recipe = {
  kind: "rf",
  params: LOUVAN_FOREST,
  types: LOUVAN_TYPES,
  borrow: false,
  segment: true,
  context: false,
  variants: LOUVAN_VARIANTS,
  fixed: { variant: LOUVAN_VARIANT.name, refiners: refinersOf("lbs"), segmentBlend: LOUVAN_SEGMENT_BLEND },
};

export function recipe(name: RecipeName): Recipe {
  return { louvan: LOUVAN_RECIPE }[name];
}
