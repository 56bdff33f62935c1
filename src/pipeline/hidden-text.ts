/**
 * Markup-hidden text as candidates. The static renderer marks invisible what markup
 * alone hides: the `hidden` attribute, aria-hidden="true", inline display:none /
 * visibility:hidden (src/render/static.ts). That is what a reader sees before any script runs,
 * and the other extractors read it so. But collapsed accordions, inactive tabs and FAQ answers
 * are hidden that way too, and WCXB's annotators kept them: on wcxb-dev 13.5 % of the 148,114
 * markup-hidden words are gold (service pages 29 %, collections 17.5 %, products 7 %; forums
 * 0.1 %), so a pipeline that never sees them caps its recall (most on service pages, products and
 * collections). On the other sets such text is almost never gold (dragnet 3 of 82,416 words,
 * utomo-big9 1 of 33,790).
 *
 * So a static-mode model trained by this pith reads a *view* of the snapshot in which only the
 * never-rendered elements (head, script, style, template, hidden inputs) and escaped markup in
 * <noscript> stay hidden, and the hid_* features (src/features/hidden.ts) say which markup hid a
 * node: the classifiers learn when such text is content. The artifact records it
 * (`extra.hiddenText: "candidates"`); a model without it reads the snapshot as rendered.
 * Chromium snapshots are never revealed: their visibility comes from the page's CSS, which
 * pith cannot undo per node.
 *
 * Measured against the same recipe without the view: docs/training.md.
 */
import { visibleWhenRevealed } from "../dom/hiding.ts";
import { isEscapedNoscriptMarkup } from "../dom/escaped-markup.ts";
import type { PageSnapshot, SnapshotNode } from "../types.ts";

/** The artifact's `extra.hiddenText` value of a model that reads markup-hidden text. */
export const HIDDEN_TEXT_CANDIDATES = "candidates";

/** Views made here: revealing one again is a no-op. */
const VIEWS = new WeakSet<PageSnapshot>();
/** The view made of each snapshot: runExtractor's check and the pipeline read one view, built once. */
const REVEALED = new WeakMap<PageSnapshot, PageSnapshot>();

/** Does a model trained on `mode` snapshots read markup-hidden text? (Static: yes.) */
export function readsHiddenText(mode: PageSnapshot["mode"]): boolean {
  return mode === "static";
}

/**
 * The snapshot with markup-hidden text visible (a new snapshot, made once per input; nodes whose
 * visibility does not change are shared with the input). Chromium snapshots are returned as they are.
 */
export function revealMarkupHidden(page: PageSnapshot): PageSnapshot {
  if (!readsHiddenText(page.mode) || VIEWS.has(page)) return page;
  const made = REVEALED.get(page);
  if (made) return made;
  const nodes = page.nodes;
  const visible = new Uint8Array(nodes.length);
  const out: SnapshotNode[] = new Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as SnapshotNode;
    const v =
      visibleWhenRevealed(node, node.parent < 0 ? true : visible[node.parent] === 1) &&
      !isEscapedNoscriptMarkup(nodes, node);
    visible[i] = v ? 1 : 0;
    out[i] = node.visible === v ? node : { ...node, visible: v };
  }
  const view = { ...page, nodes: out };
  VIEWS.add(view);
  REVEALED.set(page, view);
  return view;
}
