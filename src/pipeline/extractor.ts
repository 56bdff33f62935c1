/**
 * The "ml" extractor: resolve the model for the page (--model, a per-domain model for the
 * page's URL or, for a saved page without one, its canonical URL, or the bundled default for
 * the render mode; resolve.ts), run the learned pipeline (run.ts) and
 * say in Extraction.model which model was used and why. pipelineExtractor makes such an
 * extractor for any method of the pipeline's pieces (louvan.ts: its own options and model).
 *
 * The context's typed fields choose the model (mode, model, modelDir: ExtractorContext) and the
 * trace. Params: pageType (force a page-type model), comments (drop: remove comment sections from
 * article pages, comments.ts; default keep), reviews (keep: product pages keep their customer-review
 * sections, reviews.ts; default drop), dedupe (false: keep blocks that repeat an earlier
 * kept block, dedupe.ts; default true), containment (false: keep blocks whose words are mostly in
 * the rest of the kept text, containment.ts; default true), teasers (false: keep related-link lists
 * on article pages, teasers.ts; default true), fallback (false: an empty result stays empty on small
 * pages too, fallback.ts; default true), docFill (false: a page the router finds documentation-like
 * is not filled to its main region, documentation.ts; default true), context (false: decide on the content classifier's
 * scores alone, without the model's context stage, context.ts; default true), bias (precision or
 * recall: move the decision threshold by run.ts BIAS_OFFSET; default as tuned).
 */
import type {
  Extraction,
  ExtractorContext,
  Extractor,
  PageSnapshot,
  RenderMode,
  SiteContext,
} from "../types.ts";
import { existsSync } from "node:fs";
import { SITE_MIN_PAGES } from "../io/site-group.ts";
import { SITE_MAX_OTHERS } from "../features/site.ts";
import { ModelLoadError } from "../ml/artifact.ts";
import { cachedModel, loadedModel, resolveModelFile, type Resolution } from "./model/resolve.ts";
import { GENERAL, METHOD, modelView, runPipeline } from "./run.ts";
import { BIASES, type RunOptions } from "./options.ts";
import { REFINER_NAMES, type PipelineModel } from "./model/model.ts";

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

const KEEP_OR_DROP = ["keep", "drop"] as const;
const ON_OR_OFF = ["on", "off"] as const;

/**
 * Param `name` when it is one of `values` (undefined when not given);
 * anything else throws, naming what it may be.
 */
function choice<T extends string>(
  params: NonNullable<ExtractorContext["params"]>,
  name: string,
  values: readonly T[],
  allowed = values.join(" or "),
): T | undefined {
  const v = str(params[name]);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v))
    throw new Error(`--param ${name} must be ${allowed}, not "${v}"`);
  return v as T;
}

/** On/off params (true or false; the CLI's --param K=V reads those words as booleans). */
const SWITCHES = ["dedupe", "containment", "teasers", "fallback", "context", "hidden", "docFill"] as const;
/**
 * Every param the method reads: a name outside this list is a typo (`comment=drop`), not silently nothing.
 */
export const ML_PARAMS: readonly string[] = [
  ...SWITCHES,
  "comments",
  "reviews",
  "refiner",
  "bias",
  "pageType",
  "segments",
];

/**
 * The page's site context when the site-aware model reads it: a site model is given
 * (ExtractorContext.siteModel) and the page comes with at least SITE_MIN_PAGES - 1 other pages of
 * its site; else undefined (the single-page model, no site features).
 */
function siteFor(context: ExtractorContext): SiteContext | undefined {
  const site = context.site;
  return str(context.siteModel) && site && site.pages.length >= SITE_MIN_PAGES - 1 ? site : undefined;
}

/** The pipeline's options from the context (its trace switch and params); throws on a value it cannot use. */
export function runOptionsFrom(context: ExtractorContext): RunOptions {
  const params = context.params ?? {};
  for (const k of SWITCHES) {
    const v = params[k];
    if (v !== undefined && typeof v !== "boolean")
      throw new Error(`--param ${k} must be true or false, not "${String(v)}"`);
  }
  const options: RunOptions = {};
  if (context.trace === false) options.trace = false;
  if (params["dedupe"] === false) options.dedupe = false;
  if (params["containment"] === false) options.containment = false;
  if (params["teasers"] === false) options.teasers = false;
  if (params["fallback"] === false) options.fallback = false;
  if (params["context"] === false) options.context = false;
  if (params["hidden"] === false) options.hiddenText = false;
  if (params["docFill"] === false) options.docFill = false;
  const comments = choice(params, "comments", KEEP_OR_DROP);
  if (comments) options.comments = comments;
  const reviews = choice(params, "reviews", KEEP_OR_DROP);
  if (reviews) options.reviews = reviews;
  const refiner = choice(params, "refiner", REFINER_NAMES, `one of ${REFINER_NAMES.join(", ")}`);
  if (refiner) options.refiner = refiner;
  const segments = choice(params, "segments", ON_OR_OFF);
  if (segments) options.segments = segments;
  const bias = choice(params, "bias", BIASES);
  if (bias) options.bias = bias;
  const pageType = str(params["pageType"]);
  if (pageType) options.pageType = pageType;
  const site = siteFor(context);
  if (site) options.site = site;
  return options;
}

interface ModelChoice {
  choice: Resolution;
  loaded: PipelineModel;
}

/** A page's model choice: the model once it is loaded (`now`), the promise of it until then. */
interface Chosen {
  key: string;
  model: Promise<ModelChoice>;
  now?: ModelChoice;
}

/**
 * What makes a method of the learned pipeline: its name and params, the run options its params
 * give, and where its model comes from when --model names none.
 */
export interface PipelineMethod {
  name: string;
  description: string;
  knownParams: readonly string[];
  /** The pipeline's options from the context (throws on a param value it cannot use). */
  options(context: ExtractorContext): RunOptions;
  /** The page's model file (and why) when the context names none. */
  resolve(url: string | null, mode: RenderMode, context: ExtractorContext): Resolution;
  /** Why there is no model to run on before a batch (the model file it would use is missing), or null. */
  missing(file: string, mode: RenderMode, context: ExtractorContext): string | null;
}

/**
 * The last model choice per method and snapshot, with the params that made it: runExtractor asks
 * `view` and then `extract` for one page, and the choice (an existsSync per candidate domain) is
 * made once for both.
 */
const CHOSEN = new Map<string, WeakMap<PageSnapshot, Chosen>>();

/** The page's model (method.resolve), loaded once. */
function modelFor(method: PipelineMethod, page: PageSnapshot, context: ExtractorContext): Chosen {
  const mode = context.mode ?? page.mode;
  const siteModel = siteFor(context) ? str(context.siteModel) : undefined;
  const key = [mode, str(context.model) ?? "", str(context.modelDir) ?? "", siteModel ?? ""].join("\u0000");
  let memos = CHOSEN.get(method.name);
  if (!memos) CHOSEN.set(method.name, (memos = new WeakMap()));
  const memo = memos.get(page);
  if (memo?.key === key) return memo;
  const choice = method.resolve(page.url ?? page.meta?.canonicalUrl ?? null, mode, context);
  const ready = loadedModel(choice.file, mode);
  const now = ready ? { choice, loaded: ready } : undefined;
  const chosen: Chosen = {
    key,
    model: now
      ? Promise.resolve(now)
      : cachedModel(choice.file, mode).then((loaded) => (chosen.now = { choice, loaded })),
  };
  if (now) chosen.now = now;
  memos.set(page, chosen);
  return chosen;
}

/**
 * A page read with `others` other pages of its site: its per-domain model when it has one (trained
 * with `--site-features`, it reads them too), else the site-aware model; `why` says how many pages
 * the site features compared it with.
 */
function siteResolution(single: Resolution, siteModel: string, others: number): Resolution {
  const compared = `site: ${Math.min(others, SITE_MAX_OTHERS)} other pages`;
  return single.why.startsWith("domain:")
    ? { ...single, why: `${single.why}, ${compared}` }
    : { file: siteModel, why: compared };
}

/**
 * `use` on the page's model: at once when the model is loaded, so that the work runs inside the
 * caller's synchronous call and its time limit (time-limit.ts); after the load otherwise.
 */
function withModel<T>(
  method: PipelineMethod,
  page: PageSnapshot,
  context: ExtractorContext,
  use: (m: ModelChoice) => T,
): T | Promise<T> {
  const chosen = modelFor(method, page, context);
  return chosen.now ? use(chosen.now) : chosen.model.then(use);
}

/** The Extractor that runs the learned pipeline as `method` says. */
export function pipelineExtractor(method: PipelineMethod): Extractor {
  return {
    name: method.name,
    knownParams: method.knownParams,
    description: method.description,
    /** Load the model a batch uses without a per-domain one first, so a bad model is one error, not one per page. */
    async prepare(context: ExtractorContext): Promise<void> {
      const mode = context.mode ?? "static";
      const { file } = method.resolve(null, mode, context);
      const missing = method.missing(file, mode, context);
      if (missing) throw new ModelLoadError(file, missing);
      await cachedModel(file, mode);
      const siteModel = str(context.siteModel);
      if (siteModel) await cachedModel(siteModel, mode);
    },
    checkParams(params: NonNullable<ExtractorContext["params"]>): void {
      method.options({ params });
    },
    /** The snapshot the page's model reads: with markup-hidden text for a static model (run.ts modelView). */
    view(page: PageSnapshot, context: ExtractorContext): PageSnapshot | Promise<PageSnapshot> {
      const options = method.options(context);
      return withModel(method, page, context, ({ loaded }) => modelView(loaded, page, options));
    },
    extract(page: PageSnapshot, context: ExtractorContext = {}): Extraction | Promise<Extraction> {
      const options = method.options(context);
      return withModel(method, page, context, ({ choice, loaded }) => {
        const { extraction, pageType: used } = runPipeline(loaded, page, options);
        const which =
          loaded.byType.has(used) || used === GENERAL ? `${used} model` : `general model for a ${used} page`;
        extraction.method = method.name;
        extraction.model = `${loaded.name} (${choice.why}, ${which})`;
        return extraction;
      });
    },
  };
}

export const mlExtractor: Extractor = pipelineExtractor({
  name: METHOD,
  knownParams: ML_PARAMS,
  description:
    "learned pipeline: segment + content classifiers over rendered-DOM features, page-type router, " +
    "Louvan's refiners (Louvan, 'Extracting the Main Content from HTML Documents')",
  options: runOptionsFrom,
  resolve: (url, mode, context) => {
    const model = str(context.model);
    const site = siteFor(context);
    const modelDir = str(context.modelDir);
    const dir = modelDir ? { modelDir } : {};
    if (site)
      return siteResolution(
        resolveModelFile(url, mode, dir),
        str(context.siteModel) as string,
        site.pages.length,
      );
    return resolveModelFile(url, mode, { ...(model ? { model } : {}), ...dir });
  },
  missing: (file, mode, context) =>
    str(context.model) || existsSync(file)
      ? null
      : `no bundled model for --mode ${mode} (${file}); reinstall pith ` +
        "(models/ ships default-static.json and default-chromium.json), or pass --model FILE",
});
