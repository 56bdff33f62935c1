/**
 * `feature-extractor` — Debnath, Mitra, Giles, "Automatic Extraction of Informative Blocks
 * from Webpages" (SAC 2005), §3.2 and Algorithm 2 (FeatureExtractor).
 *
 * 1. GetBlockSet (src/site/block-set.ts) with FEATURE_TAG_SET by default (§3.2: whole tables,
 *    not rows, are blocks); `tags=paper|default|feature|t1,t2,…` overrides it.
 * 2. Every feature of every block is normalised by its maximum over the page's blocks.
 * 3. Winner basket: blocks whose desired-feature sum exceeds the sum of the other features.
 * 4. Features are normalised again over the basket, and the block with the highest desired
 *    sum wins ("chose the one with highest sum of values of desired feature values").
 * Param `feature` (default "text,textTags"; comma-separated, names in BLOCK_FEATURES).
 * Also exports the winner basket for K-FeatureExtractor (k-feature-extractor.ts).
 */
import type { Extraction, Extractor, ExtractorContext, PageSnapshot, TraceEntry } from "../types.ts";
import { registerExtractor } from "../extractors.ts";
import { buildTree, type Tree } from "../dom/tree.ts";
import {
  BLOCK_FEATURES,
  FEATURE_TAG_SET,
  getBlockSet,
  tagSetParam,
  type BlockFeature,
  type BlockSet,
} from "../site/block-set.ts";
import {
  BoundedTrace,
  chosenSubtrees,
  emptyExtraction,
  extractionOf,
  unusablePage,
} from "../site/extraction.ts";

export const METHOD = "feature-extractor";
/**
 * Debnath §3.2: text is the usual desired feature. §3.2.1 lists "Text" and "Text-tag" (h1…h6)
 * together; we count both as the text feature, otherwise any block with a heading — every
 * article — scores its heading (normalised to 1) against its words and leaves the basket.
 */
export const DEFAULT_DESIRED_FEATURES: readonly BlockFeature[] = ["text", "textTags"];

export interface WinnerBasket {
  blocks: BlockSet;
  desired: readonly BlockFeature[];
  /** Blocks in the basket, in document order. */
  winners: number[];
  /** Per winner (parallel): desired-feature sum after re-normalising over the basket. */
  scores: number[];
}

/** Features normalised by their maximum over `ids` (rows parallel to ids). */
export function normalisedFeatures(blocks: BlockSet, ids: readonly number[]): Float64Array {
  const nf = BLOCK_FEATURES.length;
  const max = new Float64Array(nf);
  for (const b of ids)
    for (let f = 0; f < nf; f++) max[f] = Math.max(max[f] as number, blocks.features[b * nf + f] as number);
  const out = new Float64Array(ids.length * nf);
  ids.forEach((b, r) => {
    for (let f = 0; f < nf; f++) {
      const m = max[f] as number;
      out[r * nf + f] = m > 0 ? (blocks.features[b * nf + f] as number) / m : 0;
    }
  });
  return out;
}

function desiredSums(
  norm: Float64Array,
  rows: number,
  desired: ReadonlySet<number>,
): { want: Float64Array; rest: Float64Array } {
  const nf = BLOCK_FEATURES.length;
  const want = new Float64Array(rows);
  const rest = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    for (let f = 0; f < nf; f++) {
      const v = norm[r * nf + f] as number;
      if (desired.has(f)) want[r] = (want[r] as number) + v;
      else rest[r] = (rest[r] as number) + v;
    }
  }
  return { want, rest };
}

/** Steps 1-4 up to the re-normalised basket. */
export function winnerBasket(
  page: PageSnapshot,
  tree: Tree,
  desired: readonly BlockFeature[] = DEFAULT_DESIRED_FEATURES,
  tags: readonly string[] = FEATURE_TAG_SET,
): WinnerBasket {
  const blocks = getBlockSet(page, tree, tags);
  const want = new Set(desired.map((f) => BLOCK_FEATURES.indexOf(f)));
  const all = Array.from(blocks.roots, (_, b) => b);
  const first = desiredSums(normalisedFeatures(blocks, all), all.length, want);
  const winners = all.filter(
    (b) => (first.want[b] as number) > 0 && (first.want[b] as number) > (first.rest[b] as number),
  );
  const second = desiredSums(normalisedFeatures(blocks, winners), winners.length, want);
  return { blocks, desired, winners, scores: Array.from(second.want) };
}

export function desiredParam(value: unknown): BlockFeature[] {
  if (typeof value !== "string" || !value) return [...DEFAULT_DESIRED_FEATURES];
  const names = value.split(",").map((s) => s.trim());
  for (const n of names)
    if (!(BLOCK_FEATURES as readonly string[]).includes(n))
      throw new Error(`${METHOD}: unknown feature "${n}"; known: ${BLOCK_FEATURES.join(", ")}`);
  return names as BlockFeature[];
}

/** What an extraction reports beside its nodes: the method, its trace and the model (parameters) it ran with. */
export interface Reported {
  method: string;
  trace: TraceEntry[];
  model: string;
}

/** Extraction made of the chosen blocks (their own nodes, nested blocks excluded). */
export function blocksExtraction(
  page: PageSnapshot,
  tree: Tree,
  basket: WinnerBasket,
  chosen: readonly number[],
  reported: Reported,
): Extraction {
  const { method, trace, model } = reported;
  const mask = new Uint8Array(basket.blocks.roots.length);
  for (const b of chosen) mask[b] = 1;
  const nodes = chosenSubtrees(page, tree, basket.blocks.blockOf, mask);
  return extractionOf(page, tree, method, nodes, trace, model);
}

/** The winner basket both FeatureExtractor and K-FeatureExtractor start from, or why there is none. */
export interface BasketStart {
  tree: Tree;
  desired: BlockFeature[];
  basket: WinnerBasket;
}

export function startBasket(
  page: PageSnapshot,
  context: ExtractorContext,
  method: string,
): BasketStart | Extraction {
  const tree = buildTree(page);
  const bad = unusablePage(page, tree);
  if (bad) return emptyExtraction(method, bad);
  const desired = desiredParam(context.params?.["feature"]);
  const basket = winnerBasket(page, tree, desired, tagSetParam(context.params?.["tags"], FEATURE_TAG_SET));
  if (basket.winners.length === 0)
    return emptyExtraction(method, `no block has more ${desired.join("+")} than other features`);
  return { tree, desired, basket };
}

function extractFeature(page: PageSnapshot, context: ExtractorContext = {}): Extraction {
  const start = startBasket(page, context, METHOD);
  if (!("basket" in start)) return start;
  const { tree, desired, basket } = start;
  let best = 0;
  basket.scores.forEach((s, k) => {
    if (s > (basket.scores[best] as number)) best = k;
  });
  const trace = new BoundedTrace(page, tree);
  basket.winners.forEach((b, k) =>
    trace.add(
      "winner-basket",
      basket.blocks.roots[b] as number,
      k === best ? "keep" : "drop",
      k === best
        ? "highest desired-feature sum in the winner basket"
        : "in the winner basket, not the highest",
      basket.scores[k],
    ),
  );
  return blocksExtraction(page, tree, basket, [basket.winners[best] as number], {
    method: METHOD,
    trace: trace.finish(),
    model: `feature=${desired.join(",")}`,
  });
}

export const featureExtractor: Extractor = {
  name: METHOD,
  description:
    "Single best block by normalised desired features, text by default (Debnath et al., SAC 2005, FeatureExtractor)",
  extract: extractFeature,
};

registerExtractor(featureExtractor);
