/**
 * Comment threads under articles: an explicit rule after the content classifier, because the
 * labeled sets disagree about them (MODELING-NOTES.md: dragnet, l3s-gn1 and utomo-big9 gold
 * leaves reader comments out; forum threads are all comments) and a pooled classifier is
 * timid on both. On pages routed to the article model, a kept leaf is dropped when it lies in a
 * comment section: an element whose id or class names comments (WordPress #comments,
 * .comment-list, #respond, Disqus #disqus_thread, …) or that is role=comment / a schema.org
 * Comment, and that holds less than MAX_COMMENT_SHARE of the page's words (so a page-wide
 * wrapper such as `<div class="post-and-comments">` never fires). Forums and every other page
 * type keep their comments.
 *
 * Off by default (`--param comments=drop` turns it on), because measured with the bundled model it
 * cost more than it gained (dragnet's gold keeps the comments on many pages although its README
 * says they are separate, and cleaneval's blogs keep them; measured: docs/rules.md). The classifier
 * already learns the sets' mixed comment conventions; the rule is for users who want article
 * bodies only.
 */
import type { RuleRows } from "./rule.ts";
import type { SnapshotNode, TraceEntry } from "../../types.ts";
import { applyBoxRule, type BoxRule } from "./box-rule.ts";

/** The id/class tokens of COMMENT_PATTERN, as its alternatives (regex source). */
const COMMENT_TOKENS = [
  "comments?",
  "commentlist",
  "comment-list",
  "comments-area",
  "disqus_thread",
  "disqus",
  "respond",
  "replies",
  "discussion",
];
/** id/class tokens that name a comment section or a comment. */
export const COMMENT_PATTERN = new RegExp(
  String.raw`(?:^|[\s_-])(?:${COMMENT_TOKENS.join("|")})(?:$|[\s_-])`,
  "i",
);
/** A comment section holds less than this share of the page's words. */
export const MAX_COMMENT_SHARE = 0.5;
/** Page types whose pages lose their comment sections. */
export const COMMENT_FREE_TYPES: ReadonlySet<string> = new Set(["article"]);

export const COMMENT_RULE: BoxRule = {
  step: "comment-rule",
  reason: "inside a comment section of an article page",
  names(node: SnapshotNode): boolean {
    const a = node.attrs;
    if (!a) return false;
    if (a["role"] === "comment" || /schema\.org\/(?:User)?Comment/i.test(a["itemtype"] ?? "")) return true;
    return COMMENT_PATTERN.test(`${a["id"] ?? ""} ${a["class"] ?? ""}`);
  },
  maxWords: (own) => MAX_COMMENT_SHARE * own.totalWords,
};

/** Drops kept rows inside comment sections; returns the trace of what it dropped. */
export function dropComments(rows: RuleRows): TraceEntry[] {
  return applyBoxRule(COMMENT_RULE, rows);
}
