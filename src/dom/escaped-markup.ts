/**
 * Escaped markup inside <noscript>: some pages (and serializers that ran with scripting on, such
 * as JSDOM, which wrote readability's test pages) carry `&lt;img src=…&gt;` as text in a
 * <noscript>. With JavaScript off a browser shows that text literally, but it is a tracking
 * pixel or an image fallback, never the page's prose: 11 readability pages, 2 dragnet and 1
 * cleaneval page have it (one readability page kept so many pixel URLs beside the article that
 * its word F1 fell to 0.16). A text node directly in a <noscript> that starts like a tag is made
 * invisible.
 * Both renderers apply it to the finished node list.
 */
import type { SnapshotNode } from "../types.ts";

/** Text that starts like an HTML tag, comment or end tag. */
const STARTS_LIKE_MARKUP = /^\s*<(?:[a-z][a-z0-9-]*[\s/>]|!--|\/[a-z])/i;

/** Is `node` a text node of escaped markup directly in a <noscript>? */
export function isEscapedNoscriptMarkup(nodes: readonly SnapshotNode[], node: SnapshotNode): boolean {
  return (
    node.type === 3 &&
    node.parent >= 0 &&
    nodes[node.parent]?.tag === "noscript" &&
    STARTS_LIKE_MARKUP.test(node.text ?? "")
  );
}

/** Hides escaped markup text in <noscript> (in place); returns how many text nodes it hid. */
export function hideEscapedNoscriptMarkup(nodes: SnapshotNode[]): number {
  let hidden = 0;
  for (const node of nodes) {
    if (!node.visible || !isEscapedNoscriptMarkup(nodes, node)) continue;
    node.visible = false;
    hidden++;
  }
  return hidden;
}
