/**
 * What markup alone hides: never-rendered elements, the `hidden` attribute, aria-hidden and an
 * inline display:none / visibility:hidden. Pure predicates on snapshot nodes, read by the static
 * renderer, the hid_* features and the learned pipeline's markup-hidden view.
 */
import type { SnapshotNode } from "../types.ts";

/** Elements that are never rendered. */
export const NON_RENDERED_TAGS: ReadonlySet<string> = new Set([
  "head",
  "script",
  "style",
  "template",
  "meta",
  "link",
  "title",
  "base",
]);

/** An inline style that hides its element (static mode has no other CSS). */
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/** Hidden whatever a script would do: non-rendered head elements and hidden inputs. */
export function neverRendered(tag: string, attrs: Record<string, string>): boolean {
  return NON_RENDERED_TAGS.has(tag) || (tag === "input" && attrs["type"]?.toLowerCase() === "hidden");
}

/** Bits of markupHiding. */
export const HIDDEN_BY = { attr: 1, aria: 2, style: 4 } as const;

/**
 * Which markup hides an element by itself (HIDDEN_BY bits, 0 for none): the `hidden` attribute,
 * aria-hidden="true", an inline display:none / visibility:hidden. The static renderer's
 * visibility (static.ts) and the hid_* features (src/features/hidden.ts) both read it.
 */
export function markupHiding(attrs: Record<string, string>): number {
  let by = 0;
  if ("hidden" in attrs) by |= HIDDEN_BY.attr;
  if (attrs["aria-hidden"] === "true") by |= HIDDEN_BY.aria;
  const style = attrs["style"];
  if (style !== undefined && HIDDEN_STYLE.test(style)) by |= HIDDEN_BY.style;
  return by;
}

/**
 * A node's visibility once markup hiding is undone (a page its scripts reveal, the learned
 * pipeline's view in src/pipeline/hidden-text.ts): only never-rendered elements stay hidden.
 */
export function visibleWhenRevealed(node: SnapshotNode, parentVisible: boolean): boolean {
  return parentVisible && (node.type === 3 || !neverRendered(node.tag, node.attrs ?? {}));
}
