/**
 * The extractor registry: every method `pith extract --method` and `pith evaluate --method`
 * can run, by name. Each paper's system registers here from its own file in src/algorithms/;
 * the learned pipeline registers as "ml"; the oracle (labels check) as "oracle".
 * Keep one line per extractor so parallel work does not collide.
 *
 * runExtractor is the one way a command runs a method on a page (`pith extract`,
 * `pith evaluate`): the page-level checks (a feed or a sitemap, a page without visible text;
 * src/dom/no-text.ts) are made there once, so every method gives the same empty extraction
 * and reason for such a page, and an extractor's own code only sees pages with words.
 */
import { pageEmptyReason } from "./dom/no-text.ts";
import { NO_LIMIT, type Limit } from "./time-limit.ts";
import type { Extraction, Extractor, ExtractorContext, PageSnapshot } from "./types.ts";

const REGISTRY = new Map<string, Extractor>();

export function registerExtractor(extractor: Extractor): void {
  REGISTRY.set(extractor.name, extractor);
}

/**
 * Throws on a param name `extractor` does not read (when it declares its params): `--param
 * comment=drop` for `comments` would otherwise do nothing, silently. Only for a method run
 * alone: several methods share one set of params, each reading its own.
 */
export function checkParamNames(extractor: Extractor, params: Readonly<Record<string, unknown>>): void {
  const known = extractor.knownParams;
  if (!known) return;
  const unknown = Object.keys(params).filter((k) => !known.includes(k));
  if (!unknown.length) return;
  const flags = unknown.flatMap((k) => CONTEXT_FLAGS[k] ?? []);
  throw new Error(
    `unknown --param ${unknown.map((k) => `"${k}"`).join(", ")} for ${extractor.name}; ` +
      `known: ${known.join(", ")}${flags.length ? ` (${flags.join("; ")})` : ""}`,
  );
}

/** ExtractorContext fields a command sets from flags, not from --param: what to use instead. */
const CONTEXT_FLAGS: Readonly<Record<string, string>> = {
  model: "use --model FILE",
  modelDir: "use --model-dir DIR",
  mode: "use --mode",
  trace: "the trace comes with --format json",
};

/**
 * `extractor` on one page, after the page-level checks: a document that is no page, or a page
 * that shows no word in the snapshot the method reads (Extractor.view), is an empty extraction
 * with the reason, the same for every method, and the method does not run. The synchronous
 * part of each step runs under `limit` (time-limit.ts): all of it for a method that returns its
 * extraction at once, as the ml method does once its model is loaded.
 */
export async function runExtractor(
  extractor: Extractor,
  page: PageSnapshot,
  context: ExtractorContext = {},
  limit: Limit = NO_LIMIT,
): Promise<Extraction> {
  const view = extractor.view ? await limit.run(() => extractor.view!(page, context)) : page;
  return limit.run(() => {
    const reason = pageEmptyReason(page, view);
    if (reason !== null)
      return { method: extractor.name, text: "", nodes: [], trace: [], emptyReason: reason };
    return extractor.extract(page, context);
  });
}

export function getExtractor(name: string): Extractor {
  const e = REGISTRY.get(name);
  if (!e) throw new Error(`unknown method "${name}"; known: ${[...REGISTRY.keys()].sort().join(", ")}`);
  return e;
}

export function extractorNames(): string[] {
  return [...REGISTRY.keys()].sort();
}
