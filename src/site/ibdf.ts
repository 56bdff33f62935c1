/**
 * Inverse block-document frequency (IBDF), after Debnath, Mitra, Giles, "Automatic Extraction
 * of Informative Blocks from Webpages" (SAC 2005), §3.1 and Algorithm 1 (ContentExtractor).
 *
 * SIM(b1, b2) is the cosine of the block feature vectors: the block's counted features
 * (block-set.ts) plus "a binary feature for each term in the corpus". Two blocks with
 * SIM > ε = 0.9 are "accepted as identical". IBDF is "inversely proportional to the number of
 * documents in which a block occurs or has a similar block"; the paper leaves Update() and θ
 * open, so we define IBDF(b) = 1 / (1 + d(b)), d(b) = number of other pages holding a block
 * similar to b, and (content-extractor.ts) keep blocks with IBDF > θ = 0.5, i.e. blocks seen
 * in no other page — "blocks that occur only in one page are identified as content-blocks".
 *
 * Our choice for the counted features: log(1 + count), so that a 300-word block's word count
 * does not drown its term set (with raw counts two different 300-word articles would be
 * "identical", the false match the paper warns about).
 *
 * Speed: instead of all block pairs, candidates come from an inverted index of the other page
 * (cached per snapshot), identical blocks are found by signature, and repeated blocks are
 * answered once (see similarBlockIn for the two bounds). Blocks sharing no term with b are
 * treated as not similar unless b itself has no terms (then it is compared with the other
 * page's distinct term-less blocks). Two empty blocks (zero vectors) count as identical.
 */
import type { PageSnapshot } from "../types.ts";
import { buildTree, type Tree } from "../dom/tree.ts";
import { BLOCK_FEATURES, DEFAULT_TAG_SET, getBlockSet, type BlockSet } from "./block-set.ts";

/** Debnath §3.1: blocks with SIM > ε are accepted as identical. */
export const SIMILARITY_EPSILON = 0.9;

/** A block set ready for similarity queries: scaled features and an inverted index. */
export interface IndexedBlocks {
  blocks: BlockSet;
  /** log1p-scaled counted features, per block (BLOCK_FEATURES.length each). */
  scaled: Float64Array;
  /** Squared norm of each block's full vector (scaled features + one per distinct term). */
  norm2: Float64Array;
  /** term id → blocks holding it. */
  postings: Map<number, number[]>;
  /** Blocks with no terms. */
  termless: number[];
}

const CACHE = new WeakMap<PageSnapshot, Map<string, IndexedBlocks>>();

/** Block set + similarity index of a page, cached per snapshot and tag set. */
export function indexBlocks(
  page: PageSnapshot,
  tree?: Tree,
  tags: readonly string[] = DEFAULT_TAG_SET,
): IndexedBlocks {
  const cacheKey = tags.join(",");
  let byTags = CACHE.get(page);
  const hit = byTags?.get(cacheKey);
  if (hit) return hit;
  const blocks = getBlockSet(page, tree ?? buildTree(page), tags);
  const nf = BLOCK_FEATURES.length;
  const nb = blocks.roots.length;
  const scaled = new Float64Array(nb * nf);
  const norm2 = new Float64Array(nb);
  const postings = new Map<number, number[]>();
  const termless: number[] = [];
  for (let b = 0; b < nb; b++) {
    let s = 0;
    for (let f = 0; f < nf; f++) {
      const v = Math.log1p(blocks.features[b * nf + f] as number);
      scaled[b * nf + f] = v;
      s += v * v;
    }
    const terms = blocks.terms[b] as Int32Array;
    norm2[b] = s + terms.length;
    if (terms.length === 0) termless.push(b);
    for (const t of terms) {
      const list = postings.get(t);
      if (list) list.push(b);
      else postings.set(t, [b]);
    }
  }
  const indexed = { blocks, scaled, norm2, postings, termless };
  if (!byTags) CACHE.set(page, (byTags = new Map()));
  byTags.set(cacheKey, indexed);
  return indexed;
}

function featureDot(a: IndexedBlocks, i: number, b: IndexedBlocks, j: number): number {
  const nf = BLOCK_FEATURES.length;
  let d = 0;
  for (let f = 0; f < nf; f++) d += (a.scaled[i * nf + f] as number) * (b.scaled[j * nf + f] as number);
  return d;
}

/** Cosine of two blocks' full vectors given their number of shared terms. */
function cosine(a: IndexedBlocks, i: number, b: IndexedBlocks, j: number, shared: number): number {
  const na = a.norm2[i] as number;
  const nb = b.norm2[j] as number;
  if (na === 0 || nb === 0) return na === nb ? 1 : 0; // two empty blocks are the same block
  return (featureDot(a, i, b, j) + shared) / Math.sqrt(na * nb);
}

/** SIM(block i of a, block j of b), computed directly (for tests and single queries). */
export function blockSimilarity(a: IndexedBlocks, i: number, b: IndexedBlocks, j: number): number {
  const ta = a.blocks.terms[i] as Int32Array;
  const tb = b.blocks.terms[j] as Int32Array;
  let shared = 0;
  for (let x = 0, y = 0; x < ta.length && y < tb.length;) {
    const u = ta[x] as number;
    const v = tb[y] as number;
    if (u === v) shared++;
    if (u <= v) x++;
    if (v <= u) y++;
  }
  return cosine(a, i, b, j, shared);
}

/** Posting lists longer than this (stop-word-like terms) are not scanned for candidates. */
export const MAX_POSTING_SCAN = 400;
/** Most candidate blocks of the other page whose exact SIM is computed for one block. */
export const MAX_CANDIDATES_PER_BLOCK = 2000;

/** Exact vector identity: sorted term ids + scaled features. */
function signature(x: IndexedBlocks, i: number): string {
  const nf = BLOCK_FEATURES.length;
  const features = Array.from(x.scaled.subarray(i * nf, (i + 1) * nf)).join(",");
  return `${features}|${(x.blocks.terms[i] as Int32Array).join(",")}`;
}

const SIGNATURES = new WeakMap<IndexedBlocks, { byBlock: string[]; set: Set<string>; termless: number[] }>();

/** Per-page signatures, the set of them and one term-less block per distinct signature. */
function signaturesOf(x: IndexedBlocks): { byBlock: string[]; set: Set<string>; termless: number[] } {
  let sig = SIGNATURES.get(x);
  if (!sig) {
    const byBlock = Array.from(x.blocks.roots, (_, i) => signature(x, i));
    const seen = new Set<string>();
    const termless = x.termless.filter(
      (j) => !seen.has(byBlock[j] as string) && seen.add(byBlock[j] as string),
    );
    sig = { byBlock, set: new Set(byBlock), termless };
    SIGNATURES.set(x, sig);
  }
  return sig;
}

/** Does `b` hold a block with SIM > epsilon to block i of `a` (identical blocks aside)? */
function hasSimilar(
  a: IndexedBlocks,
  i: number,
  b: IndexedBlocks,
  termlessB: readonly number[],
  epsilon: number,
): boolean {
  const terms = a.blocks.terms[i] as Int32Array;
  if (terms.length === 0) return termlessB.some((j) => cosine(a, i, b, j, 0) > epsilon);
  const lists = Array.from(terms, (t) => b.postings.get(t) ?? []).filter(
    (l) => l.length > 0 && l.length <= MAX_POSTING_SCAN,
  );
  lists.sort((x, y) => x.length - y.length); // rarest terms first
  const checked = new Set<number>();
  for (const list of lists) {
    for (const j of list) {
      if (checked.has(j)) continue;
      checked.add(j);
      if (blockSimilarity(a, i, b, j) > epsilon) return true;
      if (checked.size >= MAX_CANDIDATES_PER_BLOCK) return false;
    }
  }
  return false;
}

/**
 * For each block of `a`: does `b` hold a block with SIM > epsilon? Identical vectors are found
 * by signature; blocks of `a` with the same signature share one answer; other candidates come
 * from the posting lists of the block's terms, rarest first. Approximation (named constants):
 * terms in more than MAX_POSTING_SCAN blocks of `b` do not propose candidates, and at most
 * MAX_CANDIDATES_PER_BLOCK candidates are checked — this bounds pages with tens of thousands
 * of near-identical blocks, and only misses a similar block that shares no rarer term.
 */
export function similarBlockIn(a: IndexedBlocks, b: IndexedBlocks, epsilon = SIMILARITY_EPSILON): Uint8Array {
  const nb = a.blocks.roots.length;
  const out = new Uint8Array(nb);
  const sa = signaturesOf(a);
  const sb = signaturesOf(b);
  const memo = new Map<string, boolean>();
  for (let i = 0; i < nb; i++) {
    const sig = sa.byBlock[i] as string;
    let hit = memo.get(sig);
    if (hit === undefined) {
      hit = sb.set.has(sig) ? 1 > epsilon : hasSimilar(a, i, b, sb.termless, epsilon); // identical: SIM = 1
      memo.set(sig, hit);
    }
    if (hit) out[i] = 1;
  }
  return out;
}

export interface BlockIbdf {
  blocks: BlockSet;
  /** Per block: number of other pages holding a similar block (d in IBDF = 1/(1+d)). */
  similarPages: Int32Array;
  /** Per block: 1 / (1 + similarPages). */
  ibdf: Float64Array;
}

/** IBDF of every block of `page` against the other pages of its site. */
export function blockIbdf(
  page: PageSnapshot,
  tree: Tree,
  others: readonly PageSnapshot[],
  options: { tags?: readonly string[]; epsilon?: number } = {},
): BlockIbdf {
  const tags = options.tags ?? DEFAULT_TAG_SET;
  const key = indexBlocks(page, tree, tags);
  const nb = key.blocks.roots.length;
  const similarPages = new Int32Array(nb);
  for (const other of others) {
    if (other === page) continue;
    const hit = similarBlockIn(
      key,
      indexBlocks(other, undefined, tags),
      options.epsilon ?? SIMILARITY_EPSILON,
    );
    for (let b = 0; b < nb; b++) similarPages[b] = (similarPages[b] as number) + (hit[b] as number);
  }
  const ibdf = new Float64Array(nb);
  for (let b = 0; b < nb; b++) ibdf[b] = 1 / (1 + (similarPages[b] as number));
  return { blocks: key.blocks, similarPages, ibdf };
}

/** Per snapshot node: the IBDF of the block that owns it (features pipeline helper). */
export function nodeIbdf(
  page: PageSnapshot,
  tree: Tree,
  others: readonly PageSnapshot[],
  options: { tags?: readonly string[] } = {},
): Float64Array {
  const r = blockIbdf(page, tree, others, options);
  const out = new Float64Array(tree.n);
  for (let i = 0; i < tree.n; i++) out[i] = r.ibdf[r.blocks.blockOf[i] as number] as number;
  return out;
}
