/**
 * Small shared pieces of the Debnath (SAC 2005) and Alarte (WISE 2018) extractors: which nodes
 * carry content, trace entries, building the Extraction from chosen nodes, the empty result
 * with a reason, and turning chosen blocks into outermost snapshot subtrees.
 */
import type { Extraction, PageSnapshot, SnapshotNode, TraceEntry } from "../types.ts";
import { silencesSubtree, silentMask } from "../dom/silent.ts";
import { textOf, words } from "../dom/text.ts";
import { nodePath } from "../dom/path.ts";
import { outermost, type Tree } from "../dom/tree.ts";

/** Characters of text kept in a trace entry. */
export const TRACE_TEXT_CHARS = 80;
/** Elements that are content even without text (Alarte et al. count images and media as main content). */
export const MEDIA_TAGS: ReadonlySet<string> = new Set(["img", "picture", "video", "audio", "figure"]);

/**
 * Per node: 1 when its subtree holds visible non-whitespace text or media outside
 * non-content elements (script, form controls, …). One reverse pass.
 */
export function contentMask(page: PageSnapshot, tree: Tree): Uint8Array {
  const n = tree.n;
  const silent = silentMask(page.nodes);
  const mask = new Uint8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (silent[i] === 1) continue;
    const node = page.nodes[i] as SnapshotNode;
    if (node.type === 3 ? /\S/.test(node.text ?? "") : MEDIA_TAGS.has(node.tag)) mask[i] = 1;
    const p = tree.parent[i] as number;
    if (mask[i] === 1 && p >= 0) mask[p] = 1;
  }
  return mask;
}

/** First TRACE_TEXT_CHARS characters of a subtree's visible text; stops walking once it has them. */
export function excerpt(page: PageSnapshot, tree: Tree, node: number): string {
  let out = "";
  const end = tree.end[node] as number;
  for (let i = node; i < end && out.length < TRACE_TEXT_CHARS * 2; i++) {
    const n = page.nodes[i] as SnapshotNode;
    if (silencesSubtree(n)) {
      i = (tree.end[i] as number) - 1;
      continue;
    }
    if (n.type === 3 && n.text) out += n.text;
  }
  return out.replace(/\s+/g, " ").trim().slice(0, TRACE_TEXT_CHARS);
}

/** Per node: visible words in its subtree (outside non-content elements). Two linear passes. */
export function subtreeWords(page: PageSnapshot, tree: Tree): Float64Array {
  const n = tree.n;
  const silent = silentMask(page.nodes);
  const count = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const node = page.nodes[i] as SnapshotNode;
    if (silent[i] === 0 && node.type === 3 && node.text) count[i] = words(node.text).length;
  }
  for (let i = n - 1; i > 0; i--) {
    const p = tree.parent[i] as number;
    if (p >= 0) count[p] = (count[p] as number) + (count[i] as number);
  }
  return count;
}

/** A decision about one node (-1: none) for the trace: its step, action, reason and score. */
export interface Decision {
  step: string;
  node: number;
  action: "keep" | "drop";
  reason: string;
  score?: number | undefined;
}

/** The trace entry of a decision, with the node's path and text excerpt. */
export function traceEntry(page: PageSnapshot, tree: Tree, decision: Decision): TraceEntry {
  const { step, node, action, reason, score } = decision;
  const text = node >= 0 ? excerpt(page, tree, node) : "";
  const entry: TraceEntry = {
    step,
    node,
    path: node >= 0 ? nodePath(page, tree, node) : "",
    action,
    reason,
    text,
  };
  if (score !== undefined) entry.score = score;
  return entry;
}

/** Decisions recorded per step and action; the rest are counted in one summary entry. */
export const MAX_TRACE_PER_STEP = 300;

/** A trace that stays small on pages with tens of thousands of blocks. */
export class BoundedTrace {
  readonly entries: TraceEntry[] = [];
  private readonly counts = new Map<string, number>();
  constructor(
    private readonly page: PageSnapshot,
    private readonly tree: Tree,
  ) {}

  add(step: string, node: number, action: "keep" | "drop", reason: string, score?: number): void {
    const k = `${step}\u0000${action}`;
    const c = (this.counts.get(k) ?? 0) + 1;
    this.counts.set(k, c);
    if (c <= MAX_TRACE_PER_STEP)
      this.entries.push(traceEntry(this.page, this.tree, { step, node, action, reason, score }));
  }

  /** Entries plus one "… more" entry per step/action that overflowed. */
  finish(): TraceEntry[] {
    const out = [...this.entries];
    for (const [k, c] of this.counts) {
      if (c <= MAX_TRACE_PER_STEP) continue;
      const [step, action] = k.split("\u0000") as [string, "keep" | "drop"];
      out.push({
        step,
        node: -1,
        path: "",
        action,
        reason: `${c - MAX_TRACE_PER_STEP} more "${action}" decisions not listed`,
        text: "",
      });
    }
    return out;
  }
}

export function emptyExtraction(method: string, reason: string, trace: TraceEntry[] = []): Extraction {
  return { method, text: "", nodes: [], trace, emptyReason: reason };
}

/** Extraction from chosen roots (reduced to the outermost, in document order). */
export function extractionOf(
  page: PageSnapshot,
  tree: Tree,
  method: string,
  chosen: Iterable<number>,
  trace: TraceEntry[],
  model?: string,
): Extraction {
  const nodes = outermost(tree, chosen);
  const text = textOf(page, tree, nodes, { preformatted: true });
  const out: Extraction = { method, text, nodes, trace };
  if (model !== undefined) out.model = model;
  if (!text) out.emptyReason = "the chosen nodes hold no visible text";
  return out;
}

/** A positive integer parameter, its default when absent; a bad value is a usage error. */
export function positiveIntParam(method: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${method}: --param ${name} must be a positive integer, got "${String(value)}"`);
  return n;
}

/**
 * Why a page cannot be processed at all (no nodes, no content node), or null. Through
 * runExtractor (src/extractors.ts) a page without a visible word never gets here; called directly,
 * an extractor still gives an empty result for it.
 */
export function unusablePage(page: PageSnapshot, tree: Tree): string | null {
  if (tree.n <= 1) return "the page has a single node or none";
  return contentMask(page, tree)[0] === 1 ? null : "no node holds visible text or media";
}

/**
 * Nodes owned by chosen blocks (`chosen[blockOf[i]]`) as outermost subtrees: a node is
 * returned when it and its whole subtree are chosen (whitespace-only text and hidden nodes
 * count as chosen) and its parent is not. One reverse pass and one forward pass.
 */
export function chosenSubtrees(
  page: PageSnapshot,
  tree: Tree,
  blockOf: Int32Array,
  chosen: Uint8Array,
): number[] {
  const n = tree.n;
  const content = contentMask(page, tree);
  const full = new Uint8Array(n).fill(1);
  for (let i = n - 1; i >= 0; i--) {
    const own = chosen[blockOf[i] as number] === 1 || content[i] === 0;
    if (!own) full[i] = 0;
    const p = tree.parent[i] as number;
    if (p >= 0 && full[i] === 0) full[p] = 0;
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = tree.parent[i] as number;
    if (full[i] === 1 && content[i] === 1 && chosen[blockOf[i] as number] === 1 && (p < 0 || full[p] === 0))
      out.push(i);
  }
  return out;
}
