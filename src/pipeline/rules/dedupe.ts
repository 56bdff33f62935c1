/**
 * Repeated blocks: responsive pages ship the same block twice (a desktop and a mobile copy, one
 * hidden by CSS that static mode does not apply), carousels clone their slides, and product
 * pages repeat feature lists. Gold text holds each block once, and the word metrics count
 * every copy, so a kept leaf segment whose whole text repeats an earlier kept leaf's is dropped.
 * Only leaves of at least MIN_DUPLICATE_WORDS words count: "Reply", "Share" or a price
 * legitimately repeat. A repeat under the same parent as the first copy stays (consecutive
 * identical paragraphs are the author's), and so does an isolated repeat (neither neighbouring
 * eligible leaf repeats) whose container also holds a leaf that repeats nothing: copied blocks
 * come as runs of repeated leaves or as whole copied containers, while an author who says a
 * paragraph again does so among new text (a readability test page repeats a lorem paragraph
 * under a second heading beside a new one). It also keeps quoted text (inside <blockquote>: forum
 * replies quote earlier posts, and forum gold keeps the quotes); pages routed to the forum model
 * skip the rule (QUOTING_TYPES), since forum software also quotes in plain divs (a post's
 * div#message1 inside another's div#message3).
 *
 * The rule gains most on wcxb-dev; readability's synthetic lorem-ipsum test pages, which repeat
 * paragraphs across containers, are what the isolated-repeat exemption is for (measured:
 * docs/rules.md).
 */
import { keptInherited, type RuleRows } from "./rule.ts";
import { nodePath } from "../../dom/path.ts";
import { textOf } from "../../dom/text.ts";
import type { Tree } from "../../dom/tree.ts";
import type { PageSnapshot, TraceEntry } from "../../types.ts";
import type { Ownership } from "../own-text.ts";
import { TRACE_TEXT_CHARS } from "../trace.ts";

/** Page types (routed) that keep repeated blocks: quoting is part of their content. */
export const QUOTING_TYPES: ReadonlySet<string> = new Set(["forum"]);
/** A repeated leaf is dropped when it has at least this many words. */
export const MIN_DUPLICATE_WORDS = 4;

/**
 * The text a leaf row is compared by when looking for copies (lower-cased, lines space-collapsed
 * by textOf), or null when the row is not a leaf segment of at least MIN_DUPLICATE_WORDS words.
 * Shared with training, where a noise copy of a main-labeled leaf is not trained on
 * (src/train/page-record.ts ambiguousCopies).
 */
export function copyText(
  page: PageSnapshot,
  tree: Tree,
  node: number,
  own: Pick<Ownership, "ownWords" | "subtreeWords">,
  r: number,
): string | null {
  const w = own.ownWords[r] as number;
  if (w < MIN_DUPLICATE_WORDS || w !== (own.subtreeWords[r] as number)) return null;
  return textOf(page, tree, [node]).toLowerCase();
}

/** Drops kept leaves that repeat an earlier kept leaf's text (in place); returns the trace. */
export function dropDuplicates(rows: RuleRows): TraceEntry[] {
  const { page, tree, nodes, own, keep } = rows;
  const firstParent = new Map<string, number>(); // text → DOM parent of its first kept copy
  const fresh = new Set<number>(); // DOM parents holding a kept leaf that repeats nothing
  // eligible leaves, document order
  const leaves: { row: number; parent: number; text: string; repeat: boolean }[] = [];
  const quoted = keptInherited(rows, (node) => node.tag === "blockquote");
  for (let r = 0; r < nodes.length; r++) {
    const node = nodes[r] as number;
    if (keep[r] !== 1 || quoted[node] === 1) continue;
    const text = copyText(page, tree, node, own, r);
    if (text === null) continue;
    const parent = tree.parent[node] as number;
    const first = firstParent.get(text);
    if (first === undefined) {
      firstParent.set(text, parent);
      fresh.add(parent);
    }
    leaves.push({ row: r, parent, text, repeat: first !== undefined && first !== parent });
  }
  const trace: TraceEntry[] = [];
  leaves.forEach(({ row, parent, text, repeat }, k) => {
    if (!repeat) return;
    const isolated = !leaves[k - 1]?.repeat && !leaves[k + 1]?.repeat;
    if (isolated && fresh.has(parent)) return; // one line said again among new text, not a copied block
    keep[row] = 0;
    const node = nodes[row] as number;
    trace.push({
      step: "duplicate-rule",
      node,
      path: nodePath(page, tree, node),
      action: "drop",
      reason: "repeats an earlier kept block word for word",
      text: text.slice(0, TRACE_TEXT_CHARS),
    });
  });
  return trace;
}
