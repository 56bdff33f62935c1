/**
 * `k-feature-extractor` — Debnath, Mitra, Giles, "Automatic Extraction of Informative Blocks
 * from Webpages" (SAC 2005), §3.2, last paragraph (K-FeatureExtractor).
 *
 * The FeatureExtractor winner basket (feature-extractor.ts) is clustered with an adaptive
 * k-means on the blocks' desired-feature scores: "the usual values of k taken are 2 or 3, and
 * the initial centroids are chosen from the sorted list at equidistant index values"; "the
 * high probability cluster(s) are taken". Our reading, named below:
 * - 1-D k-means on the re-normalised desired-feature sums, centroids initialised at ranks
 *   round(j·(m−1)/(k−1)), j = 0..k−1, of the scores sorted in descending order;
 * - adaptive k: 3 when it cuts the within-cluster sum of squares of k = 2 by at least
 *   ADAPTIVE_SSE_GAIN, else 2 (and k = 1 when the basket has fewer than 2 distinct scores);
 * - output: the cluster with the highest centroid.
 */
import type { Extraction, Extractor, ExtractorContext, PageSnapshot } from "../types.ts";
import { registerExtractor } from "../extractors.ts";
import { BoundedTrace } from "../site/extraction.ts";
import { blocksExtraction, startBasket } from "./feature-extractor.ts";

export const METHOD = "k-feature-extractor";
/** Debnath §3.2: k is 2 or 3. */
export const K_CHOICES = [2, 3] as const;
/** Take k = 3 when its within-cluster SSE is at most (1 − gain) × the SSE of k = 2. */
export const ADAPTIVE_SSE_GAIN = 0.5;
/** Lloyd iterations cap (1-D k-means converges in a handful). */
export const MAX_KMEANS_ITERATIONS = 100;

/** Initial centroids: values at equidistant ranks of the descending-sorted list. */
export function initialCentroids(sortedDesc: readonly number[], k: number): number[] {
  const m = sortedDesc.length;
  if (k <= 1 || m <= 1) return [sortedDesc[0] ?? 0];
  return Array.from({ length: k }, (_, j) => sortedDesc[Math.round((j * (m - 1)) / (k - 1))] as number);
}

export interface KMeansResult {
  k: number;
  centroids: number[];
  /** Per value (same order as the input): cluster index. */
  assignment: number[];
  /** Within-cluster sum of squares. */
  sse: number;
}

/** 1-D k-means (Lloyd) from the equidistant-rank initialisation. */
export function kMeans1d(values: readonly number[], k: number): KMeansResult {
  const centroids = initialCentroids(
    [...values].sort((a, b) => b - a),
    k,
  );
  const assignment = new Array<number>(values.length).fill(0);
  for (let it = 0; it < MAX_KMEANS_ITERATIONS; it++) {
    let changed = false;
    values.forEach((v, i) => {
      let best = 0;
      for (let c = 1; c < centroids.length; c++)
        if (Math.abs(v - (centroids[c] as number)) < Math.abs(v - (centroids[best] as number))) best = c;
      if (assignment[i] !== best) changed = true;
      assignment[i] = best;
    });
    const sum = new Array<number>(centroids.length).fill(0);
    const cnt = new Array<number>(centroids.length).fill(0);
    values.forEach((v, i) => {
      const c = assignment[i] as number;
      sum[c] = (sum[c] as number) + v;
      cnt[c] = (cnt[c] as number) + 1;
    });
    for (let c = 0; c < centroids.length; c++)
      if ((cnt[c] as number) > 0) centroids[c] = (sum[c] as number) / (cnt[c] as number);
    if (!changed && it > 0) break;
  }
  let sse = 0;
  values.forEach((v, i) => (sse += (v - (centroids[assignment[i] as number] as number)) ** 2));
  return { k: centroids.length, centroids, assignment, sse };
}

/** Adaptive choice between k = 2 and k = 3 (see header). */
export function adaptiveKMeans(values: readonly number[]): KMeansResult {
  const distinct = new Set(values).size;
  if (distinct < 2) return kMeans1d(values, 1);
  const two = kMeans1d(values, K_CHOICES[0]);
  if (distinct < 3) return two;
  const three = kMeans1d(values, K_CHOICES[1]);
  return three.sse <= (1 - ADAPTIVE_SSE_GAIN) * two.sse ? three : two;
}

function extractK(page: PageSnapshot, context: ExtractorContext = {}): Extraction {
  const start = startBasket(page, context, METHOD);
  if (!("basket" in start)) return start;
  const { tree, desired, basket } = start;
  const km = adaptiveKMeans(basket.scores);
  let top = 0;
  km.centroids.forEach((c, j) => {
    if (c > (km.centroids[top] as number)) top = j;
  });
  const chosen = basket.winners.filter((_, i) => km.assignment[i] === top);
  const trace = new BoundedTrace(page, tree);
  basket.winners.forEach((b, i) => {
    const keep = km.assignment[i] === top;
    const why = keep
      ? `in the top cluster of k=${km.k} (centroid ${(km.centroids[top] as number).toFixed(3)})`
      : `in cluster ${km.assignment[i]} of k=${km.k}, not the top one`;
    trace.add("k-means", basket.blocks.roots[b] as number, keep ? "keep" : "drop", why, basket.scores[i]);
  });
  return blocksExtraction(page, tree, basket, chosen, {
    method: METHOD,
    trace: trace.finish(),
    model: `k=${km.k},feature=${desired.join(",")}`,
  });
}

export const kFeatureExtractor: Extractor = {
  name: METHOD,
  description:
    "Top cluster of an adaptive k-means (k=2|3) over the FeatureExtractor winner basket (Debnath et al., SAC 2005)",
  extract: extractK,
};

registerExtractor(kFeatureExtractor);
