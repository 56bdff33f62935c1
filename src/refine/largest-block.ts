/**
 * Largest Block of String (LBS) — Louvan, "Extracting the Main Content from HTML Documents",
 * §2.3.1. "The text strings are always placed contiguously in the same depth level of a DOM
 * sub tree": at each level, the child with the longest string is found, then its siblings that
 * contain #text are added (siblings without text — ads, scripts — are skipped); the output is
 * the largest such block of strings.
 *
 * Over a BlockView this is: group the text blocks by their DOM parent (`container`: blocks that
 * are siblings at the same depth level), score each group by its text length, keep the group
 * with the most text. One pass over the blocks, linear.
 */
import type { TraceEntry } from "../types.ts";
import {
  blockEntries,
  nodesForBlocks,
  pathNamer,
  type BlockView,
  type RefineResult,
  type TextBlock,
} from "./blocks.ts";

export const LBS_STEP = "lbs";

export interface LbsOptions {
  /**
   * Count link text toward a group's length (default false: anchored text is navigation more
   * often than content; the paper counts every #text, set true for the literal reading).
   */
  countLinks: boolean;
}

export const LBS_DEFAULTS: LbsOptions = { countLinks: false };

interface LbsGroup {
  container: number;
  length: number;
  members: number[];
}

/** Sibling groups (blocks sharing a DOM parent), in order of first appearance. */
function siblingGroups(blocks: readonly TextBlock[], opts: LbsOptions): LbsGroup[] {
  const byContainer = new Map<number, LbsGroup>();
  blocks.forEach((b, k) => {
    let g = byContainer.get(b.container);
    if (!g) byContainer.set(b.container, (g = { container: b.container, length: 0, members: [] }));
    g.length += opts.countLinks ? b.length : b.length - b.linkLength;
    g.members.push(k);
  });
  return [...byContainer.values()];
}

/** Keep the sibling group of blocks with the most text. Empty view → nothing kept. */
export function largestBlock(view: BlockView, options: Partial<LbsOptions> = {}): RefineResult {
  const opts: LbsOptions = { ...LBS_DEFAULTS, ...options };
  const groups = siblingGroups(view.blocks, opts);
  let best: LbsGroup | undefined;
  for (const g of groups) if (!best || g.length > best.length) best = g;
  if (!best || best.length <= 0) return { kept: [], nodes: [], trace: [] };
  const path = pathNamer(view.page, view.tree);
  const chosen = new Set(best.members);
  const trace: TraceEntry[] = [
    {
      step: LBS_STEP,
      node: best.container,
      path: path(best.container),
      action: "keep",
      reason:
        `largest block of string: ${best.members.length} sibling block(s), ` +
        `${best.length} chars (of ${groups.length} groups)`,
      text: "",
      score: best.length,
    },
  ];
  const groupOf = new Map<number, LbsGroup>();
  for (const g of groups) for (const k of g.members) groupOf.set(k, g);
  const blockEntry = blockEntries(LBS_STEP, view, path);
  view.blocks.forEach((_, k) => {
    if (chosen.has(k)) trace.push(blockEntry(k, "keep", "in the largest block of string"));
    else {
      const g = groupOf.get(k) as LbsGroup;
      const why = `sibling group has ${g.length} chars < ${best.length} of the largest block`;
      trace.push(blockEntry(k, "drop", why, g.length));
    }
  });
  const kept = [...best.members];
  return { kept, nodes: nodesForBlocks(view, kept), trace };
}
