/**
 * Equal top-down mapping (ETDM) between the DOM trees of two pages of a site, and the
 * per-node occurrence counters built from it.
 *
 * Alarte, Insa, Silva, Tamarit, "Main Content Extraction from Heterogeneous Webpages"
 * (WISE 2018), §2.2 and Algorithm 1; the mapping itself is defined in their reference [3]
 * (Alarte et al., "Site-level web template extraction based on DOM analysis", PSI 2015).
 *
 * A mapping is top-down: two nodes can only be mapped when their parents are mapped to each
 * other (the roots are mapped when equal). Below a mapped pair (r1, r2), each child n1 of r1
 * is mapped to the first still-unmapped child n2 of r2 with n1 ≜ n2, in document order.
 *
 * Node equality (≜), our definition (the paper only says "equal"): same node type and tag
 * and the same *own text* — for a text node its whitespace-collapsed text, for an element the
 * collapsed text of its direct text children. Own text makes a <p> with a different sentence
 * a different node (so whole article paragraphs become candidates, as the paper's Figure 3
 * shows), while template containers whose only direct text is whitespace map across pages.
 * Attributes are not compared by default (EqualityMode "tag"): per-page classes on <body>
 * or wrappers ("single-post postid-123") would make the whole page a candidate: on the
 * multi-page sites "tag" scores best on three of four sets (on l3s-gn1 all three are within 0.01)
 * (`--param equality=tag|id|attributes`; measured: docs/site.md). `href`/`src`
 * are never compared: template links often differ by a tracking parameter.
 *
 * Everything is iterative (explicit stacks) and linear in the number of mapped children:
 * 100,000-node pages and 10,000-level nesting cost nothing special.
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { buildTree, childrenOf, type Tree } from "../dom/tree.ts";

/** Attributes that must be equal for two elements to be equal (besides tag and own text). */
export const NODE_EQUALITY_ATTRIBUTES = ["id", "class", "role", "itemprop", "type"] as const;

/**
 * Which attributes ≜ compares: "tag" (none, the default), "id" (only id) or "attributes"
 * (NODE_EQUALITY_ATTRIBUTES). Own text is compared in every mode.
 */
export type EqualityMode = "attributes" | "id" | "tag";
export const DEFAULT_EQUALITY: EqualityMode = "tag";
const MODE_ATTRIBUTES: Record<EqualityMode, readonly string[]> = {
  attributes: NODE_EQUALITY_ATTRIBUTES,
  id: ["id"],
  tag: [],
};

/** A page with its tree index and one interned equality key per node. */
export interface MappedPage {
  page: PageSnapshot;
  tree: Tree;
  /** keys[i] === keys[j] (across pages) ⇔ node i ≜ node j. */
  keys: Int32Array;
  equality: EqualityMode;
}

const KEY_IDS = new Map<string, number>();
const PREPARED = new WeakMap<PageSnapshot, Partial<Record<EqualityMode, MappedPage>>>();

function intern(key: string): number {
  let id = KEY_IDS.get(key);
  if (id === undefined) {
    id = KEY_IDS.size;
    KEY_IDS.set(key, id);
  }
  return id;
}

function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** Equality keys of every node: one pass for own texts, one to build the strings. */
export function equalityKeys(
  page: PageSnapshot,
  tree: Tree,
  equality: EqualityMode = DEFAULT_EQUALITY,
): Int32Array {
  const attrs = MODE_ATTRIBUTES[equality];
  const nodes = page.nodes;
  const ownText: string[] = new Array<string>(tree.n).fill("");
  for (let i = 0; i < tree.n; i++) {
    const node = nodes[i] as SnapshotNode;
    const p = tree.parent[i] as number;
    if (node.type === 3 && p >= 0) ownText[p] += node.text ?? "";
  }
  const keys = new Int32Array(tree.n);
  for (let i = 0; i < tree.n; i++) {
    const node = nodes[i] as SnapshotNode;
    if (node.type === 3) {
      keys[i] = intern(`#\u0000${collapse(node.text ?? "")}`);
      continue;
    }
    let key = node.tag;
    for (const a of attrs) key += `\u0000${node.attrs?.[a] ?? "\u0001"}`;
    keys[i] = intern(`${key}\u0000${collapse(ownText[i] as string)}`);
  }
  return keys;
}

/** Tree + keys for a page, computed once per snapshot object and cached. */
export function prepareForMapping(
  page: PageSnapshot,
  tree?: Tree,
  equality: EqualityMode = DEFAULT_EQUALITY,
): MappedPage {
  let byMode = PREPARED.get(page);
  if (!byMode) PREPARED.set(page, (byMode = {}));
  let prepared = byMode[equality];
  if (!prepared) {
    const t = tree ?? Object.values(byMode)[0]?.tree ?? buildTree(page);
    prepared = { page, tree: t, keys: equalityKeys(page, t, equality), equality };
    byMode[equality] = prepared;
  }
  return prepared;
}

/** Map the children of a mapped pair (r1, r2); pushes new pairs on the stack. */
function mapChildren(
  a: MappedPage,
  b: MappedPage,
  r1: number,
  r2: number,
  out: Int32Array,
  stack: number[],
): void {
  const kidsB = childrenOf(b.tree, r2);
  if (kidsB.length === 0) return;
  const queues = new Map<number, number[]>();
  for (let k = kidsB.length - 1; k >= 0; k--) {
    const c = kidsB[k] as number;
    const key = b.keys[c] as number;
    const q = queues.get(key);
    if (q) q.push(c);
    else queues.set(key, [c]);
  }
  for (const n1 of childrenOf(a.tree, r1)) {
    const n2 = queues.get(a.keys[n1] as number)?.pop(); // queues hold b's children in reverse order
    if (n2 === undefined) continue;
    out[n1] = n2;
    stack.push(n1, n2);
  }
}

/**
 * Equal top-down mapping from page `a` to page `b`: for every node of `a`, the index of the
 * node of `b` it is mapped to, or -1.
 */
export function equalTopDownMapping(
  a: PageSnapshot | MappedPage,
  b: PageSnapshot | MappedPage,
  equality: EqualityMode = DEFAULT_EQUALITY,
): Int32Array {
  const ma = "keys" in a ? a : prepareForMapping(a, undefined, equality);
  const mb = "keys" in b ? b : prepareForMapping(b, undefined, ma.equality);
  if (ma.equality !== mb.equality)
    throw new Error("equalTopDownMapping: pages prepared with different equality modes");
  const out = new Int32Array(ma.tree.n).fill(-1);
  if (ma.tree.n === 0 || mb.tree.n === 0) return out;
  if (ma.keys[0] !== mb.keys[0]) return out;
  out[0] = 0;
  const stack: number[] = [0, 0];
  while (stack.length) {
    const r2 = stack.pop() as number;
    const r1 = stack.pop() as number;
    mapChildren(ma, mb, r1, r2, out, stack);
  }
  return out;
}

/**
 * Alarte et al. Algorithm 1: per node of `page`, the number of pages in `others` where the
 * node is mapped by the equal top-down mapping (0 = the node appears only in this page).
 */
export function occurrenceCounts(
  page: PageSnapshot,
  tree: Tree,
  others: readonly PageSnapshot[],
  equality: EqualityMode = DEFAULT_EQUALITY,
): Int32Array {
  const key = prepareForMapping(page, tree, equality);
  const counts = new Int32Array(tree.n);
  for (const other of others) {
    if (other === page) continue;
    const m = equalTopDownMapping(key, prepareForMapping(other, undefined, equality));
    for (let i = 0; i < m.length; i++) if ((m[i] as number) >= 0) counts[i] = (counts[i] as number) + 1;
  }
  return counts;
}
