/**
 * Table Pattern (TP) — Louvan, "Extracting the Main Content from HTML Documents", §2.3.3.
 * "Almost all web forums are presented in a table like structure. Among forum posts in the same
 * page, they share the same pattern": the tables holding the posts share CSS class, border,
 * width, align, cell spacing, cell padding.
 *
 * Here: elements under the same parent with the same structural signature (tag, id and CSS
 * classes with digits normalised — post-101 and post-102 match, #intro and #footer do not —
 * and role/itemprop/itemtype; the snapshot keeps no border/width/align attributes) form a repeated
 * group; a group needs TP_MIN_REPEATS members holding text. Its
 * score is the non-link text of its members minus that of its largest member, so a layout row
 * that wraps the whole page (one member with all the text) does not beat the posts, and a list
 * of links (no non-link text) never wins. The best group's blocks are kept. The paper gives no
 * formula; these choices are ours. Linear: prefix sums over pre-order.
 */
import type { SnapshotNode, TraceEntry } from "../types.ts";
import {
  anchorOf,
  blockEntries,
  nodesForBlocks,
  pathNamer,
  type BlockView,
  type RefineResult,
} from "./blocks.ts";
import { NON_CONTENT_TAGS } from "../dom/blocks.ts";

export const TP_STEP = "tp";
/** Members with text a repeated group needs (two posts make a thread). */
export const TP_MIN_REPEATS = 2;
const DIGITS = /\d+/g;

export interface TpOptions {
  /** Minimum members with text (default TP_MIN_REPEATS). */
  minRepeats: number;
  /**
   * When no repeated group is found: keep every block ("all", default:
   * refining never empties a page) or none.
   */
  fallback: "all" | "none";
}

export const TP_DEFAULTS: TpOptions = { minRepeats: TP_MIN_REPEATS, fallback: "all" };

/** Structural signature of an element: tag#id.class.class[role|itemprop|itemtype], digits as 0. */
export function signature(node: SnapshotNode): string {
  const a = node.attrs ?? {};
  const classes = (a["class"] ?? "")
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((c) => c.replace(DIGITS, "0"))
    .sort();
  const id = a["id"] ? `#${a["id"].replace(DIGITS, "0")}` : "";
  return (
    [node.tag + id, ...classes].join(".") +
    `[${a["role"] ?? ""}|${a["itemprop"] ?? ""}|${a["itemtype"] ?? ""}]`
  );
}

export interface RepeatedGroup {
  parent: number;
  signature: string;
  members: number[];
  /** Non-link text of the members. */
  total: number;
  /** Non-link text of the largest member. */
  max: number;
  /** total − max. */
  score: number;
}

/** Non-link text length of blocks per subtree, as prefix sums over block anchors. */
function textPrefix(view: BlockView): Float64Array {
  const pre = new Float64Array(view.tree.n + 1);
  for (const b of view.blocks) {
    const a = anchorOf(b) + 1;
    pre[a] = (pre[a] as number) + b.length - b.linkLength;
  }
  for (let i = 1; i <= view.tree.n; i++) pre[i] = (pre[i] as number) + (pre[i - 1] as number);
  return pre;
}

/** Every (parent, signature) group of sibling elements inside the view whose members hold text. */
export function repeatedGroups(view: BlockView, minRepeats = TP_MIN_REPEATS): RepeatedGroup[] {
  const { page, tree } = view;
  const pre = textPrefix(view);
  const groups = new Map<string, RepeatedGroup>();
  for (const root of view.roots) {
    const end = tree.end[root] as number;
    for (let i = root + 1; i < end; i++) {
      const node = page.nodes[i] as SnapshotNode;
      if (node.type !== 1 || !node.visible || NON_CONTENT_TAGS.has(node.tag)) {
        if (node.type === 1) i = (tree.end[i] as number) - 1;
        continue;
      }
      const chars = (pre[tree.end[i] as number] as number) - (pre[i] as number);
      if (chars <= 0) {
        i = (tree.end[i] as number) - 1;
        continue;
      }
      const parent = tree.parent[i] as number;
      const sig = signature(node);
      const key = `${parent}\u0000${sig}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { parent, signature: sig, members: [], total: 0, max: 0, score: 0 }));
      g.members.push(i);
      g.total += chars;
      if (chars > g.max) g.max = chars;
    }
  }
  const out: RepeatedGroup[] = [];
  for (const g of groups.values()) {
    if (g.members.length < minRepeats) continue;
    g.score = g.total - g.max;
    out.push(g);
  }
  return out;
}

/** Position of the member (sorted, disjoint subtrees) whose subtree holds x, or -1. */
function memberHolding(members: readonly number[], end: Int32Array, x: number): number {
  let lo = 0;
  let hi = members.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = members[mid] as number;
    if (m > x) hi = mid - 1;
    else if (x < (end[m] as number)) return mid;
    else lo = mid + 1;
  }
  return -1;
}

/** Keep the blocks of the best repeated sibling structure (forum posts). */
export function tablePattern(view: BlockView, options: Partial<TpOptions> = {}): RefineResult {
  const opts: TpOptions = { ...TP_DEFAULTS, ...options };
  if (!view.blocks.length) return { kept: [], nodes: [], trace: [] };
  const path = pathNamer(view.page, view.tree);
  let best: RepeatedGroup | undefined;
  for (const g of repeatedGroups(view, opts.minRepeats)) if (!best || g.score > best.score) best = g;
  const trace: TraceEntry[] = [];
  if (!best || best.score <= 0) {
    const all = opts.fallback === "all";
    trace.push({
      step: TP_STEP,
      node: -1,
      path: "",
      action: all ? "keep" : "drop",
      reason: `no repeated structure with ≥ ${opts.minRepeats} text-bearing members; fallback: ${opts.fallback}`,
      text: "",
    });
    const kept = all ? view.blocks.map((_, k) => k) : [];
    return { kept, nodes: nodesForBlocks(view, kept), trace };
  }
  const { tree } = view;
  const g = best;
  trace.push({
    step: TP_STEP,
    node: g.parent,
    path: path(g.parent),
    action: "keep",
    reason: `table pattern: ${g.members.length} × ${g.signature}, ${g.total} chars (score ${g.score})`,
    text: "",
    score: g.score,
  });
  const kept: number[] = [];
  const blockEntry = blockEntries(TP_STEP, view, path);
  view.blocks.forEach((b, k) => {
    const m = memberHolding(g.members, tree.end, anchorOf(b));
    if (m >= 0) {
      kept.push(k);
      trace.push(blockEntry(k, "keep", `inside repeated ${g.signature} #${m + 1}`));
    } else trace.push(blockEntry(k, "drop", `outside the repeated ${g.signature} structure`));
  });
  return { kept, nodes: nodesForBlocks(view, kept), trace };
}
