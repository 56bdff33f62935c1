/**
 * Navigation landmarks: a rule after the content classifier. A kept leaf is dropped when it lies
 * inside a `<nav>` or an element with the ARIA landmark role navigation, banner or contentinfo
 * (WAI-ARIA 1.2: the page's navigation, header and footer), unless that box holds at least
 * MAX_LANDMARK_SHARE of the page's words (a page-wide wrapper that carries the role by mistake).
 * The classifier reads the same ancestry (features/landmarks.ts, `lm_in_nav`,
 * `lm_in_furniture_role`), but a page type decided at a low threshold keeps such leaves anyway:
 * documentation-routed pages at 0.125 kept Node.js's API sidebar and "Table of contents"
 * (`<details role="navigation">`) at P(main) 0.16-0.17. On the labels, words inside `<nav>` are
 * 0.1 % gold on wcxb-dev and those inside furniture roles 0.0 % (landmarks.ts).
 *
 * On every routed type it cost more than it gained: some annotators keep a collection's category
 * menu that sits in a <nav>, or a profile in a role=navigation box. On documentation-routed pages
 * it only helps, and on local documentation pages (Node's, npm's, rustdoc, valgrind, …) it fires
 * on Node's API pages only, dropping their table of contents and sidebar. So it is level on the
 * labeled sets and ships for documentation pages like Node's (measured: docs/rules.md).
 */
import type { RuleRows } from "./rule.ts";
import type { SnapshotNode, TraceEntry } from "../../types.ts";
import { applyBoxRule, type BoxRule } from "./box-rule.ts";

/**
 * Landmark roles of page furniture that never hold main content (not complementary: <aside> is 4.6 % gold).
 */
const NAVIGATION_ROLES: ReadonlySet<string> = new Set(["navigation", "banner", "contentinfo"]);
/**
 * Routed page types the rule runs on: the ones decided at a low
 * threshold (documentation's context threshold is 0.125).
 */
export const LANDMARK_RULE_TYPES: ReadonlySet<string> = new Set(["documentation"]);
/** A landmark box holding this share of the page's words or more is not furniture. */
export const MAX_LANDMARK_SHARE = 0.5;

export const LANDMARK_RULE: BoxRule = {
  step: "landmark-rule",
  reason: "inside a navigation landmark (<nav>, role navigation, banner or contentinfo)",
  names(node: SnapshotNode): boolean {
    if (node.tag === "nav") return true;
    const role = node.attrs?.["role"];
    return role !== undefined && NAVIGATION_ROLES.has(role.trim().toLowerCase());
  },
  maxWords: (own) => MAX_LANDMARK_SHARE * own.totalWords,
};

/** Drops kept rows inside navigation landmarks; returns the trace of what it dropped. */
export function dropNavigationLandmarks(rows: RuleRows): TraceEntry[] {
  return applyBoxRule(LANDMARK_RULE, rows);
}
