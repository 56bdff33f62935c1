/**
 * `--mode auto`: every page is read with the static parser first; Chromium renders only the pages
 * whose static pass says the snapshot lost their content. The decision is made from what the static
 * pass already has (its snapshot and extraction), so a page that stays static costs one word
 * count more than `--mode static`.
 *
 * A page is rendered when
 * - it shows no word but carries scripts that may build it (an application shell), and the user
 *   allowed JavaScript (`--js`): without it Chromium would show the same empty page;
 * - or the static extraction kept less than AUTO_MAX_KEPT_SHARE of the words the page shows
 *   (none at all included): the static snapshot most likely lost or misplaced the content.
 *
 * The threshold was fitted on wcxb-dev's site-grouped folds (`npm run cv:auto`: chosen on two
 * folds' pages, scored on the third's) against the Chromium model's held-out output on the same
 * pages; docs/render.md has the measurement. A fewest-kept-words threshold was tried too: it
 * gained less for as many pages rendered.
 */
import { codeScripts } from "../dom/no-text.ts";
import { wordCount } from "../dom/text.ts";
import type { Extraction, PageSnapshot, TraceEntry } from "../types.ts";

/**
 * A static extraction that kept less than this share of the page's visible words is re-done in
 * Chromium. Held out on wcxb-dev (`npm run cv:auto`, thresholds 0.01 … 0.3) the best share over
 * both seeds' pages: +0.0049 word F1 at seed 42 and +0.0009 at seed 7 for 1.3 % and 1.0 % of the
 * pages rendered; 0.15, the best at seed 42 alone, lost 0.0006 at seed 7.
 */
export const AUTO_MAX_KEPT_SHARE = 0.075;

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
  const kept = `static extraction kept ${s.keptWords} of ${s.visibleWords} visible words`;
  if (s.keptWords < AUTO_MAX_KEPT_SHARE * s.visibleWords)
    return { render: true, reason: `${kept} (< ${100 * AUTO_MAX_KEPT_SHARE} %): rendered in Chromium` };
  return { render: false, reason: `${kept}: not rendered` };
}

/** The trace entry that records the decision. */
export function autoTrace(decision: AutoDecision): TraceEntry {
  return { step: AUTO_STEP, node: -1, path: "", action: "keep", reason: decision.reason, text: "" };
}
