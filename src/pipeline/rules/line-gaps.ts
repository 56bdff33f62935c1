/**
 * Gaps in a line: a rule after the content classifier. Text straight in a container that also
 * holds blocks (`<td>Version 2 is <b>twice as fast</b> on large files, and <a>links</a> work.<p>…`)
 * is segmented piece by piece, one leaf per text run or inline element, and each piece is
 * scored alone. A link or bold phrase in the middle of a kept sentence then scores like a menu
 * link and is dropped, leaving "…and / work." with a word missing mid-sentence. A dropped piece
 * is kept when the pieces on both sides of it on the same line (same parent, no <br> or block in
 * between) are kept and the dropped stretch is short (MAX_GAP_WORDS: a phrase, not a paragraph)
 * and shown: a piece its markup hides (display:none, hidden, aria-hidden: keyword stuffing in a
 * sentence) is never bridged, since the model view reads such text as a candidate only for the
 * classifier to judge. Each such keep is traced.
 *
 * Few pages move, more up than down, and the sum is positive on every set (measured:
 * docs/rules.md).
 */
import type { RuleRows } from "./rule.ts";
import { breaksLine } from "../../dom/text.ts";
import { markupHiding } from "../../dom/hiding.ts";
import type { Tree } from "../../dom/tree.ts";
import type { PageSnapshot, SnapshotNode, TraceEntry } from "../../types.ts";
import { traceTarget } from "../trace.ts";

/** The longest dropped stretch (in words) between two kept pieces of a line that is kept too. */
export const MAX_GAP_WORDS = 12;

/** Whether a visible <br> or block sits among the siblings between nodes `a` and `b` of one parent. */
function lineBreakBetween(page: PageSnapshot, tree: Tree, a: number, b: number): boolean {
  for (let i = tree.end[a] as number; i < b; i = tree.end[i] as number) {
    const n = page.nodes[i] as SnapshotNode;
    if (n.visible && breaksLine(n)) return true;
  }
  return false;
}

/**
 * Whether the markup hides `node` or an element around it (the
 * pipeline's view shows such text to the classifier).
 */
function hiddenByMarkup(page: PageSnapshot, tree: Tree, node: number): boolean {
  for (let a = node; a >= 0; a = tree.parent[a] as number) {
    const n = page.nodes[a] as SnapshotNode;
    if (!n.visible || (n.type === 1 && markupHiding(n.attrs ?? {}) !== 0)) return true;
  }
  return false;
}

interface Run {
  /** Node of the last kept piece of the line so far. */
  kept: number;
  /** Node of the last piece seen (kept or dropped). */
  last: number;
  /** Dropped rows since the last kept piece. */
  gap: number[];
  gapWords: number;
}

/** Keeps short dropped pieces between kept pieces of one line (in place); returns the trace. */
export function keepLineGaps(rows: RuleRows): TraceEntry[] {
  const { page, tree, nodes, own, keep } = rows;
  const trace: TraceEntry[] = [];
  const runs = new Map<number, Run>(); // parent node → its current line
  for (let r = 0; r < nodes.length; r++) {
    const node = nodes[r] as number;
    const words = own.ownWords[r] as number;
    const n = page.nodes[node] as SnapshotNode;
    if (words === 0 || breaksLine(n)) continue;
    const parent = tree.parent[node] as number;
    let run = runs.get(parent);
    if (run && lineBreakBetween(page, tree, run.last, node)) {
      runs.delete(parent); // a new line: the gap does not bridge it
      run = undefined;
    }
    if (keep[r] === 1) {
      if (
        run &&
        run.gap.length &&
        run.gapWords <= MAX_GAP_WORDS &&
        !run.gap.some((g) => hiddenByMarkup(page, tree, nodes[g] as number))
      ) {
        for (const g of run.gap) {
          keep[g] = 1;
          trace.push({
            step: "line-gap",
            ...traceTarget(page, tree, nodes[g] as number),
            action: "keep",
            reason:
              `dropped between kept pieces of one line ` +
              `(${run.gapWords} word${run.gapWords === 1 ? "" : "s"} ≤ ${MAX_GAP_WORDS})`,
          });
        }
      }
      runs.set(parent, { kept: node, last: node, gap: [], gapWords: 0 });
    } else if (run) {
      run.gap.push(r);
      run.gapWords += words;
      run.last = node;
    }
  }
  return trace;
}
