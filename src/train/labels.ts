/**
 * Training labels for structural nodes, from gold text (dragnet's idea: align gold tokens to the
 * page's tokens, align.ts). Each page token is gold or not; each structural node gets the share
 * of its words that are gold. The rules (thresholds named below):
 *
 * - goldShare = gold words / words in the node's subtree (NaN without words).
 * - main = 1 when goldShare ≥ MAIN_CONTAINER_SHARE (the node is nearly all gold), or the node is
 *   a leaf segment (structural.ts: its whole text is its own) with goldShare ≥ MAIN_LEAF_SHARE.
 *   A mixed container (between the two) is NOT main: its main words are reached through its
 *   descendants. Hence the oracle `textOf(page, tree, outermost(main nodes))` (what the learned
 *   pipeline does with its picks) keeps every leaf segment that is mostly gold, plus whatever
 *   small noise sits inside a ≥ MAIN_CONTAINER_SHARE container.
 * - goodSegment = 1 for the coarsest homogeneous nodes (Louvan's "good segments"): structural
 *   nodes with words that are homogeneous (goldShare ≥ HOMOGENEOUS_SHARE or ≤ 1 −
 *   HOMOGENEOUS_SHARE) or leaf segments (cannot be split further), and have no such structural
 *   ancestor. Every word lies in exactly one good segment.
 */
import type { Tree } from "../dom/tree.ts";
import { words } from "../dom/text.ts";
import { analyzeStructure, type Structure } from "../features/structural.ts";
import type { PageSnapshot } from "../types.ts";
import { alignTokens, pageTokens } from "./align.ts";

/** A container is main when at least this share of its words is gold. */
export const MAIN_CONTAINER_SHARE = 0.9;
/** A leaf segment is main when at least this share of its words is gold (majority). */
export const MAIN_LEAF_SHARE = 0.5;
/** Homogeneous (for goodSegment): goldShare ≥ this, or ≤ 1 − this. */
export const HOMOGENEOUS_SHARE = 0.9;

export interface NodeLabels {
  /** Same structural nodes as FeatureTable.nodes. */
  nodes: Int32Array;
  /** Share of the node's words that are gold (NaN if the node has no words). */
  goldShare: Float32Array;
  /** 1 = main. */
  main: Uint8Array;
  /** 1 = coarsest homogeneous node (rule above). */
  goodSegment: Uint8Array;
  /** Number of words in the node's text (for weighting). */
  words: Int32Array;
}

export interface LabelOptions {
  /** Override MAIN_CONTAINER_SHARE (e.g. 1 = only leaf decisions). */
  containerShare?: number;
  /** Precomputed structure (saves a pass when features were computed too). */
  structure?: Structure;
}

/** Per snapshot node: [words, gold words] in the subtree, from the aligned tokens. */
function subtreeCounts(tree: Tree, owner: Int32Array, matched: Uint8Array): { total: Int32Array; gold: Int32Array } {
  const total = new Int32Array(tree.n);
  const gold = new Int32Array(tree.n);
  for (let k = 0; k < owner.length; k++) {
    const o = owner[k] as number;
    total[o] = (total[o] as number) + 1;
    gold[o] = (gold[o] as number) + (matched[k] as number);
  }
  for (let i = tree.n - 1; i > 0; i--) {
    const p = tree.parent[i] as number;
    if (p < 0) continue;
    total[p] = (total[p] as number) + (total[i] as number);
    gold[p] = (gold[p] as number) + (gold[i] as number);
  }
  return { total, gold };
}

export function labelNodes(page: PageSnapshot, tree: Tree, gold: string, options: LabelOptions = {}): NodeLabels {
  const structure = options.structure ?? analyzeStructure(page, tree);
  const { tokens, owner } = pageTokens(page, tree);
  const { matched } = alignTokens(tokens, words(gold.toLowerCase()));
  const { total, gold: goldCount } = subtreeCounts(tree, owner, matched);
  const nodes = structure.nodes;
  const m = nodes.length;
  const goldShare = new Float32Array(m);
  const main = new Uint8Array(m);
  const goodSegment = new Uint8Array(m);
  const wordCount = new Int32Array(m);
  const containerShare = options.containerShare ?? MAIN_CONTAINER_SHARE;
  const covered = new Uint8Array(tree.n); // inside a good segment (node itself included)
  for (let r = 0; r < m; r++) {
    const i = nodes[r] as number;
    const w = total[i] as number;
    const share = w > 0 ? (goldCount[i] as number) / w : NaN;
    const leaf = structure.leaf[i] === 1;
    goldShare[r] = share;
    wordCount[r] = w;
    main[r] = w > 0 && (share >= containerShare || (leaf && share >= MAIN_LEAF_SHARE)) ? 1 : 0;
    const sp = structure.structuralParent[i] as number;
    const under = sp >= 0 && covered[sp] === 1;
    const homogeneous = w > 0 && (share >= HOMOGENEOUS_SHARE || share <= 1 - HOMOGENEOUS_SHARE || leaf);
    goodSegment[r] = !under && homogeneous ? 1 : 0;
    covered[i] = under || homogeneous ? 1 : 0;
  }
  return { nodes, goldShare, main, goodSegment, words: wordCount };
}
