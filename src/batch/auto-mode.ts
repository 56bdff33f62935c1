/**
 * `--mode auto`: every page is read with the static parser first; Chromium renders only the pages
 * whose static pass says the snapshot lost their content. The decision is made from what the static
 * pass already has (its snapshot and extraction), so a page that stays static costs one word
 * count more than `--mode static`.
 *
 * A page is rendered when
 * - it shows no word but carries scripts that may build it (an application shell), and the user
 *   allowed JavaScript (`--js`): without it Chromium would show the same empty page;
 * - or the static extraction kept fewer than AUTO_MIN_WORDS words of a page that shows words.
 *
 * The threshold was fitted on wcxb-dev's site-grouped folds (`npm run cv:auto`: fitted on two
 * folds, scored on the third) against the Chromium model's held-out output on the same pages;
 * docs/render.md has the measurement.
 */
import { codeScripts } from "../dom/no-text.ts";
import { wordCount } from "../dom/text.ts";
import type { Extraction, PageSnapshot, TraceEntry } from "../types.ts";

/**
 * Below this many kept words a static extraction is re-done in Chromium. Fitted on wcxb-dev's
 * training folds (`npm run cv:auto`); a page this short in static mode is most often one whose
 * content the markup alone hides or misplaces, where Chromium's layout and computed style help.
 */
export const AUTO_MIN_WORDS = 20;

/** The step name of auto mode's trace entry (JSON output's `trace`). */
export const AUTO_STEP = "auto-mode";

/** What the static pass says about a page. */
export interface AutoSignals {
  /** Words the static extraction kept. */
  keptWords: number;
  /** Words the static snapshot shows. */
  visibleWords: number;
  /** Script elements a browser would run. */
  scripts: number;
}

/** Whether to render the page in Chromium, and why (a trace entry's reason). */
export interface AutoDecision {
  render: boolean;
  reason: string;
}

/** Words of the snapshot's visible text nodes. */
export function visibleWords(page: PageSnapshot): number {
  let n = 0;
  for (const node of page.nodes) if (node.type === 3 && node.visible && node.text) n += wordCount(node.text);
  return n;
}

export function autoSignals(page: PageSnapshot, extraction: Extraction): AutoSignals {
  return {
    keptWords: wordCount(extraction.text),
    visibleWords: visibleWords(page),
    scripts: codeScripts(page),
  };
}

/**
 * The decision from the static pass's signals; `js`: the user allowed JavaScript (`--js`), which
 * the Chromium render then runs.
 */
export function autoDecision(s: AutoSignals, js: boolean): AutoDecision {
  if (s.visibleWords === 0) {
    if (s.scripts > 0 && js)
      return {
        render: true,
        reason: `no visible word, ${s.scripts} script(s): rendered in Chromium with --js`,
      };
    const hint = s.scripts > 0 ? `, ${s.scripts} script(s) that --js would run` : "";
    return { render: false, reason: `no visible word${hint}: not rendered` };
  }
  if (s.keptWords < AUTO_MIN_WORDS)
    return {
      render: true,
      reason: `static extraction kept ${s.keptWords} word(s) (< ${AUTO_MIN_WORDS}): rendered in Chromium`,
    };
  return { render: false, reason: `static extraction kept ${s.keptWords} words: not rendered` };
}

/** The trace entry that records the decision. */
export function autoTrace(decision: AutoDecision): TraceEntry {
  return { step: AUTO_STEP, node: -1, path: "", action: "keep", reason: decision.reason, text: "" };
}
