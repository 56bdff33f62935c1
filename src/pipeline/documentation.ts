/**
 * Documentation pages keep their main region whole: the refiner of a page the router finds
 * documentation-like is `fill` (src/refine/fill.ts), unless the model ships a refiner for the
 * routed type or the run forces one.
 *
 * Why: held out, what pith loses on documentation pages lies inside the region it already keeps:
 * a chapter's table of contents, lists of links to the next pages, code blocks, a reference's
 * definition lists, numbered steps. Annotators keep a documentation page's main container whole,
 * while the classifier, deciding leaf by leaf, drops such link-heavy or short leaves. A third of
 * documentation pages are routed to another type (article, general, listing), and a misrouted one
 * loses most, so the gate is the router's documentation probability, not the routed type: the
 * page looks like documentation even when another type scores higher. Fill on every page loses
 * on forums, products and articles; gated so, it moves only pages the router sees as
 * documentation (measured: docs/refiners.md).
 */
import type { RefinerName } from "./model/model.ts";
import type { RunOptions } from "./options.ts";

/** The page type whose router probability gates the fill. */
export const DOCUMENTATION = "documentation";
/**
 * The router's one-vs-rest P(documentation) from which a page's main region is filled: the page
 * is more likely documentation than not, whichever type the router picked.
 */
export const DOC_FILL_PROBABILITY = 0.5;

/**
 * P(documentation) of a run: the router's, or 1 / 0 when the run forces the page type; NaN
 * when the model's router has no documentation type.
 */
export function documentationProbability(
  forced: string | undefined,
  probabilities: ReadonlyMap<string, number> | null,
): number {
  if (forced !== undefined) return forced === DOCUMENTATION ? 1 : 0;
  return probabilities?.get(DOCUMENTATION) ?? Number.NaN;
}

/** The refiner the run gives a page for which neither the options nor the model name one. */
export function defaultRefiner(pDocumentation: number, options: RunOptions): RefinerName {
  if (options.docFill === false) return "none";
  return pDocumentation >= (options.docFillAt ?? DOC_FILL_PROBABILITY) ? "fill" : "none";
}
