/**
 * `site` — Alarte, Insa, Silva, Tamarit, "Main Content Extraction from Heterogeneous
 * Webpages" (WISE 2018). Site-level main content extraction:
 *
 *   §2.1  n-SET: n pages of the key page's site (src/site/nset.ts; live: src/site/live.ts)
 *   §2.2  Algorithm 1: equal top-down mapping key page ↔ each n-SET page, occurrence
 *         counters (src/site/mapping.ts); nodes with occurrences = 0 are the candidates
 *   §2.3  Algorithm 2: reduced set = candidates whose parent is not a candidate (Theorem 1)
 *   §2.4  Algorithm 3: main-content branch = the parent of a reduced node with the largest
 *         subtree (ties: first in depth-first order); a single reduced node is the answer
 *   §2.5  Algorithm 4: drop reduced nodes outside the branch
 *   §2.6  Algorithm 5: replace sibling nodes by their parent, until no two share a parent
 *
 * Our additions, each named: candidates must carry content (contentMask: visible text or
 * media) — unmapped whitespace text nodes or empty elements would otherwise pull the branch up
 * to <body>; the n-SET comes from ExtractorContext.site (ranked, or randomly with
 * `selection=random` for the paper's Table 2 baseline) or, with `live=true`, by fetching the
 * key page's links. Params: n (default 4), selection (ranked|random), seed, live, fallback,
 * equality (attributes|id|tag: which attributes node equality compares, src/site/mapping.ts),
 * branch (nodes|words: how Algorithm 3 sizes a subtree; nodes is the paper's).
 */
import type { Extraction, Extractor, ExtractorContext, PageSnapshot, TraceEntry } from "../types.ts";
import { registerExtractor } from "../extractors.ts";
import { buildTree, contains, type Tree } from "../dom/tree.ts";
import { DEFAULT_EQUALITY, occurrenceCounts, type EqualityMode } from "../site/mapping.ts";
import { DEFAULT_NSET_SIZE, rankSitePages, shuffled } from "../site/nset.ts";
import { fetchNSet } from "../site/live.ts";
import {
  BoundedTrace,
  contentMask,
  emptyExtraction,
  extractionOf,
  positiveIntParam,
  subtreeWords,
  unusablePage,
} from "../site/extraction.ts";
import { featureExtractor } from "./feature-extractor.ts";

export const METHOD = "site";
/**
 * Algorithm 1 output: a node is a candidate when it occurs in no other
 * page (paper §6: other values were worse).
 */
export const MAX_CANDIDATE_OCCURRENCES = 0;
/** Seed for `selection=random`. */
export const DEFAULT_RANDOM_SEED = 1;

export interface NSetChoice {
  pages: PageSnapshot[];
  /** "site" (given pages), "live" (fetched) or "none". */
  source: "site" | "live" | "none";
  note: string;
}

/** §2.1 over the pages at hand (or fetched live when asked and none are given). */
export async function chooseNSet(
  page: PageSnapshot,
  tree: Tree,
  context: ExtractorContext = {},
): Promise<NSetChoice> {
  const params = context.params ?? {};
  const n = positiveIntParam(METHOD, "n", params["n"], DEFAULT_NSET_SIZE);
  const others = (context.site?.pages ?? []).filter((p) => p !== page);
  if (others.length > 0) {
    const pages =
      params["selection"] === "random"
        ? shuffled(others, positiveIntParam(METHOD, "seed", params["seed"], DEFAULT_RANDOM_SEED)).slice(0, n)
        : rankSitePages(page, tree, others)
            .slice(0, n)
            .map((r) => r.page);
    return {
      pages,
      source: "site",
      note:
        `${pages.length} of ${others.length} site pages ` +
        `(${params["selection"] === "random" ? "random" : "ranked"})`,
    };
  }
  if (params["live"] === true) {
    const live = await fetchNSet(page, n, {}, tree);
    return {
      pages: live.pages,
      source: "live",
      note: `${live.pages.length} fetched of ${live.links.length} ranked links, ${live.errors.length} failed`,
    };
  }
  return { pages: [], source: "none", note: "no other pages of the site" };
}

export interface SiteLevelResult {
  occurrences: Int32Array;
  candidates: number;
  /** Algorithm 2. */
  reduced: number[];
  /** Algorithm 3 (-1 when the reduced set has one node or none). */
  branch: number;
  /** Algorithm 4. */
  inBranch: number[];
  /** Algorithm 5: the main content nodes, document order. */
  main: number[];
}

/** How Algorithm 3 measures a subtree: "nodes" (the paper) or "words" (visible words; ours). */
export type BranchMeasure = "nodes" | "words";

export interface SiteLevelOptions {
  equality?: EqualityMode;
  branch?: BranchMeasure;
}

/** Algorithms 1-5 on a key page against its n-SET (pure). */
export function siteLevelMainContent(
  page: PageSnapshot,
  tree: Tree,
  nset: readonly PageSnapshot[],
  options: SiteLevelOptions = {},
): SiteLevelResult {
  const equality = options.equality ?? DEFAULT_EQUALITY;
  const occurrences = occurrenceCounts(page, tree, nset, equality);
  const content = contentMask(page, tree);
  const isCand = new Uint8Array(tree.n);
  let candidates = 0;
  for (let i = 0; i < tree.n; i++) {
    if ((occurrences[i] as number) <= MAX_CANDIDATE_OCCURRENCES && content[i] === 1) {
      isCand[i] = 1;
      candidates++;
    }
  }
  const reduced = reduceCandidates(tree, isCand);
  if (reduced.length <= 1)
    return { occurrences, candidates, reduced, branch: -1, inBranch: reduced, main: reduced };
  const branch = mainContentBranch(
    tree,
    reduced,
    options.branch === "words" ? subtreeWords(page, tree) : undefined,
  );
  const inBranch = reduced.filter((r) => r !== branch && contains(tree, branch, r));
  return { occurrences, candidates, reduced, branch, inBranch, main: mergeSiblings(tree, inBranch) };
}

/** Algorithm 2: candidates whose parent is not a candidate, in document order. */
export function reduceCandidates(tree: Tree, isCand: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < tree.n; i++) {
    const p = tree.parent[i] as number;
    if (isCand[i] === 1 && (p < 0 || isCand[p] === 0)) out.push(i);
  }
  return out;
}

/**
 * Algorithm 3: the parent of a reduced node with the largest subtree; first in DFS on ties.
 * Size is the node count (the paper), or with `weights` the sum of a per-node weight over the
 * subtree (our `branch=words` variant: visible words, so a node-heavy widget does not beat
 * the article body).
 */
export function mainContentBranch(tree: Tree, reduced: readonly number[], weights?: Float64Array): number {
  let branch = -1;
  let count = 0;
  for (const r of reduced) {
    const p = tree.parent[r] as number;
    if (p < 0) continue;
    const size = weights ? (weights[p] as number) : (tree.end[p] as number) - p;
    if (size > count || (size === count && p < branch)) {
      branch = p;
      count = size;
    }
  }
  return branch;
}

/** Algorithm 5: replace siblings by their parent, deepest first, until no two share a parent. */
export function mergeSiblings(tree: Tree, nodes: readonly number[]): number[] {
  const set = new Set(nodes);
  const byDepth = new Map<number, number[]>();
  let maxDepth = 0;
  for (const v of set) {
    const d = tree.depth[v] as number;
    (byDepth.get(d) ?? byDepth.set(d, []).get(d)!).push(v);
    if (d > maxDepth) maxDepth = d;
  }
  for (let d = maxDepth; d > 0; d--) {
    const groups = new Map<number, number[]>();
    for (const v of byDepth.get(d) ?? []) {
      if (!set.has(v)) continue;
      const p = tree.parent[v] as number;
      (groups.get(p) ?? groups.set(p, []).get(p)!).push(v);
    }
    for (const [p, kids] of groups) {
      if (kids.length < 2) continue;
      for (const k of kids) set.delete(k);
      if (!set.has(p)) {
        set.add(p);
        (byDepth.get(d - 1) ?? byDepth.set(d - 1, []).get(d - 1)!).push(p);
      }
    }
  }
  return [...set].sort((a, b) => a - b);
}

function siteTrace(page: PageSnapshot, tree: Tree, r: SiteLevelResult): TraceEntry[] {
  const trace = new BoundedTrace(page, tree);
  const kept = new Set(r.inBranch);
  for (const node of r.reduced) {
    if (!kept.has(node))
      trace.add(
        "alg4-branch",
        node,
        "drop",
        `candidate outside the main-content branch${r.branch >= 0 ? ` (node ${r.branch})` : ""}`,
      );
  }
  if (r.branch >= 0)
    trace.add(
      "alg3-branch",
      r.branch,
      "keep",
      "main-content branch: parent of a candidate with the largest subtree",
      (tree.end[r.branch] as number) - r.branch,
    );
  const main = new Set(r.main);
  for (const node of r.inBranch)
    if (!main.has(node))
      trace.add("alg5-merge", node, "keep", "merged with its sibling candidates into their parent");
  for (const node of r.main)
    trace.add(
      "main-content",
      node,
      "keep",
      kept.has(node) ? "candidate in the main-content branch" : "parent of sibling candidates",
    );
  return trace.finish();
}

function equalityParam(v: unknown): EqualityMode {
  if (v === undefined) return DEFAULT_EQUALITY;
  if (v === "attributes" || v === "id" || v === "tag") return v;
  throw new Error(`${METHOD}: equality must be attributes, id or tag, got "${String(v)}"`);
}

async function extractSite(page: PageSnapshot, context: ExtractorContext = {}): Promise<Extraction> {
  const tree = buildTree(page);
  const bad = unusablePage(page, tree);
  if (bad) return emptyExtraction(METHOD, bad);
  const nset = await chooseNSet(page, tree, context);
  const head: TraceEntry = {
    step: "n-set",
    node: -1,
    path: "",
    action: "keep",
    reason: `n-SET from ${nset.source}: ${nset.note}`,
    text: nset.pages
      .map((p) => p.url ?? p.id)
      .join(" ")
      .slice(0, 200),
  };
  if (nset.pages.length === 0) {
    if (context.params?.["fallback"] === true) {
      const fb = await featureExtractor.extract(page, context);
      return { ...fb, method: METHOD, model: "fallback: feature-extractor", trace: [head, ...fb.trace] };
    }
    return emptyExtraction(
      METHOD,
      "site needs other pages of the same site (SiteContext, or --param live=true for a page with a URL); none given",
      [head],
    );
  }
  const equality = equalityParam(context.params?.["equality"]);
  const branch = context.params?.["branch"] === "words" ? "words" : "nodes";
  const r = siteLevelMainContent(page, tree, nset.pages, { equality, branch });
  head.reason += `; ${r.candidates} candidate nodes, ${r.reduced.length} reduced`;
  if (r.main.length === 0)
    return emptyExtraction(
      METHOD,
      "every content node of the key page also occurs in the n-SET (template only)",
      [head],
    );
  return extractionOf(
    page,
    tree,
    METHOD,
    r.main,
    [head, ...siteTrace(page, tree, r)],
    `n=${nset.pages.length}`,
  );
}

export const siteLevelExtractor: Extractor = {
  name: METHOD,
  description:
    "Site-level main content: ETDM occurrence counters over an n-SET, branch detection (Alarte et al., WISE 2018)",
  needsSite: true,
  extract: extractSite,
};

registerExtractor(siteLevelExtractor);
