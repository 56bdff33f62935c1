/**
 * Silent nodes: what holds no words a reader sees. A node is silent when the renderer marks it
 * invisible or it is a NON_CONTENT_TAGS element (script, style, form controls, …), and so is
 * everything inside one. Every stage that counts a page's words (features, the learned pipeline's
 * ownership, the paper extractors, evaluation units, the page-level "no text" check) skips the
 * same nodes through these two functions.
 */
import type { SnapshotNode } from "../types.ts";
import { NON_CONTENT_TAGS } from "./blocks.ts";
import { inheritedBits } from "./tree.ts";

/** Whether the node itself silences its subtree (invisible, or a non-content element). */
export function silencesSubtree(node: SnapshotNode): boolean {
  return !node.visible || (node.type === 1 && NON_CONTENT_TAGS.has(node.tag));
}

/** Per snapshot node: 1 when it or an ancestor silences its subtree. One forward pass. */
export function silentMask(nodes: readonly SnapshotNode[]): Int32Array {
  return inheritedBits(nodes, (n) => (silencesSubtree(n) ? 1 : 0));
}
