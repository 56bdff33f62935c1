/**
 * Pages whose scripts reveal them, for both renderers (static: hidden by markup; Chromium with
 * JavaScript off: hidden by the page's CSS, which the scripts would have changed). When all but
 * REVEAL_VISIBLE_SHARE of a page's words are hidden (and it has at least REVEAL_MIN_WORDS), the
 * hiding is a script's starting state, not the reader's view: Next.js anti-flicker wrappers
 * (`<div style="visibility:hidden">` around the whole page), <main aria-hidden="true"> behind a
 * modal that is open until a script runs, a forum page inside an aria-hidden off-canvas
 * container, store content in `display:none` until a script shows it. Such a page is read with
 * only the never-rendered elements hidden. Measured (static): 14 of 4,691 training pages qualify
 * (8 wcxb-dev, 6 harvest-forums), most of which scored next to nothing unrevealed (their gold is
 * in the hidden part); a page whose display:none form wrappers hold most of its words loses
 * (measured: docs/render.md).
 */
import type { SnapshotNode } from "../types.ts";
import { visibleWhenRevealed } from "../dom/hiding.ts";

export const REVEAL_VISIBLE_SHARE = 0.2;
export const REVEAL_MIN_WORDS = 50;

function wordCount(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/**
 * Whether the rule above applies: fewer than REVEAL_VISIBLE_SHARE of the page's words visible,
 * and at least REVEAL_MIN_WORDS words. The hidden words are counted first, then the visible ones
 * only until they reach the share, which more visible words cannot undo: on most pages a few
 * visible text nodes settle it (the words of every text node were counted before: 0.15 ms on a
 * wcxb-dev page).
 */
function mostlyHidden(nodes: readonly SnapshotNode[]): boolean {
  let hidden = 0;
  for (const n of nodes) {
    if (n.type === 3 && !n.visible && n.text) hidden += wordCount(n.text);
  }
  let visible = 0;
  for (const n of nodes) {
    if (n.type !== 3 || !n.visible || !n.text) continue;
    visible += wordCount(n.text);
    if (visible >= REVEAL_VISIBLE_SHARE * (visible + hidden)) return false;
  }
  const all = visible + hidden;
  return all >= REVEAL_MIN_WORDS && visible < REVEAL_VISIBLE_SHARE * all;
}

/** Applies the rule above in place; true when the page was revealed. */
export function revealScriptHiddenPage(nodes: SnapshotNode[]): boolean {
  if (!mostlyHidden(nodes)) return false;
  for (const n of nodes) {
    n.visible = visibleWhenRevealed(n, n.parent < 0 ? true : (nodes[n.parent] as SnapshotNode).visible);
  }
  return true;
}
