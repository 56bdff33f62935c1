/**
 * Node-level gold labels for DOM-node P/R/F1 (Alarte et al. 2018 count nodes), where a set's
 * gold-html gives them:
 * - l3s-gn1: the annotated page wraps text blocks in `<span class="x-nc-selN">`; main content is
 *   N = 1 (headline), 2 (full text), 3 (supplemental), as in WCEB and BoilerNet (set README).
 * - readability: gold-html is Readability's expected output, every text node of it is main.
 *
 * The gold HTML is a different serialisation of the page (l3s) or an excerpt (readability), so
 * labels are mapped onto the evaluated snapshot by text: both are turned into word sequences
 * (WCXB tokens), aligned by longest common subsequence, and a snapshot text node is gold-main
 * when at least MAIN_WORD_SHARE of its words align to main gold words. The alignment is patience
 * diff (Bram Cohen): words unique in both ranges, longest increasing run of them as anchors,
 * recursively, with an exact LCS table inside ranges of at most ALIGN_DP_MAX_CELLS cells;
 * a range with neither anchors nor a small enough table stays unaligned (its words unlabeled).
 * Units are the snapshot's visible text nodes with at least one word.
 */
import { staticSnapshot } from "../render/static.ts";
import { NON_CONTENT_TAGS } from "../dom/blocks.ts";
import { silencesSubtree } from "../dom/silent.ts";
import { outermost, type Tree } from "../dom/tree.ts";
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { wcxbTokens } from "./metrics.ts";

/** Share of a text node's words that must align to gold main words for the node to be main. */
export const MAIN_WORD_SHARE = 0.5;
/** Largest LCS table (cells) the aligner fills exactly. */
export const ALIGN_DP_MAX_CELLS = 4_000_000;
/** l3s-gn1 classes that count as main content. */
const L3S_MAIN = new Set(["1", "2", "3"]);
const L3S_CLASS = /\bx-nc-sel(\d)\b/;

/** Gold labels for a page's units (its visible text nodes with words). */
export interface NodeGold {
  /** Snapshot indices of the unit text nodes, in document order. */
  units: number[];
  /** gold[k] is true when units[k] is main content. */
  gold: boolean[];
}

interface WordSeq {
  ids: Int32Array;
  /** Per word: owning unit (snapshot side) or main flag 1/0 (gold side). */
  tag: Int32Array;
}

/** Words of the gold HTML with their main flag. */
function goldWords(goldHtml: string, vocab: Map<string, number>): WordSeq {
  const g = staticSnapshot({
    id: "gold",
    source: "gold",
    url: null,
    html: goldHtml,
    encoding: "utf-8",
    remote: false,
  });
  const l3s = L3S_CLASS.test(goldHtml);
  const n = g.nodes.length;
  const main = new Uint8Array(n);
  const skip = new Uint8Array(n);
  const ids: number[] = [];
  const tag: number[] = [];
  for (let i = 0; i < n; i++) {
    const node = g.nodes[i] as SnapshotNode;
    const p = node.parent;
    skip[i] = (p >= 0 && skip[p] === 1) || (node.type === 1 && NON_CONTENT_TAGS.has(node.tag)) ? 1 : 0;
    const sel = l3s && node.type === 1 ? L3S_CLASS.exec(node.attrs?.["class"] ?? "")?.[1] : undefined;
    main[i] = !l3s ? 1 : sel !== undefined ? (L3S_MAIN.has(sel) ? 1 : 0) : p >= 0 ? (main[p] as number) : 0;
    if (node.type !== 3 || skip[i] === 1) continue;
    for (const w of wcxbTokens(node.text ?? "")) {
      ids.push(idOf(vocab, w));
      tag.push(main[i] as number);
    }
  }
  return { ids: Int32Array.from(ids), tag: Int32Array.from(tag) };
}

function idOf(vocab: Map<string, number>, w: string): number {
  let id = vocab.get(w);
  if (id === undefined) vocab.set(w, (id = vocab.size));
  return id;
}

/** Words of the snapshot's units, each tagged with its unit number. */
function pageWords(
  page: PageSnapshot,
  tree: Tree,
  vocab: Map<string, number>,
): WordSeq & { units: number[] } {
  const units: number[] = [];
  const ids: number[] = [];
  const tag: number[] = [];
  for (let i = 0; i < page.nodes.length; i++) {
    const node = page.nodes[i] as SnapshotNode;
    if (silencesSubtree(node)) {
      i = (tree.end[i] as number) - 1;
      continue;
    }
    if (node.type !== 3) continue;
    const ws = wcxbTokens(node.text ?? "");
    if (!ws.length) continue;
    for (const w of ws) {
      ids.push(idOf(vocab, w));
      tag.push(units.length);
    }
    units.push(i);
  }
  return { ids: Int32Array.from(ids), tag: Int32Array.from(tag), units };
}

/** Map gold-html labels onto the snapshot's text nodes. */
export function goldNodeLabels(page: PageSnapshot, tree: Tree, goldHtml: string): NodeGold {
  const vocab = new Map<string, number>();
  const s = pageWords(page, tree, vocab);
  const g = goldWords(goldHtml, vocab);
  const match = alignWords(s.ids, g.ids);
  const mainWords = new Int32Array(s.units.length);
  const allWords = new Int32Array(s.units.length);
  for (let i = 0; i < s.ids.length; i++) {
    const u = s.tag[i] as number;
    allWords[u] = (allWords[u] as number) + 1;
    const j = match[i] as number;
    if (j >= 0 && g.tag[j] === 1) mainWords[u] = (mainWords[u] as number) + 1;
  }
  const gold = s.units.map((_, k) => (mainWords[k] as number) >= MAIN_WORD_SHARE * (allWords[k] as number));
  return { units: s.units, gold };
}

/** Predicted labels of the units: inside one of the chosen subtrees. */
export function predictedNodeLabels(
  tree: Tree,
  units: readonly number[],
  chosen: readonly number[],
): boolean[] {
  const roots = outermost(tree, chosen);
  return units.map((u) => {
    // among outermost roots, only the last one starting at or before u can contain it
    let lo = 0;
    let hi = roots.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((roots[mid] as number) <= u) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best >= 0 && u < (tree.end[roots[best] as number] as number);
  });
}

interface Range {
  s0: number;
  s1: number;
  g0: number;
  g1: number;
}

/** match[i] = position in g aligned with s[i], or -1. Patience diff with exact LCS in small ranges. */
export function alignWords(s: Int32Array, g: Int32Array): Int32Array {
  const match = new Int32Array(s.length).fill(-1);
  const stack: Range[] = [{ s0: 0, s1: s.length, g0: 0, g1: g.length }];
  while (stack.length) {
    let { s0, s1, g0, g1 } = stack.pop() as Range;
    while (s0 < s1 && g0 < g1 && s[s0] === g[g0]) match[s0++] = g0++;
    while (s0 < s1 && g0 < g1 && s[s1 - 1] === g[g1 - 1]) match[--s1] = --g1;
    if (s0 >= s1 || g0 >= g1) continue;
    if ((s1 - s0) * (g1 - g0) <= ALIGN_DP_MAX_CELLS) {
      alignExact(s, g, { s0, s1, g0, g1 }, match);
      continue;
    }
    const anchors = uniqueAnchors(s, g, { s0, s1, g0, g1 });
    let ps = s0;
    let pg = g0;
    for (const [i, j] of anchors) {
      match[i] = j;
      stack.push({ s0: ps, s1: i, g0: pg, g1: j });
      ps = i + 1;
      pg = j + 1;
    }
    if (anchors.length) stack.push({ s0: ps, s1, g0: pg, g1 });
  }
  return match;
}

/** Words occurring once in each range, as [s index, g index] pairs on a longest increasing run. */
function uniqueAnchors(s: Int32Array, g: Int32Array, r: Range): [number, number][] {
  const countS = new Map<number, number>();
  const posS = new Map<number, number>();
  for (let i = r.s0; i < r.s1; i++) {
    const w = s[i] as number;
    countS.set(w, (countS.get(w) ?? 0) + 1);
    posS.set(w, i);
  }
  const countG = new Map<number, number>();
  const posG = new Map<number, number>();
  for (let j = r.g0; j < r.g1; j++) {
    const w = g[j] as number;
    countG.set(w, (countG.get(w) ?? 0) + 1);
    posG.set(w, j);
  }
  const pairs: [number, number][] = [];
  for (const [w, c] of countS)
    if (c === 1 && countG.get(w) === 1) pairs.push([posS.get(w) as number, posG.get(w) as number]);
  pairs.sort((a, b) => a[0] - b[0]);
  return longestIncreasing(pairs);
}

/** Longest run of pairs increasing in their second element (patience sorting, O(n log n)). */
function longestIncreasing(pairs: [number, number][]): [number, number][] {
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    const v = (pairs[k] as [number, number])[1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((pairs[tails[mid] as number] as [number, number])[1] < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1] as number;
    tails[lo] = k;
  }
  const out: [number, number][] = [];
  for (let k = tails.length ? (tails[tails.length - 1] as number) : -1; k >= 0; k = prev[k] as number)
    out.push(pairs[k] as [number, number]);
  return out.reverse();
}

/** Exact LCS alignment of a small range (length table row by row, directions kept). */
function alignExact(s: Int32Array, g: Int32Array, r: Range, match: Int32Array): void {
  const n = r.s1 - r.s0;
  const m = r.g1 - r.g0;
  const dir = new Uint8Array(n * m); // 1 diagonal, 2 up (skip s), 3 left (skip g)
  let prevRow = new Int32Array(m + 1);
  let row = new Int32Array(m + 1);
  for (let i = 0; i < n; i++) {
    const si = s[r.s0 + i] as number;
    for (let j = 0; j < m; j++) {
      if (si === g[r.g0 + j]) {
        row[j + 1] = (prevRow[j] as number) + 1;
        dir[i * m + j] = 1;
      } else if ((prevRow[j + 1] as number) >= (row[j] as number)) {
        row[j + 1] = prevRow[j + 1] as number;
        dir[i * m + j] = 2;
      } else {
        row[j + 1] = row[j] as number;
        dir[i * m + j] = 3;
      }
    }
    [prevRow, row] = [row, prevRow];
  }
  let i = n - 1;
  let j = m - 1;
  while (i >= 0 && j >= 0) {
    const d = dir[i * m + j];
    if (d === 1) match[r.s0 + i--] = r.g0 + j--;
    else if (d === 2) i--;
    else j--;
  }
}
