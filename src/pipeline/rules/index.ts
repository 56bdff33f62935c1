/**
 * The rules that run after the classifiers, in order: each a named entry that says when it
 * applies (the routed page type, the run's options) and changes the keep mask, returning a trace
 * entry per leaf it keeps or drops. The run (../run.ts) applies the table as it stands; each
 * rule's file says what it does and the measurement that put it here (docs/rules.md).
 */
import type { TraceEntry } from "../../types.ts";
import type { Rule, RuleContext } from "./rule.ts";
import { COMMENT_FREE_TYPES, dropComments } from "./comments.ts";
import { dropConsentBoxes } from "./consent.ts";
import { dropContained } from "./containment.ts";
import { dropDuplicates, QUOTING_TYPES } from "./dedupe.ts";
import { dropNoticePage, keepBestWhenEmpty } from "./fallback.ts";
import { dropNavigationLandmarks, LANDMARK_RULE_TYPES } from "./landmarks.ts";
import { keepLineGaps } from "./line-gaps.ts";
import { dropReviews, REVIEW_FREE_TYPES } from "./reviews.ts";
import { keepTablesWhole } from "./tables.ts";
import { dropTeasers, TEASER_FREE_TYPES } from "./teasers.ts";

/** The rules in the order they run: a later rule sees what the earlier ones kept. */
export const RULES: readonly Rule[] = [
  {
    name: "fallback",
    appliesTo: (c) => c.options.fallback !== false,
    apply: keepBestWhenEmpty,
  },
  {
    name: "notice-page",
    appliesTo: () => true,
    apply: dropNoticePage,
  },
  {
    name: "consent",
    appliesTo: () => true,
    apply: dropConsentBoxes,
  },
  {
    name: "landmarks",
    appliesTo: (c) => LANDMARK_RULE_TYPES.has(c.pageType),
    apply: dropNavigationLandmarks,
  },
  {
    name: "comments",
    appliesTo: (c) => c.options.comments === "drop" && COMMENT_FREE_TYPES.has(c.pageType),
    apply: dropComments,
  },
  {
    name: "teasers",
    appliesTo: (c) => c.options.teasers !== false && TEASER_FREE_TYPES.has(c.pageType),
    apply: dropTeasers,
  },
  {
    name: "reviews",
    appliesTo: (c) => c.options.reviews !== "keep" && REVIEW_FREE_TYPES.has(c.pageType),
    apply: dropReviews,
  },
  {
    name: "duplicates",
    appliesTo: (c) => c.options.dedupe !== false && !QUOTING_TYPES.has(c.pageType),
    apply: dropDuplicates,
  },
  {
    name: "containment",
    appliesTo: (c) => c.options.containment !== false && !QUOTING_TYPES.has(c.pageType),
    apply: dropContained,
  },
  {
    name: "tables",
    appliesTo: (c) => c.options.wholeTables !== false,
    apply: keepTablesWhole,
  },
  {
    name: "line-gaps",
    appliesTo: () => true,
    apply: keepLineGaps,
  },
];

/** Applies every rule that applies, in table order; their trace entries in the same order. */
export function applyRules(ctx: RuleContext, rules: readonly Rule[] = RULES): TraceEntry[] {
  const trace: TraceEntry[] = [];
  for (const rule of rules) if (rule.appliesTo(ctx)) appendAll(trace, rule.apply(ctx));
  return trace;
}

/** Appends one by one: a spread of 100,000+ entries (a 30 MB page's duplicate rule) overflows the call stack. */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

export type { Rule, RuleContext } from "./rule.ts";
