/**
 * Cookie and consent banners: a rule after the content classifier. Such banners sit in the body,
 * read like prose ("We use cookies to improve your experience…") and are hidden only by scripts
 * or CSS that static mode does not run, so the classifier sometimes keeps them. A kept leaf is
 * dropped when it lies inside a small element whose id, class or aria-label names a cookie /
 * consent / GDPR box or a consent-management product.
 * "Small" keeps the rule from firing on a page-wide wrapper that happens to carry such a class.
 * It gains a little on wcxb-dev and leaves the other sets unchanged (measured: docs/rules.md). A
 * wider rule (role=dialog, aria-modal, AEM's `cmp-` component prefix) cost wcxb-dev and was dropped.
 */
import type { RuleRows } from "./rule.ts";
import type { SnapshotNode, TraceEntry } from "../../types.ts";
import { applyBoxRule, type BoxRule } from "./box-rule.ts";

/** id/class/aria-label tokens of consent boxes. */
export const CONSENT_PATTERN = /cookie|consent|gdpr|onetrust|cookiebot|didomi|usercentrics/i;
const CONSENT_ATTRIBUTES = ["id", "class", "aria-label"] as const;
/** A consent box holds at most this many words (real banners: 10-150). */
export const MAX_CONSENT_WORDS = 200;

export const CONSENT_RULE: BoxRule = {
  step: "consent-rule",
  reason: "inside a small cookie/consent box or modal dialog",
  names(node: SnapshotNode): boolean {
    const a = node.attrs;
    if (!a) return false;
    // each attribute on its own (the pattern has no spaces): no string built per element
    for (const name of CONSENT_ATTRIBUTES) {
      const v = a[name];
      if (v !== undefined && CONSENT_PATTERN.test(v)) return true;
    }
    return false;
  },
  maxWords: () => MAX_CONSENT_WORDS,
};

/** Drops kept rows inside consent boxes; returns the trace of what it dropped. */
export function dropConsentBoxes(rows: RuleRows): TraceEntry[] {
  return applyBoxRule(CONSENT_RULE, rows);
}
