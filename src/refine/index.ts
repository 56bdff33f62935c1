/**
 * Louvan's heuristic refiners (§2.3) applied after the content classifier, per page type:
 * LBS (largest block of string) for articles and blogs, TP (table pattern) for forums. The
 * refiners (src/refine/) work on the text blocks of the classifier's kept subtrees; here their
 * chosen nodes are mapped back onto the leaf segments: a kept leaf stays kept only if it lies
 * inside a node the refiner chose. Which refiner a page type uses is a model setting, chosen
 * by cross-validation (`pith train` reports the end-to-end F1 with and without). pith adds a
 * third, "region" (src/refine/region.ts): keep the largest positive subtree of the scores, and
 * a fourth, "records" (src/refine/records.ts): fields of same-template sibling records vote,
 * and a fifth, "fill" (src/refine/fill.ts): the records vote, then the region holding the kept
 * words is kept whole but for the leaves the classifier is sure are noise.
 */
import { nodePath } from "../dom/path.ts";
import type { Tree } from "../dom/tree.ts";
import { textBlocks } from "./blocks.ts";
import { largestBlock } from "./largest-block.ts";
import { lengthSmoothing } from "./length-smoothing.ts";
import { tablePattern } from "./table-pattern.ts";
import type { PageSnapshot, TraceEntry } from "../types.ts";
import type { RefinerName } from "../pipeline/model/model.ts";
import type { Ownership } from "../pipeline/own-text.ts";
import { fillMainRegion } from "./fill.ts";
import { voteRecords } from "./records.ts";
import { keepMainRegion } from "./region.ts";
import { coalesce } from "../pipeline/select.ts";
import { traceTarget } from "../pipeline/trace.ts";

export interface Refined {
  keep: Uint8Array;
  trace: TraceEntry[];
}

/** The classifier's scores and threshold, for refiners that weigh them ("region"). */
export interface Scored {
  scores: Float32Array;
  threshold: number;
}

/** The rows a refiner reads: a page's feature-table rows, their word ownership and the keep mask so far. */
export interface RefineRows {
  page: PageSnapshot;
  tree: Tree;
  /** Snapshot node of each row. */
  nodes: Int32Array;
  own: Ownership;
  keep: Uint8Array;
}

/** Applies `name` to the kept rows; "none" (or an empty selection) changes nothing. */
export function applyRefiner(name: RefinerName, rows: RefineRows, scored: Scored): Refined {
  const { page, tree, nodes, own, keep } = rows;
  if (name === "none") return { keep, trace: [] };
  if (name === "records") return voteRecords(page, tree, nodes, own, keep);
  // the row-level refiners name a row for their trace by its node's target and path
  const describe = (r: number) => traceTarget(page, tree, nodes[r] as number);
  const pathOf = (r: number) => nodePath(page, tree, nodes[r] as number);
  if (name === "fill") {
    const voted = withoutRuleDrops(voteRecords(page, tree, nodes, own, keep), keep, scored, pathOf);
    const filled = fillMainRegion(own, scored.scores, scored.threshold, voted.keep, describe, pathOf);
    return { keep: filled.keep, trace: [...voted.trace, ...filled.trace] };
  }
  if (name === "region") {
    const result = keepMainRegion(own, scored.scores, scored.threshold, keep, describe, pathOf);
    return { keep: result.keep, trace: result.trace };
  }
  const roots = coalesce(nodes, own, keep).map((r) => nodes[r] as number);
  if (!roots.length) return { keep, trace: [] };
  const view = textBlocks(page, tree, roots);
  const result =
    name === "lbs" ? largestBlock(view) : name === "sls" ? lengthSmoothing(view) : tablePattern(view);
  if (!result.nodes.length) return { keep, trace: result.trace };
  const inside = new Uint8Array(tree.n);
  for (const c of result.nodes) inside.fill(1, c, tree.end[c] as number);
  const out = new Uint8Array(keep.length);
  for (let r = 0; r < keep.length; r++) out[r] = keep[r] === 1 && inside[nodes[r] as number] === 1 ? 1 : 0;
  return { keep: out, trace: result.trace };
}

/**
 * The records vote inside `fill` without the leaves a rule dropped (they reached the threshold,
 * yet are not kept: a duplicate, a block repeating kept text): fill brings none of them back, and
 * neither does its vote, or a documentation page's language-tab copy of a paragraph came back.
 */
function withoutRuleDrops(
  voted: Refined,
  keep: Uint8Array,
  scored: Scored,
  pathOf: (r: number) => string,
): Refined {
  const out = voted.keep.slice();
  const blocked = new Set<string>();
  for (let r = 0; r < keep.length; r++)
    if (keep[r] === 0 && out[r] === 1 && (scored.scores[r] as number) >= scored.threshold) {
      out[r] = 0;
      blocked.add(pathOf(r));
    }
  if (!blocked.size) return voted;
  return { keep: out, trace: voted.trace.filter((e) => !blocked.has(e.path)) };
}
