/**
 * Training labels for structural nodes, from gold text (dragnet's idea: align gold tokens to the
 * page's tokens, align.ts). Each page token is gold or not; each structural node gets the share
 * of its words that are gold. The rules (thresholds named below):
 *
 * - goldShare = gold words / words in the node's subtree (NaN without words).
 * - main: a leaf segment (structural.ts: its whole text is its own) is main when goldShare ≥
 *   MAIN_LEAF_SHARE (majority of its words); a container is main when every word-bearing leaf
 *   below it is main (then picking it adds nothing the leaves would not). So the oracle
 *   `textOf(page, tree, outermost(main nodes))` — what the learned pipeline does with its picks —
 *   yields exactly the main leaves, whichever level the picks are made at. A mixed container is
 *   not main: its main words are reached through its descendants. (Measured alternative: also
 *   calling containers with goldShare ≥ 0.9 main cost 0.5-1.9 points of oracle precision; see
 *   `pith evaluate --method oracle --param container=0.9`.)
 * - goodSegment = 1 for the coarsest homogeneous nodes (Louvan's "good segments"): structural
 *   nodes with words that are homogeneous (goldShare ≥ HOMOGENEOUS_SHARE or ≤ 1 −
 *   HOMOGENEOUS_SHARE) or leaf segments (cannot be split further), and have no such structural
 *   ancestor. Every word lies in exactly one good segment.
 */
import type { Tree } from "../dom/tree.ts";
import { words } from "../dom/text.ts";
import { analyzeStructure, type Structure } from "../features/structural.ts";
import type { PageSnapshot } from "../types.ts";
import { goldNodeLabels } from "../evaluate/gold-nodes.ts";
import { alignTokens, pageTokens } from "./align.ts";

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
  /** Also call a container main when at least this share of its words is gold (default: off). */
  containerShare?: number;
  /** Precomputed structure (saves a pass when features were computed too). */
  structure?: Structure;
}

/** Per snapshot node: [words, gold words] in the subtree, from the aligned tokens. */
function subtreeCounts(
  tree: Tree,
  owner: Int32Array,
  matched: Uint8Array,
): { total: Int32Array; gold: Int32Array } {
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

/** main for leaves by majority; containers main when all word-bearing structural children are. */
function mainBottomUp(
  structure: Structure,
  total: Int32Array,
  goldShare: Float32Array,
  main: Uint8Array,
  containerShare: number,
): void {
  const nodes = structure.nodes;
  const notAllMain = new Uint8Array(structure.isStructural.length);
  for (let r = nodes.length - 1; r >= 0; r--) {
    const i = nodes[r] as number;
    const w = total[i] as number;
    const share = goldShare[r] as number;
    const isMain =
      w > 0 &&
      (structure.leaf[i] === 1 ? share >= MAIN_LEAF_SHARE : notAllMain[i] === 0 || share >= containerShare);
    main[r] = isMain ? 1 : 0;
    const sp = structure.structuralParent[i] as number;
    if (sp >= 0 && w > 0 && !isMain) notAllMain[sp] = 1;
  }
}

export function labelNodes(
  page: PageSnapshot,
  tree: Tree,
  gold: string,
  options: LabelOptions = {},
): NodeLabels {
  const { tokens, owner } = pageTokens(page, tree);
  const { matched } = alignTokens(tokens, words(gold.toLowerCase()));
  return labelsFromTokens(page, tree, owner, matched, options);
}

/**
 * Labels from node-level gold (gold-html: l3s-gn1's x-nc-sel spans, Readability's expected
 * output), mapped onto the snapshot's text nodes by src/evaluate/gold-nodes.ts; then the same
 * aggregation, main and goodSegment rules as labelNodes. Used to check how often the two agree.
 */
export function labelNodesFromGoldHtml(
  page: PageSnapshot,
  tree: Tree,
  goldHtml: string,
  options: LabelOptions = {},
): NodeLabels {
  const { owner } = pageTokens(page, tree);
  const ng = goldNodeLabels(page, tree, goldHtml);
  const mainNode = new Set<number>();
  ng.units.forEach((u, k) => ng.gold[k] && mainNode.add(u));
  const matched = Uint8Array.from(owner, (o) => (mainNode.has(o) ? 1 : 0));
  return labelsFromTokens(page, tree, owner, matched, options);
}

/** Shares, main and goodSegment from per-token gold flags (tokens owned by text nodes). */
function labelsFromTokens(
  page: PageSnapshot,
  tree: Tree,
  owner: Int32Array,
  matched: Uint8Array,
  options: LabelOptions,
): NodeLabels {
  const structure = options.structure ?? analyzeStructure(page, tree);
  const { total, gold: goldCount } = subtreeCounts(tree, owner, matched);
  const nodes = structure.nodes;
  const m = nodes.length;
  const goldShare = new Float32Array(m);
  const main = new Uint8Array(m);
  const goodSegment = new Uint8Array(m);
  const wordCount = new Int32Array(m);
  const containerShare = options.containerShare ?? Infinity;
  const covered = new Uint8Array(tree.n); // inside a good segment (node itself included)
  for (let r = 0; r < m; r++) {
    const i = nodes[r] as number;
    const w = total[i] as number;
    const share = w > 0 ? (goldCount[i] as number) / w : NaN;
    goldShare[r] = share;
    wordCount[r] = w;
    const sp = structure.structuralParent[i] as number;
    const under = sp >= 0 && covered[sp] === 1;
    const homogeneous =
      w > 0 && (share >= HOMOGENEOUS_SHARE || share <= 1 - HOMOGENEOUS_SHARE || structure.leaf[i] === 1);
    goodSegment[r] = !under && homogeneous ? 1 : 0;
    covered[i] = under || homogeneous ? 1 : 0;
  }
  mainBottomUp(structure, total, goldShare, main, containerShare);
  return { nodes, goldShare, main, goodSegment, words: wordCount };
}
