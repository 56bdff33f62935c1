/**
 * The one import point for node labels in the trainer. Interim, until src/train/labels.ts
 * lands: the MODELING-NOTES rule — a leaf segment's label is the share of its lower-cased
 * words found in the gold (long segments claim gold word counts first), main when ≥ 0.5; a
 * structural node is a good segment when its subtree is nearly pure (≥ 0.8 main words or
 * ≤ 0.2) and its parent is not.
 */
import { textOf, words } from "../dom/text.ts";
import type { Tree } from "../dom/tree.ts";
import { analyzeStructure } from "../features/structural.ts";
import type { PageSnapshot } from "../types.ts";

export const MAIN_SHARE = 0.5;
export const PURE_HIGH = 0.8;
export const PURE_LOW = 0.2;

export interface NodeLabels {
  nodes: Int32Array;
  goldShare: Float32Array;
  main: Uint8Array;
  goodSegment: Uint8Array;
  words: Int32Array;
}

export function labelNodes(page: PageSnapshot, tree: Tree, gold: string): NodeLabels {
  const st = analyzeStructure(page, tree);
  const nodes = st.nodes;
  const n = nodes.length;
  const bag = new Map<string, number>();
  for (const w of words(gold.toLowerCase())) bag.set(w, (bag.get(w) ?? 0) + 1);
  const leafWords: string[][] = Array.from(nodes, (i) => (st.leaf[i] === 1 ? words(textOf(page, tree, [i]).toLowerCase()) : []));
  const order = [...leafWords.keys()].sort((a, b) => (leafWords[b]?.length ?? 0) - (leafWords[a]?.length ?? 0) || a - b);
  const hit = new Float64Array(n);
  const cnt = new Int32Array(n);
  for (const r of order) {
    const ws = leafWords[r] as string[];
    let h = 0;
    for (const w of ws) {
      const c = bag.get(w) ?? 0;
      if (c > 0) { h++; bag.set(w, c - 1); }
    }
    hit[r] = h;
    cnt[r] = ws.length;
  }
  const rowOf = new Map<number, number>();
  nodes.forEach((i, r) => rowOf.set(i, r));
  const subHit = Float64Array.from(hit);
  const subCnt = Int32Array.from(cnt);
  for (let r = n - 1; r >= 0; r--) {
    const p = rowOf.get(st.structuralParent[nodes[r] as number] as number);
    if (p === undefined) continue;
    subHit[p] = (subHit[p] as number) + (subHit[r] as number);
    subCnt[p] = (subCnt[p] as number) + (subCnt[r] as number);
  }
  const goldShare = new Float32Array(n);
  const main = new Uint8Array(n);
  const goodSegment = new Uint8Array(n);
  const pure = (r: number): boolean => { const c = subCnt[r] as number; const s = c ? (subHit[r] as number) / c : 0; return c > 0 && (s >= PURE_HIGH || s <= PURE_LOW); };
  for (let r = 0; r < n; r++) {
    const c = subCnt[r] as number;
    goldShare[r] = c ? (subHit[r] as number) / c : 0;
    main[r] = (goldShare[r] as number) >= MAIN_SHARE ? 1 : 0;
    const p = rowOf.get(st.structuralParent[nodes[r] as number] as number);
    goodSegment[r] = pure(r) && (p === undefined || !pure(p)) ? 1 : 0;
  }
  return { nodes, goldShare, main, goodSegment, words: subCnt };
}
