/**
 * Word alignment of gold text to a page, for training labels: dragnet's approach (Peters &
 * Lecocq, "Content extraction using diverse feature sets", WWW 2013 — labels from a
 * longest-common-subsequence alignment of gold tokens to block tokens), implemented as Python
 * difflib's SequenceMatcher (Ratcliff/Obershelp: longest matching block, then the same on the
 * left and right remainders), over integer token ids with typed arrays and an explicit queue.
 *
 * - "Popular" gold tokens (difflib's autojunk: more than 1 % of a gold text of ≥ 200 tokens)
 *   cannot seed a match, which keeps the cost near-linear on 10k-word pages; matches are then
 *   extended over equal neighbouring tokens, so popular words next to a match are recovered.
 * - Page tokens follow textOf() exactly (src/dom/text.ts): content text nodes in document order,
 *   and a word split across two text nodes with no line break between them ("<b>W</b>ord") is
 *   one token, owned by the text node where it starts — unless the two texts sit in sibling
 *   inline elements (`<span>Publisher</span><span>Acme</span>`), where textOf puts a space. The
 *   metric tokenises textOf's output, so
 *   labels and the oracle see the same words the evaluation counts.
 */
import { isBlockDisplay } from "../dom/blocks.ts";
import { silencesSubtree } from "../dom/silent.ts";
import { siblingInlineTexts, VERBATIM_TAGS, words } from "../dom/text.ts";
import type { Tree } from "../dom/tree.ts";
import { lowerBound } from "../lower-bound.ts";
import type { PageSnapshot, SnapshotNode } from "../types.ts";

/** difflib autojunk: gold texts with at least this many tokens have popular tokens… */
export const POPULAR_MIN_TOKENS = 200;
/** …occurring more than this share of the gold (+1) times. */
export const POPULAR_SHARE = 0.01;
/** When a range has no match without popular tokens, search it with them if |a range|·|b range| ≤ this. */
export const POPULAR_FALLBACK_CELLS = 4_000_000;

export interface PageTokens {
  /** Lower-cased word tokens in textOf order. */
  tokens: string[];
  /** Owning text node (snapshot index) of each token. */
  owner: Int32Array;
}

const WORD_START = /^[\p{L}\p{M}\p{Nd}\p{Pc}]/u;
const WORD_END = /[\p{L}\p{M}\p{Nd}\p{Pc}]$/u;

function breaksLine(node: SnapshotNode): boolean {
  return node.type === 1 && (node.tag === "br" || isBlockDisplay(node.tag, node.style?.display));
}

/** The page's words as textOf() would produce them for the whole document, with owners. */
export function pageTokens(page: PageSnapshot, tree: Tree): PageTokens {
  const tokens: string[] = [];
  const owner: number[] = [];
  const blockEnds: number[] = [];
  let boundary = true;
  let prevEndsInWord = false;
  let prevParent = -1;
  let verbatimEnd = -1;
  for (let i = 0; i < tree.n; i++) {
    while (blockEnds.length && (blockEnds[blockEnds.length - 1] as number) <= i) {
      blockEnds.pop();
      boundary = true;
    }
    const node = page.nodes[i] as SnapshotNode;
    if (silencesSubtree(node)) {
      i = (tree.end[i] as number) - 1;
      continue;
    }
    if (node.type === 1) {
      if (VERBATIM_TAGS.has(node.tag) && i >= verbatimEnd) verbatimEnd = tree.end[i] as number;
      if (breaksLine(node)) {
        boundary = true;
        blockEnds.push(tree.end[i] as number);
      }
      continue;
    }
    const text = (node.text ?? "").toLowerCase();
    if (!text) continue;
    const ws = words(text);
    let k = 0;
    const parent = tree.parent[i] as number;
    const separated = i >= verbatimEnd && siblingInlineTexts(tree, prevParent, parent);
    if (!boundary && prevEndsInWord && !separated && ws.length && WORD_START.test(text)) {
      tokens[tokens.length - 1] += ws[0] as string; // continues the previous text node's last word
      k = 1;
    }
    for (; k < ws.length; k++) {
      tokens.push(ws[k] as string);
      owner.push(i);
    }
    if (/\S/.test(text)) {
      boundary = false;
      prevEndsInWord = WORD_END.test(text);
    } else if (text.length) prevEndsInWord = false;
    prevParent = parent;
  }
  return { tokens, owner: Int32Array.from(owner) };
}

interface Match {
  a: number;
  b: number;
  size: number;
}

interface Index {
  a: Int32Array;
  b: Int32Array;
  /** Gold positions per token id (CSR), popular ids excluded. */
  start: Int32Array;
  pos: Int32Array;
  /** The same with popular ids included (fallback for ranges made only of popular tokens). */
  fullStart: Int32Array;
  fullPos: Int32Array;
}

/** Gold positions per token id in CSR form, ids with keep(count) only. */
function positions(
  b: Int32Array,
  V: number,
  keep: (count: number) => boolean,
): { start: Int32Array; pos: Int32Array } {
  const count = new Int32Array(V);
  for (const t of b) count[t] = (count[t] as number) + 1;
  const start = new Int32Array(V + 1);
  for (let t = 0; t < V; t++)
    start[t + 1] = (start[t] as number) + (keep(count[t] as number) ? (count[t] as number) : 0);
  const fill = start.slice();
  const pos = new Int32Array(start[V] as number);
  for (let j = 0; j < b.length; j++) {
    const t = b[j] as number;
    if ((start[t + 1] as number) === (start[t] as number)) continue;
    pos[fill[t] as number] = j;
    fill[t] = (fill[t] as number) + 1;
  }
  return { start, pos };
}

function encode(pageTok: readonly string[], gold: readonly string[]): Index {
  const ids = new Map<string, number>();
  const id = (t: string): number => {
    let v = ids.get(t);
    if (v === undefined) ids.set(t, (v = ids.size));
    return v;
  };
  const b = Int32Array.from(gold, id);
  const a = Int32Array.from(pageTok, id);
  const V = ids.size;
  const limit = b.length >= POPULAR_MIN_TOKENS ? Math.floor(b.length * POPULAR_SHARE) + 1 : Infinity;
  const strict = positions(b, V, (c) => c <= limit);
  const full = positions(b, V, () => true);
  return { a, b, start: strict.start, pos: strict.pos, fullStart: full.start, fullPos: full.pos };
}

/** Scratch for longestMatch: len[j] = match length ending at (row, j), valid when stamp[j] = row. */
interface Scratch {
  len: Int32Array;
  stamp: Float64Array;
  clock: number;
}

/** A window of the alignment still to match: a[alo, ahi) × b[blo, bhi). */
interface Window {
  alo: number;
  ahi: number;
  blo: number;
  bhi: number;
}

/** difflib find_longest_match on a[alo, ahi) × b[blo, bhi). */
function longestMatch(ix: Index, w: Window, scr: Scratch, full: boolean): Match {
  const { alo, ahi, blo, bhi } = w;
  const start = full ? ix.fullStart : ix.start;
  const pos = full ? ix.fullPos : ix.pos;
  let best: Match = { a: alo, b: blo, size: 0 };
  const { len, stamp } = scr;
  scr.clock++; // rows of an earlier call never count as this call's previous row
  for (let i = alo; i < ahi; i++) {
    const row = ++scr.clock;
    const t = ix.a[i] as number;
    const s = start[t] as number;
    const e = start[t + 1] as number;
    if (s === e) continue;
    const lo = lowerBound(pos, blo, s, e);
    for (let k = lowerBound(pos, bhi, lo, e) - 1; k >= lo; k--) {
      const j = pos[k] as number; // descending j: len[j-1] still holds row i-1
      const v = (j > blo && stamp[j - 1] === row - 1 ? (len[j - 1] as number) : 0) + 1;
      len[j] = v;
      stamp[j] = row;
      // difflib keeps the earliest (i, j) among equally long matches; j runs downwards here
      if (v > best.size || (v === best.size && i - v + 1 === best.a))
        best = { a: i - v + 1, b: j - v + 1, size: v };
    }
  }
  return best;
}

/** Grows match `m` over equal tokens on both sides, within window `w`. */
function extend(ix: Index, m: Match, w: Window): Match {
  const { alo, ahi, blo, bhi } = w;
  let { a, b, size } = m;
  while (a > alo && b > blo && ix.a[a - 1] === ix.b[b - 1]) {
    a--;
    b--;
    size++;
  }
  while (a + size < ahi && b + size < bhi && ix.a[a + size] === ix.b[b + size]) size++;
  return { a, b, size };
}

/** Matching blocks (difflib get_matching_blocks), any order. */
function matchingBlocks(ix: Index): Match[] {
  const scratch: Scratch = {
    len: new Int32Array(ix.b.length + 1),
    stamp: new Float64Array(ix.b.length + 1).fill(-1),
    clock: 0,
  };
  const out: Match[] = [];
  const queue: Window[] = [{ alo: 0, ahi: ix.a.length, blo: 0, bhi: ix.b.length }];
  while (queue.length) {
    const w = queue.pop() as Window;
    const { alo, ahi, blo, bhi } = w;
    if (alo >= ahi || blo >= bhi) continue;
    let raw = longestMatch(ix, w, scratch, false);
    if (raw.size === 0 && (ahi - alo) * (bhi - blo) <= POPULAR_FALLBACK_CELLS)
      raw = longestMatch(ix, w, scratch, true);
    if (raw.size === 0) continue;
    const m = extend(ix, raw, w);
    out.push(m);
    queue.push({ alo, ahi: m.a, blo, bhi: m.b }, { alo: m.a + m.size, ahi, blo: m.b + m.size, bhi });
  }
  return out;
}

export interface Alignment {
  /** 1 when page token k is aligned to a gold token. */
  matched: Uint8Array;
  /** Gold tokens aligned (≤ both lengths). */
  matchedCount: number;
  goldTokens: number;
}

/** Align gold tokens to page tokens (monotonic, difflib-style). */
export function alignTokens(pageTok: readonly string[], goldTok: readonly string[]): Alignment {
  const matched = new Uint8Array(pageTok.length);
  if (!pageTok.length || !goldTok.length) return { matched, matchedCount: 0, goldTokens: goldTok.length };
  const ix = encode(pageTok, goldTok);
  let matchedCount = 0;
  for (const m of matchingBlocks(ix)) {
    matched.fill(1, m.a, m.a + m.size);
    matchedCount += m.size;
  }
  return { matched, matchedCount, goldTokens: goldTok.length };
}
