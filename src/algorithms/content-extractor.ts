/**
 * `content-extractor` — Debnath, Mitra, Giles, "Automatic Extraction of Informative Blocks
 * from Webpages" (SAC 2005), §3.1 and Algorithm 1 (ContentExtractor).
 *
 * GetBlockSet on the key page and on other pages of its class (same site), SIM = cosine of
 * block feature vectors with ε = 0.9, IBDF(b) = 1/(1 + pages holding a similar block)
 * (src/site/ibdf.ts), output every block with IBDF > θ that has content. θ = 0.5: only blocks
 * that occur in no other page survive (§3.1: "blocks that occur only in one page are
 * identified as content-blocks").
 *
 * Pages of the class: ExtractorContext.site, at most `pages` of them (default
 * DEFAULT_CLASS_SIZE; Table 4: "very few (5-10) pages from same class are enough"), ranked as
 * Alarte's n-SET (src/site/nset.ts) so pages of the same section come first. Params:
 * pages, tags (paper|default|feature|list; default DEFAULT_TAG_SET), fallback (run
 * feature-extractor when no site pages are given).
 */
import type { Extraction, Extractor, ExtractorContext, PageSnapshot, TraceEntry } from "../types.ts";
import { registerExtractor } from "../extractors.ts";
import { buildTree } from "../dom/tree.ts";
import { DEFAULT_TAG_SET, blockFeature, tagSetParam } from "../site/block-set.ts";
import { blockIbdf, SIMILARITY_EPSILON } from "../site/ibdf.ts";
import { rankSitePages } from "../site/nset.ts";
import {
  BoundedTrace,
  chosenSubtrees,
  emptyExtraction,
  extractionOf,
  positiveIntParam,
  unusablePage,
} from "../site/extraction.ts";
import { featureExtractor } from "./feature-extractor.ts";

export const METHOD = "content-extractor";
/** Keep blocks with IBDF above this (0.5 = similar block in no other page). */
export const IBDF_THRESHOLD = 0.5;
/** Other pages of the class compared with by default (Debnath Table 4: 5-10 suffice). */
export const DEFAULT_CLASS_SIZE = 10;

function extractContent(
  page: PageSnapshot,
  context: ExtractorContext = {},
): Extraction | Promise<Extraction> {
  const tree = buildTree(page);
  const bad = unusablePage(page, tree);
  if (bad) return emptyExtraction(METHOD, bad);
  const params = context.params ?? {};
  const others = (context.site?.pages ?? []).filter((p) => p !== page);
  if (others.length === 0) {
    if (params["fallback"] === true) return fallback(page, context);
    return emptyExtraction(
      METHOD,
      "content-extractor needs other pages of the same site (SiteContext); none given",
    );
  }
  const size = positiveIntParam(METHOD, "pages", params["pages"], DEFAULT_CLASS_SIZE);
  const cls = rankSitePages(page, tree, others)
    .slice(0, size)
    .map((r) => r.page);
  const tags = tagSetParam(params["tags"], DEFAULT_TAG_SET);
  const r = blockIbdf(page, tree, cls, { tags });
  const nb = r.blocks.roots.length;
  const chosen = new Uint8Array(nb);
  const head: TraceEntry = {
    step: "class",
    node: -1,
    path: "",
    action: "keep",
    reason:
      `compared with ${cls.length} of ${others.length} site pages, ` +
      `ε=${SIMILARITY_EPSILON}, θ=${IBDF_THRESHOLD}`,
    text: "",
  };
  const trace = new BoundedTrace(page, tree);
  for (let b = 0; b < nb; b++) {
    const hasContent = (r.blocks.terms[b]?.length ?? 0) > 0 || blockFeature(r.blocks, b, "images") > 0;
    if (!hasContent) continue;
    const keep = (r.ibdf[b] as number) > IBDF_THRESHOLD;
    if (keep) chosen[b] = 1;
    const why = keep
      ? "no similar block in the other pages"
      : `similar block in ${r.similarPages[b]} of ${cls.length} other pages`;
    trace.add("ibdf", r.blocks.roots[b] as number, keep ? "keep" : "drop", why, r.ibdf[b]);
  }
  const nodes = chosenSubtrees(page, tree, r.blocks.blockOf, chosen);
  const entries = [head, ...trace.finish()];
  if (nodes.length === 0)
    return emptyExtraction(
      METHOD,
      "every block with content also occurs in other pages of the site",
      entries,
    );
  return extractionOf(page, tree, METHOD, nodes, entries, `pages=${cls.length}`);
}

async function fallback(page: PageSnapshot, context: ExtractorContext): Promise<Extraction> {
  const fb = await featureExtractor.extract(page, context);
  const note: TraceEntry = {
    step: "fallback",
    node: -1,
    path: "",
    action: "keep",
    reason: "no site pages given: single-page FeatureExtractor",
    text: "",
  };
  return { ...fb, method: METHOD, model: "fallback: feature-extractor", trace: [note, ...fb.trace] };
}

export const contentExtractor: Extractor = {
  name: METHOD,
  description:
    "Blocks that occur in no other page of the site: IBDF with cosine similarity ε=0.9 (Debnath et al., SAC 2005)",
  needsSite: true,
  extract: extractContent,
};

registerExtractor(contentExtractor);
