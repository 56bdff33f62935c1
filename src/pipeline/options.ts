/** What a caller may change in one run of the learned pipeline (run.ts), and what each default is. */
import type { SiteContext } from "../types.ts";
import type { RefinerName } from "./model/model.ts";

export interface RunOptions {
  /** Record a per-segment trace (default true). */
  trace?: boolean;
  /** Force a page type instead of routing ("general" = the general model). */
  pageType?: string;
  /** Language hint for the features. */
  lang?: string;
  /** Drop kept blocks that repeat an earlier kept block (dedupe.ts; default true). */
  dedupe?: boolean;
  /** Drop kept blocks whose words are mostly in the rest of the kept text (containment.ts; default true). */
  containment?: boolean;
  /** Drop the related-link lists beside or after an article (teasers.ts; default true). */
  teasers?: boolean;
  /** Keep or drop each data table whole (tables.ts; default true). */
  wholeTables?: boolean;
  /** Keep the best leaves of a small page when none reaches the threshold (fallback.ts; default true). */
  fallback?: boolean;
  /**
   * Fill the main region of a page the router finds documentation-like, when neither these options
   * nor the model name a refiner for it (documentation.ts; default true).
   */
  docFill?: boolean;
  /** The router's P(documentation) from which docFill applies (default DOC_FILL_PROBABILITY). */
  docFillAt?: number;
  /** Use this refiner on every page type instead of the model's per-type choice. */
  refiner?: RefinerName;
  /** The refiner of a routed page type, instead of the model's per-type choice (`refiner` wins over it). */
  refinerFor?: (pageType: string) => RefinerName;
  /** Apply the rules after the classifiers (rules/index.ts; default true). false: classifiers and refiner alone. */
  rules?: boolean;
  /** Comment sections on article pages: kept by default, "drop" applies comments.ts. */
  comments?: "keep" | "drop";
  /** Customer-review sections on product pages: dropped by default (reviews.ts), "keep" keeps them. */
  reviews?: "keep" | "drop";
  /**
   * Louvan's segment smoothing (segments.ts): "on" applies the model's blend, or SEGMENT_BLEND
   * when it shipped without one; "off" none. Default: as the model shipped.
   */
  segments?: "on" | "off";
  /** The segment smoothing weight itself (0-1), over `segments` and the model's (segments.ts). */
  segmentBlend?: number;
  /** Apply the model's context stage when it has one (context.ts; default true). */
  context?: boolean;
  /** Favour precision or recall: the decision threshold moves by ±BIAS_OFFSET (default: as tuned). */
  bias?: Bias;
  /**
   * Read markup-hidden text as candidates (hidden-text.ts; default: when the model was trained
   * so). false reads only what the markup shows: hidden keyword stuffing can never come out.
   */
  hiddenText?: boolean;
  /**
   * Other pages of the page's site: the site feature family (src/features/site.ts) is computed
   * against them, each read in the model's view as the page is. Default: none (NaN columns).
   */
  site?: SiteContext;
}

/** What `bias` trades: fewer noise words kept, or fewer main words missed. */
export type Bias = "precision" | "recall";
export const BIASES: readonly Bias[] = ["precision", "recall"];
