/**
 * Block-level precision and recall, the measure of Debnath, Mitra, Giles (SAC 2005) §4.1:
 * "Precision = r / t" (relevant blocks found / blocks suggested), "Recall = r / (r + m)"
 * (m = relevant blocks missed). The paper's relevance judgements were made by people; we derive
 * them from node-level gold labels (src/evaluate/gold-nodes.ts, l3s-gn1's gold-html): a block
 * of GetBlockSet is *relevant* when at least BLOCK_MAJORITY of the words of the text units it
 * owns are gold main content, and *suggested* when at least BLOCK_MAJORITY of them lie inside
 * the nodes the extractor chose. Blocks owning no text unit are not counted.
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import type { Tree } from "../dom/tree.ts";
import { words } from "../dom/text.ts";
import type { BlockSet } from "../site/block-set.ts";

/** Share of a block's words that decides relevant / suggested. */
export const BLOCK_MAJORITY = 0.5;

export interface BlockCounts {
  /** Blocks with text units. */
  blocks: number;
  relevant: number;
  suggested: number;
  /** Relevant and suggested. */
  found: number;
}

/**
 * Count blocks for one page. `units`/`gold`: text-node indices and their gold labels;
 * `chosen`: the extractor's chosen subtree roots.
 */
export function blockCounts(
  page: PageSnapshot,
  tree: Tree,
  blocks: BlockSet,
  units: readonly number[],
  gold: readonly boolean[],
  chosen: readonly number[],
): BlockCounts {
  const inChosen = new Uint8Array(tree.n);
  for (const r of chosen) inChosen.fill(1, r, tree.end[r] as number);
  const nb = blocks.roots.length;
  const total = new Float64Array(nb);
  const goldWords = new Float64Array(nb);
  const chosenWords = new Float64Array(nb);
  units.forEach((u, k) => {
    const w = words((page.nodes[u] as SnapshotNode).text ?? "").length;
    const b = blocks.blockOf[u] as number;
    total[b] = (total[b] as number) + w;
    if (gold[k]) goldWords[b] = (goldWords[b] as number) + w;
    if (inChosen[u] === 1) chosenWords[b] = (chosenWords[b] as number) + w;
  });
  const out: BlockCounts = { blocks: 0, relevant: 0, suggested: 0, found: 0 };
  for (let b = 0; b < nb; b++) {
    const t = total[b] as number;
    if (t === 0) continue;
    const rel = (goldWords[b] as number) >= BLOCK_MAJORITY * t;
    const sug = (chosenWords[b] as number) >= BLOCK_MAJORITY * t;
    out.blocks++;
    if (rel) out.relevant++;
    if (sug) out.suggested++;
    if (rel && sug) out.found++;
  }
  return out;
}

/** Debnath's P = r/t and R = r/(r+m) from counts (1 when the denominator is 0 and nothing is wrong). */
export function blockPrecisionRecall(c: BlockCounts): { p: number; r: number } {
  const p = c.suggested === 0 ? (c.relevant === 0 ? 1 : 0) : c.found / c.suggested;
  const r = c.relevant === 0 ? (c.suggested === 0 ? 1 : 0) : c.found / c.relevant;
  return { p, r };
}
