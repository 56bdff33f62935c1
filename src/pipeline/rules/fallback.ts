/**
 * Empty-result fallback: when no leaf segment reaches the content threshold, keep the leaf
 * segments whose P(main) is at least FALLBACK_SHARE of the page's best score, instead of
 * returning nothing. A page with visible text rarely has no main content at all: what the
 * classifier leaves empty are tiny pages (a heading and two words, a one-paragraph notice)
 * whose few blocks look like nothing it was trained on, and where keeping the best of them
 * is what a reader would call the content. trafilatura falls back to a baseline extraction in
 * the same situation; Readability retries with looser rules.
 *
 * Pages with at most FALLBACK_MAX_WORDS visible words qualify, and pages of any size routed to
 * an article model (FALLBACK_ANY_SIZE_TYPES). On a large page of another kind an empty result is
 * a decision (a pure navigation page, a shell whose content a script would load) and keeping its
 * best-scoring menu would only add noise; an article page has an article, and an empty result
 * there is a miss. Nor do notice pages (NOTICE: "404 Page Not Found", "You need to enable
 * JavaScript to run this app"): their gold is empty in wcxb-dev and cleaneval, and a crawl is
 * full of them.
 *
 * Held out, the fallback on large pages of every routed type cost wcxb-dev: pages routed to
 * listing or general whose gold is empty (shells whose items a script would load, so the static
 * text is header and footer, and home pages) lost everything, while on article-routed pages
 * pages only rose: so large pages qualify only there. On small pages it restores tiny test pages
 * ("Test", one lorem-ipsum line); measured: docs/rules.md.
 */
import type { RuleRows } from "./rule.ts";
import type { RuleContext } from "./rule.ts";
import { textOf } from "../../dom/text.ts";
import type { Tree } from "../../dom/tree.ts";
import type { PageSnapshot, TraceEntry } from "../../types.ts";
import type { Ownership } from "../own-text.ts";
import { traceTarget } from "../trace.ts";

/** A leaf is kept by the fallback when its P(main) is at least this share of the page's best. */
export const FALLBACK_SHARE = 0.5;
/** The fallback applies to pages with at most this many visible words… */
export const FALLBACK_MAX_WORDS = 100;
/** …and to pages of any size routed to these page types' models. */
export const FALLBACK_ANY_SIZE_TYPES: ReadonlySet<string> = new Set(["article"]);
/** The phrases of NOTICE_PHRASE, as its alternatives (regex source). */
const NOTICE_PHRASES = [
  "page not found",
  "not found",
  "access denied",
  "forbidden",
  "enable javascript",
  "javascript (?:is )?(?:required|disabled)",
  "turn on javascript",
  "browser (?:is )?not supported",
  "are you a robot",
  "captcha",
  "checking your browser",
];
/** What a notice page (error, JavaScript wall, bot check) says, status codes aside. */
export const NOTICE_PHRASE = new RegExp(String.raw`\b(?:${NOTICE_PHRASES.join("|")})\b`, "i");
/** Text of a notice page, status codes included: such a page gets no fallback and stays empty. */
export const NOTICE = new RegExp(String.raw`\b(?:404|403|410|500)\b|` + NOTICE_PHRASE.source, "i");

/** The notice a small page shows ("404 page not found", "enable javascript"), or null. */
export function noticeOf(page: PageSnapshot, tree: Tree, own: Ownership): string | null {
  if (own.totalWords > FALLBACK_MAX_WORDS) return null;
  const m = NOTICE.exec(textOf(page, tree, [0]));
  return m ? m[0].toLowerCase() : null;
}

/** A notice page whose kept text is dropped has at most this many visible words. */
export const NOTICE_PAGE_MAX_WORDS = 30;

/**
 * Notice pages stay empty even when the classifier keeps their text: a page of at most
 * NOTICE_PAGE_MAX_WORDS words that says "Page not found", "Access denied" or "enable JavaScript"
 * (NOTICE_PHRASE: a bare status code is not enough here, "500 people came" is prose)
 * has no main content (such pages' gold is empty in wcxb-dev and cleaneval), and a crawl is full
 * of them.
 * Clears `keep` in place; returns the trace.
 */
export function dropNoticePage(rows: RuleRows): TraceEntry[] {
  const { page, tree, nodes, own, keep } = rows;
  if (own.totalWords > NOTICE_PAGE_MAX_WORDS || !keep.some((k) => k === 1)) return [];
  const m = NOTICE_PHRASE.exec(textOf(page, tree, [0]));
  if (!m) return [];
  const trace: TraceEntry[] = [];
  for (let r = 0; r < keep.length; r++) {
    if (keep[r] !== 1 || (own.ownWords[r] as number) === 0) continue;
    keep[r] = 0;
    trace.push({
      step: "notice-rule",
      ...traceTarget(page, tree, nodes[r] as number),
      action: "drop",
      reason: `a ${own.totalWords}-word notice page ("${m[0].toLowerCase()}"), not content`,
    });
  }
  return trace;
}

/** What the fallback reads: the page's rows, their scores and keep mask, and the routed type. */
export type FallbackInput = Pick<
  RuleContext,
  "page" | "tree" | "nodes" | "own" | "scores" | "keep" | "pageType"
>;

/**
 * Applies the fallback in place on `keep` when nothing is kept (see the header); returns the
 * trace of what it restored.
 */
export function keepBestWhenEmpty({
  page,
  tree,
  nodes,
  own,
  scores,
  keep,
  pageType,
}: FallbackInput): TraceEntry[] {
  if (
    (own.totalWords > FALLBACK_MAX_WORDS && !FALLBACK_ANY_SIZE_TYPES.has(pageType)) ||
    keep.some((k) => k === 1)
  )
    return [];
  if (noticeOf(page, tree, own) !== null) return [];
  let best = 0;
  for (let r = 0; r < scores.length; r++)
    if ((own.ownWords[r] as number) > 0 && (scores[r] as number) > best) best = scores[r] as number;
  if (best <= 0) return [];
  const floor = best * FALLBACK_SHARE;
  const trace: TraceEntry[] = [];
  for (let r = 0; r < scores.length; r++) {
    if ((own.ownWords[r] as number) === 0 || (scores[r] as number) < floor) continue;
    keep[r] = 1;
    trace.push({
      step: "fallback",
      ...traceTarget(page, tree, nodes[r] as number),
      action: "keep",
      reason:
        `nothing reached the threshold on a ${own.totalWords}-word page: ` +
        `kept P(main)=${(scores[r] as number).toFixed(3)} ≥ ${FALLBACK_SHARE} × best ${best.toFixed(3)}`,
      score: scores[r] as number,
    });
  }
  return trace;
}
