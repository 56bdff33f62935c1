/**
 * `lbs`, `sls`, `tp` — Louvan, "Extracting the Main Content from HTML Documents", §2.3, run on
 * the whole page instead of on the content classifier's output (the paper's CS+LBS / CS+TP
 * combine them; src/refine/ holds the refiners both uses share). The page's visible text under
 * <body> (or the root when there is no body) is cut into text blocks (src/refine/blocks.ts) and
 * the refiner keeps some of them.
 *
 * Params (`--param K=V`): sls: radius (default SLS_RADIUS), stdOf = raw | smoothed;
 * lbs: countLinks (default false); tp: minRepeats (default TP_MIN_REPEATS), fallback = none
 * (default here: a page without repeated structure gives an empty result) | all.
 */
import { textOf } from "../dom/text.ts";
import { buildTree } from "../dom/tree.ts";
import { registerExtractor } from "../extractors.ts";
import { textBlocks, type BlockView, type RefineResult } from "../refine/blocks.ts";
import { largestBlock } from "../refine/largest-block.ts";
import { lengthSmoothing, SLS_DEFAULTS } from "../refine/length-smoothing.ts";
import { tablePattern, TP_DEFAULTS } from "../refine/table-pattern.ts";
import type { Extraction, Extractor, ExtractorContext, PageSnapshot, SnapshotNode } from "../types.ts";

type Params = NonNullable<ExtractorContext["params"]>;

function numberParam(method: string, params: Params, key: string, dflt: number): number {
  const v = params[key] === undefined ? dflt : Number(params[key]);
  if (!Number.isFinite(v))
    throw new Error(`${method}: param ${key} must be a number, got "${String(params[key])}"`);
  return v;
}

function choiceParam<T extends string>(
  method: string,
  params: Params,
  key: string,
  choices: readonly T[],
  dflt: T,
): T {
  const v = String(params[key] ?? dflt);
  if (!(choices as readonly string[]).includes(v))
    throw new Error(`${method}: param ${key} must be one of ${choices.join(", ")}, got "${v}"`);
  return v as T;
}

/** Run one refiner over the whole page's blocks and package the result. */
function wholePage(
  method: string,
  page: PageSnapshot,
  model: string,
  refine: (view: BlockView) => RefineResult,
): Extraction {
  const empty = (reason: string): Extraction => ({
    method,
    text: "",
    nodes: [],
    model,
    trace: [],
    emptyReason: reason,
  });
  if (page.nodes.length <= 1) return empty("page has a single node");
  const tree = buildTree(page);
  const body = page.nodes.findIndex((n: SnapshotNode) => n.type === 1 && n.tag === "body");
  const view = textBlocks(page, tree, [body >= 0 ? body : 0]);
  if (!view.blocks.length) return empty("no text block in the page's <body>");
  const r = refine(view);
  if (!r.nodes.length) return { ...empty(`${method} kept no block`), trace: r.trace };
  return {
    method,
    text: textOf(page, tree, r.nodes, { preformatted: true }),
    nodes: r.nodes,
    model,
    trace: r.trace,
  };
}

export const lbsExtractor: Extractor = {
  name: "lbs",
  description:
    "Largest Block of String (Louvan 2009, §2.3.1): the sibling group of text blocks with most text",
  extract(page: PageSnapshot, context: ExtractorContext = {}): Extraction {
    const countLinks = context.params?.["countLinks"] === true;
    return wholePage("lbs", page, `lbs countLinks=${countLinks}`, (v) => largestBlock(v, { countLinks }));
  },
};

export const slsExtractor: Extractor = {
  name: "sls",
  description:
    "String-Length Smoothing (Louvan 2009, §2.3.2): smoothed block lengths above their standard deviation",
  extract(page: PageSnapshot, context: ExtractorContext = {}): Extraction {
    const params = context.params ?? {};
    const radius = numberParam("sls", params, "radius", SLS_DEFAULTS.radius);
    const stdOf = choiceParam("sls", params, "stdOf", ["raw", "smoothed"] as const, SLS_DEFAULTS.stdOf);
    return wholePage("sls", page, `sls radius=${radius} stdOf=${stdOf}`, (v) =>
      lengthSmoothing(v, { radius, stdOf }),
    );
  },
};

export const tpExtractor: Extractor = {
  name: "tp",
  description:
    "Table Pattern (Louvan 2009, §2.3.3): the repeated sibling structure (forum posts) with most text",
  extract(page: PageSnapshot, context: ExtractorContext = {}): Extraction {
    const params = context.params ?? {};
    const minRepeats = numberParam("tp", params, "minRepeats", TP_DEFAULTS.minRepeats);
    const fallback = choiceParam("tp", params, "fallback", ["none", "all"] as const, "none");
    return wholePage("tp", page, `tp minRepeats=${minRepeats} fallback=${fallback}`, (v) =>
      tablePattern(v, { minRepeats, fallback }),
    );
  },
};

registerExtractor(lbsExtractor);
registerExtractor(slsExtractor);
registerExtractor(tpExtractor);
