/**
 * Path signatures: a 32-bit hash of the tags and class names on the path from the document root
 * to a node. Nodes a template stamps out share one (the paragraphs of every forum post, the
 * title of every product card, every link of a menu), so the context stage (context.ts) can ask
 * what stage 1 decided about the *other* leaves with this leaf's path, wherever they are on the
 * page: the tag-path idea of the Site Style Tree (Yi, Liu & Li, KDD 2003) and of wrapper
 * induction, used here within one page. None of the four papers has it.
 *
 * Choices:
 * - A path step is the element's record signature (src/dom/records.ts signatureId): its tag and
 *   its class tokens, lower-cased, sorted, with digits removed ("post-1234 Post" and "post
 *   post-98" are one step): generated ids and counters differ between copies of one template,
 *   the names do not. Ids are left out for the same reason. (Keeping the class names' case
 *   split a few labeled pages' templates into other groups.)
 * - Text nodes take their parent's signature; the root's parent contributes seed 0.
 * - A step's id (memoised across pages) is mixed into the parent's signature (murmur3's
 *   finaliser): one pass over the snapshot in document order (parents precede children), no
 *   recursion, so 10,000-level pages are safe. A collision merges two paths' statistics, which
 *   at 32 bits is rare on one page. Only equality within a page matters, never the values.
 * The same-path features lift collections, forums and listings at a small cost on products and
 * dragnet; tags-only paths did about as well (measured: docs/classifiers.md).
 */
import { pageSignatureIds, signatureIds } from "../../dom/records.ts";
import type { Tree } from "../../dom/tree.ts";
import type { PageSnapshot } from "../../types.ts";

/** The parent's signature mixed with a step's id (murmur3 fmix32 over their combination). */
function chain(parent: number, step: number): number {
  let x = (Math.imul(parent, 0x9e3779b1) ^ step) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * The path signature of every snapshot node (text nodes: their parent's). `ids`: the nodes'
 * signature ids (src/dom/records.ts signatureIds), when the caller already has them.
 */
export function pathSignatures(page: PageSnapshot, ids: Int32Array = signatureIds(page)): Uint32Array {
  const n = page.nodes.length;
  const sig = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const node = page.nodes[i];
    if (!node) continue;
    const parent = node.parent >= 0 ? (sig[node.parent] as number) : 0;
    if (node.type !== 1) {
      sig[i] = parent;
      continue;
    }
    sig[i] = chain(parent, ids[i] as number);
  }
  return sig;
}

/** The path signature of each row (structural node indices `nodes`). */
export function rowPathSignatures(page: PageSnapshot, tree: Tree, nodes: Int32Array): Uint32Array {
  const all = pathSignatures(page, pageSignatureIds(page, tree));
  const out = new Uint32Array(nodes.length);
  for (let r = 0; r < nodes.length; r++) out[r] = all[nodes[r]!]!;
  return out;
}
