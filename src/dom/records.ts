/**
 * Records: runs of same-template siblings (product cards, search results, list items, forum
 * posts). An element's signature is its tag plus its class tokens with digits removed, sorted
 * ("card card-3" and "card-7 card" match); an element is a record when at least MIN_RECORDS of
 * its parent's element children, itself included, share its signature. The region features
 * (src/features/region.ts, after MODELING-NOTES.md) count these runs; the records refiner
 * (src/refine/records.ts) votes over them. Record features of their own (run size, depth, the
 * run's share of the page and link density) were tried on top of the region ones and cost
 * held-out word F1, most on wcxb-dev, so they are not in the schema. Linear, no recursion.
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import type { Tree } from "./tree.ts";
import { isBlockDisplay } from "./blocks.ts";
import { isSpace } from "./text.ts";

/** A record run needs this many same-signature siblings. */
export const MIN_RECORDS = 3;
/** A node looks this many levels up (itself = 0) for the record it belongs to. */
export const MAX_RECORD_DEPTH = 6;

/**
 * Signature ids of the current pass (one page), by tag, then by class string. A tag's map holds
 * both the class attributes as the parser gave them and their normalised signatures ("card
 * card-3" and "card" both name the signature "card"), so an attribute met for the first time
 * whose signature is known takes its id from the same map, and one that is its own signature (a
 * single lower-case token without digits, the most common kind) costs no string of its own.
 * Cleared by each pass: a memo kept across pages grew to tens of thousands of classes, and a
 * lookup in it, a cache miss or several, cost more than normalising a page's classes afresh in
 * maps that stay small (docs/features.md).
 */
const IDS_BY_TAG = new Map<string, Map<string, number>>();
let nextId = 0;

/**
 * Starts a new pass (signatureIds: one per page) and drops the last one's strings, which are
 * views of its page's HTML (detach.ts). Ids are stable within a pass, so two elements of one page
 * share an id exactly when they share a signature; ids of different passes are not comparable.
 */
function clearSignatures(): void {
  IDS_BY_TAG.clear();
  nextId = 0;
}

/** Id of an element's signature: its tag plus its class tokens with digits removed (lower-cased), sorted. */
export function signatureId(node: SnapshotNode): number {
  const cls = node.attrs?.["class"] ?? "";
  let byClass = IDS_BY_TAG.get(node.tag);
  if (!byClass) IDS_BY_TAG.set(node.tag, (byClass = new Map()));
  let id = byClass.get(cls);
  if (id !== undefined) return id;
  const sig = classSignature(cls);
  if (sig !== cls) {
    id = byClass.get(sig);
    if (id === undefined) byClass.set(sig, (id = nextId++));
  } else id = nextId++;
  byClass.set(cls, id);
  return id;
}

/**
 * A class attribute's signature: its tokens (split at `\s` runs) lower-cased, with the digits
 * 0-9 removed, without the empty ones, sorted and joined by ".". One scan: no regular
 * expression, no array for a single token.
 */
export function classSignature(cls: string): string {
  const s = cls.toLowerCase();
  let tokens: string[] | null = null;
  let first = "";
  let token = "";
  let piece = -1; // start of the digit-free run being read
  for (let k = 0; k <= s.length; k++) {
    const c = k < s.length ? s.charCodeAt(k) : 32;
    const digit = c >= 48 && c <= 57;
    if (!digit && !isSpace(c)) {
      if (piece < 0) piece = k;
      continue;
    }
    if (piece >= 0) {
      token = token === "" ? s.slice(piece, k) : token + s.slice(piece, k);
      piece = -1;
    }
    if (digit || token === "") continue;
    if (first === "") first = token;
    else (tokens ??= [first]).push(token);
    token = "";
  }
  return tokens ? sortStrings(tokens).join(".") : first;
}

/**
 * Sorts a few strings in place by UTF-16 code units, as Array#sort without a comparator does
 * (equal strings are indistinguishable, so its stability does not matter): an insertion sort,
 * since Array#sort allocates its work arrays on every call.
 */
function sortStrings(a: string[]): string[] {
  for (let k = 1; k < a.length; k++) {
    const x = a[k] as string;
    let j = k - 1;
    for (; j >= 0 && (a[j] as string) > x; j--) a[j + 1] = a[j] as string;
    a[j + 1] = x;
  }
  return a;
}

/**
 * Per snapshot node: its signature id for the elements a row's features, path or record can
 * name (elementsNearRows), -1 for other nodes. Memoised per tree: the region features, the path
 * signatures (src/pipeline/context/path-signature.ts) and the records refiner of one run read the same
 * array instead of looking every element up again (signatureId was 3.6 % of a static extract's
 * CPU profile, computed twice per page).
 */
export function pageSignatureIds(page: PageSnapshot, tree: Tree): Int32Array {
  let ids = IDS_OF.get(tree);
  if (!ids) IDS_OF.set(tree, (ids = signatureIds(page, elementsNearRows(page, tree))));
  return ids;
}

const IDS_OF = new WeakMap<Tree, Int32Array>();

/**
 * The elements whose parent holds a block-level element (or that have no parent): every
 * structural node, every ancestor of one and every sibling of those is among them, since a node
 * without a block-level descendant has no structural descendant (src/features/structural.ts).
 * Text-level elements inside leaf segments (their links, spans, emphasis: about a third of a
 * wcxb-dev page's elements) are not; sibling counts, path signatures and records never ask
 * about them.
 */
function elementsNearRows(page: PageSnapshot, tree: Tree): Uint8Array {
  const holdsBlock = new Uint8Array(tree.n);
  for (let i = tree.n - 1; i >= 0; i--) {
    const p = tree.parent[i] as number;
    if (p < 0 || holdsBlock[p] === 1) continue;
    const node = page.nodes[i] as SnapshotNode;
    if (holdsBlock[i] === 1 || (node.type === 1 && isBlockDisplay(node.tag, node.style?.display)))
      holdsBlock[p] = 1;
  }
  const near = new Uint8Array(tree.n);
  for (let i = 0; i < tree.n; i++) {
    const p = tree.parent[i] as number;
    near[i] = p < 0 || holdsBlock[p] === 1 ? 1 : 0;
  }
  return near;
}

/**
 * Signature ids of a page's elements (-1 for other nodes, and for elements `only` leaves out), in
 * one pass: ids are stable within it.
 */
export function signatureIds(page: PageSnapshot, only?: Uint8Array): Int32Array {
  clearSignatures();
  const n = page.nodes.length;
  const ids = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const node = page.nodes[i];
    if (node && node.type === 1 && (!only || only[i] === 1)) ids[i] = signatureId(node);
  }
  clearSignatures();
  return ids;
}

export interface SignatureSiblings {
  /** Per element: how many siblings (other children of its parent) share its signature. */
  same: Int32Array;
  /** Per element: how many element siblings it has. */
  elementSiblings: Int32Array;
}

/** Per element: how many siblings (other children of its parent) share its signature. */
export function sameSignatureSiblings(page: PageSnapshot, tree: Tree): SignatureSiblings {
  let memo = SIBLINGS_OF.get(tree);
  if (!memo) SIBLINGS_OF.set(tree, (memo = computeSignatureSiblings(page, tree)));
  return memo;
}

/** One computation per tree: the region features and the records refiner of one run share it. */
const SIBLINGS_OF = new WeakMap<Tree, SignatureSiblings>();

function computeSignatureSiblings(page: PageSnapshot, tree: Tree): SignatureSiblings {
  const ids = pageSignatureIds(page, tree); // -1 for non-elements and elements no row can name
  const same = new Int32Array(tree.n);
  const elementSiblings = new Int32Array(tree.n);
  const elements = new Int32Array(tree.n); // element children per node
  for (let i = 0; i < tree.n; i++) {
    const p = tree.parent[i] as number;
    if ((ids[i] as number) >= 0 && p >= 0) elements[p] = (elements[p] as number) + 1;
  }
  // Counted per parent over its children (contiguous in tree.childList) in a table indexed by
  // the small signature id, set back to 0 after each parent: no allocation per parent.
  const counts = idCounts(ids);
  for (let p = 0; p < tree.n; p++) {
    if ((elements[p] as number) < 2) continue; // an only child has no look-alike sibling
    const from = tree.childStart[p] as number;
    const to = tree.childStart[p + 1] as number;
    for (let k = from; k < to; k++) {
      const id = ids[tree.childList[k] as number] as number;
      if (id >= 0) counts[id] = (counts[id] as number) + 1;
    }
    for (let k = from; k < to; k++) {
      const c = tree.childList[k] as number;
      const id = ids[c] as number;
      if (id >= 0) same[c] = (counts[id] as number) - 1;
    }
    for (let k = from; k < to; k++) {
      const id = ids[tree.childList[k] as number] as number;
      if (id >= 0) counts[id] = 0;
    }
  }
  for (let i = 0; i < tree.n; i++) {
    const p = tree.parent[i] as number;
    if ((ids[i] as number) >= 0) elementSiblings[i] = p >= 0 ? (elements[p] as number) - 1 : 0;
  }
  return { same, elementSiblings };
}

/**
 * A zeroed count per signature id, reused between pages (grown to the largest id in `ids`).
 * Zeroed here, not only after each parent: a page ended by its time limit mid-count
 * (src/time-limit.ts) must not leave counts to the next one.
 */
let ID_COUNTS = new Int32Array(1024);

function idCounts(ids: Int32Array): Int32Array {
  let max = -1;
  for (let i = 0; i < ids.length; i++) if ((ids[i] as number) > max) max = ids[i] as number;
  if (max >= ID_COUNTS.length) ID_COUNTS = new Int32Array(Math.max(max + 1, 2 * ID_COUNTS.length));
  else ID_COUNTS.fill(0, 0, max + 1);
  return ID_COUNTS;
}

/**
 * The nearest record at or above node i (at most MAX_RECORD_DEPTH
 * levels up) and how far up it is; null when none.
 */
export function recordOf(
  tree: Tree,
  siblings: SignatureSiblings,
  i: number,
): { record: number; up: number } | null {
  for (let a = i, up = 0; a > 0 && up <= MAX_RECORD_DEPTH; a = tree.parent[a] as number, up++) {
    if ((siblings.same[a] as number) + 1 >= MIN_RECORDS) return { record: a, up };
  }
  return null;
}
