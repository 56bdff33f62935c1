/**
 * One page of `pith extract`, from its snapshot to the text that gets written: run the
 * extractor (through src/extractors.ts runExtractor, as `pith evaluate` does), then format the
 * extraction. The same function serves the in-thread batch and the
 * worker threads (extract-pool.ts), so both write byte-identical outputs.
 */
import { buildTree } from "../dom/tree.ts";
import { firstLine } from "../errors.ts";
import { runExtractor } from "../extractors.ts";
import { DEFAULT_OUTPUT, formatExtraction, type Format, type OutputOptions } from "../output/index.ts";
import { NO_LIMIT, TimeLimitExceeded, type Limit } from "../time-limit.ts";
import { autoTrace, type AutoDecision } from "./auto-mode.ts";
import type {
  Extraction,
  Extractor,
  ExtractorContext,
  PageError,
  PageResult,
  PageSnapshot,
} from "../types.ts";

/** What the sink needs of an extracted page: its id, the formatted output and why it is empty. */
export interface PageOutput {
  id: string;
  body: string;
  /** True when the extraction kept no text. */
  empty: boolean;
  /** The extractor's reason for an empty result, when it gave one. */
  emptyReason?: string;
  /** What was wrong with the page's bytes but did not stop it (a truncated gzip). */
  warnings?: string[];
  /**
   * The learned pipeline's model file and why it was chosen ("default-static (default)"), for the summary.
   */
  model?: string;
  /**
   * `--mode auto`: the static pass decided that Chromium should render the page (auto-mode.ts);
   * the output is not formatted and the batch renders the page again (auto-render.ts).
   */
  rerender?: AutoDecision;
}

/** The methods whose extraction names the model file they used (the learned pipeline's). */
const LEARNED = new Set(["ml", "louvan"]);

/**
 * "default-static (default, article model)" → "default-static
 * (default)": the file and why, not the page's routed type.
 */
function modelChoice(model: string): string {
  return model.replace(/, [^,()]*\)$/, ")");
}

/**
 * The extraction of one rendered page (through runExtractor's page-level checks), or an error
 * record (stage "extract", or "timeout" past `limit`) that names it.
 */
async function extractOrError(
  extractor: Extractor,
  page: PageSnapshot,
  context: ExtractorContext,
  limit: Limit,
): Promise<PageResult<Extraction>> {
  try {
    return { ok: true, value: await runExtractor(extractor, page, context, limit) };
  } catch (e) {
    return { ok: false, error: pageError(page, "extract", e, "extraction failed") };
  }
}

/** The error record of a page whose `stage` threw `e`: a timeout record when `e` is the time limit's. */
function pageError(page: PageSnapshot, stage: PageError["stage"], e: unknown, fallback: string): PageError {
  const timeout = e instanceof TimeLimitExceeded;
  return {
    id: page.id,
    source: page.source,
    stage: timeout ? "timeout" : stage,
    reason: timeout ? e.message : firstLine(e, fallback),
  };
}

/** Formats an extraction; the DOM tree is built only for the formats that walk it (not text). */
export function formatPage(
  format: Format,
  page: PageSnapshot,
  extraction: Extraction,
  output: OutputOptions = DEFAULT_OUTPUT,
): PageOutput {
  const tree = format === "text" ? null : buildTree(page);
  const body = tree ? formatExtraction(format, page, tree, extraction, output) : extraction.text;
  return {
    id: page.id,
    body,
    empty: !extraction.text,
    ...(extraction.emptyReason ? { emptyReason: extraction.emptyReason } : {}),
    ...(page.warnings ? { warnings: page.warnings } : {}),
    ...(LEARNED.has(extraction.method) && extraction.model ? { model: modelChoice(extraction.model) } : {}),
  };
}

/**
 * A rendered page (or its render error) → its output (or an error record); the synchronous work
 * runs under `limit` (time-limit.ts).
 */
export function pageOutput(
  rendered: PageResult<PageSnapshot>,
  extractor: Extractor,
  context: ExtractorContext,
  format: Format,
  output: OutputOptions = DEFAULT_OUTPUT,
  limit: Limit = NO_LIMIT,
): Promise<PageResult<PageOutput>> {
  return outputOf(rendered, extractor, context, { format, output, limit });
}

/** How an extraction becomes a page's output. */
export interface OutputPlan {
  format: Format;
  output: OutputOptions;
  limit: Limit;
  /**
   * `--mode auto`'s decision on the page, recorded first in its trace; a static page it sends to
   * Chromium comes back unformatted, with PageOutput.rerender.
   */
  auto?: (page: PageSnapshot, extraction: Extraction) => AutoDecision;
}

/** pageOutput with an OutputPlan. */
export async function outputOf(
  rendered: PageResult<PageSnapshot>,
  extractor: Extractor,
  context: ExtractorContext,
  plan: OutputPlan,
): Promise<PageResult<PageOutput>> {
  if (!rendered.ok) return rendered;
  const page = rendered.value;
  const extraction = await extractOrError(extractor, page, context, plan.limit);
  if (!extraction.ok) return extraction;
  const decision = plan.auto?.(page, extraction.value);
  if (decision?.render && page.mode === "static")
    return { ok: true, value: { id: page.id, body: "", empty: !extraction.value.text, rerender: decision } };
  if (decision) extraction.value.trace.unshift(autoTrace(decision));
  try {
    return {
      ok: true,
      value: plan.limit.run(() => formatPage(plan.format, page, extraction.value, plan.output)),
    };
  } catch (e) {
    return { ok: false, error: pageError(page, "output", e, "formatting failed") };
  }
}
