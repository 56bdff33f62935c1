/**
 * What the studio shows of one page: every block (a structural node that owns words, the unit
 * the content classifier scores: src/pipeline/predict.ts) with its P(main), whether the run kept
 * it, the step that decided and the trace's reason; the extracted text; and, where the page has
 * gold, its word P/R/F1 (src/evaluate/metrics.ts) and the gold as block labels. The run is the
 * one `pith extract` makes (runExtractor with the ml method and its trace); P(main) is the score
 * `pith predict` reports, before rules and refiners.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { buildTree, type Tree } from "../dom/tree.ts";
import { firstLine } from "../errors.ts";
import { wordCount } from "../dom/text.ts";
import { wcxbWords, type PRF } from "../evaluate/metrics.ts";
import { goldNodeLabels } from "../evaluate/gold-nodes.ts";
import { runExtractor } from "../extractors.ts";
import { formatExtraction } from "../output/index.ts";
import { mlExtractor } from "../pipeline/extractor.ts";
import { cachedModel, resolveModelFile } from "../pipeline/model/resolve.ts";
import { ownership, type Ownership } from "../pipeline/own-text.ts";
import { predictPage, type NodePrediction } from "../pipeline/predict.ts";
import { modelView } from "../pipeline/run.ts";
import { alignTokens, pageTokens } from "../train/align.ts";
import { words } from "../dom/text.ts";
import { MAIN_LEAF_SHARE } from "../train/labels.ts";
import type { Extraction, PageSnapshot, RenderMode, TraceEntry } from "../types.ts";

/** The step the studio names for a block kept only because a kept block holds it. */
const INSIDE_KEPT = "coalesce";

/** The model flags of a studio run (as `pith extract`'s). */
export interface ModelFlags {
  mode: RenderMode;
  model?: string;
  modelDir?: string;
}

/** One block as the Inspect view shows it. */
export interface Block {
  node: number;
  path: string;
  tag: string;
  /** P(main) the run decided on (null for a page the classifier did not score). */
  p: number | null;
  words: number;
  kept: boolean;
  /** The step that decided (a rule, a refiner, the content classifier) and its reason. */
  step: string;
  reason: string;
}

/** A page's analysis: what the browser is sent, and what a save needs to turn labels into gold. */
export interface Analysis {
  snapshot: PageSnapshot;
  tree: Tree;
  /** Every structural node of the feature table (rows), with its ownership. */
  rows: Int32Array;
  own: Ownership;
  blocks: Block[];
  pageType: string | null;
  threshold: number | null;
  model: string;
  text: string;
  /** The extraction as `pith extract --format markdown` writes it. */
  markdown: string;
  emptyReason: string | null;
  gold: string | null;
  prf: PRF | null;
  /** Blocks (node indices) the gold calls main; null without gold. */
  goldMain: number[] | null;
  /** What the user should know about the page's labels (an unreadable gold-html file). */
  warning: string | null;
}

/** A gold-html file that cannot be read or gunzipped: the labels come from the gold text instead. */
function unreadable(e: unknown): Error {
  return new Error(`the page's gold-html file is unreadable (${firstLine(e)}): labels from its gold text`);
}

function labelsHtml(html: string | Error | null): string | null {
  return html instanceof Error ? null : html;
}

/** Runs pith on a rendered page and reads its gold from `target` (the dataset folder its labels go to). */
export async function analyzePage(
  snapshot: PageSnapshot,
  flags: ModelFlags,
  target: { dir: string; id: string },
): Promise<Analysis> {
  const choice = resolveModelFile(snapshot.url ?? snapshot.meta?.canonicalUrl ?? null, flags.mode, flags);
  const model = await cachedModel(choice.file, flags.mode);
  const context = { mode: flags.mode, trace: true, ...modelOptions(flags) };
  const extraction = await runExtractor(mlExtractor, snapshot, context);
  const view = modelView(model, snapshot);
  const tree = buildTree(view);
  const predicted = predictPage(model, snapshot);
  const rowsOf = "rows" in predicted ? predicted.rows : [];
  const rows = Int32Array.from(rowsOf, (r) => r.node);
  const own = ownership(view, tree, rows);
  const blocks = blocksOf(rowsOf, tree, extraction);
  const gold = await readGoldText(target.dir, target.id);
  const goldHtml = gold === null ? null : await readGoldHtmlFile(target.dir, target.id).catch(unreadable);
  return {
    snapshot: view,
    tree,
    rows,
    own,
    blocks,
    pageType: "pageType" in predicted ? predicted.pageType : null,
    threshold: "threshold" in predicted ? predicted.threshold : null,
    model: extraction.model ?? choice.file,
    text: extraction.text,
    markdown: formatExtraction("markdown", snapshot, tree, extraction),
    emptyReason: extraction.emptyReason ?? null,
    gold,
    prf: gold === null ? null : wcxbWords(extraction.text, gold),
    goldMain: gold === null ? null : goldBlocks({ view, tree, rows, own }, gold, labelsHtml(goldHtml)),
    warning: goldHtml instanceof Error ? goldHtml.message : null,
  };
}

/** The --model and --model-dir of the flags, as ExtractorContext and resolveModelFile take them. */
export function modelOptions(flags: ModelFlags): { model?: string; modelDir?: string } {
  return {
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.modelDir ? { modelDir: flags.modelDir } : {}),
  };
}

/** The blocks of a page: the rows that own words, kept when a root the run chose holds them. */
function blocksOf(rows: readonly NodePrediction[], tree: Tree, extraction: Extraction): Block[] {
  const roots = new Set(extraction.nodes);
  const byNode = new Map<number, TraceEntry[]>();
  for (const e of extraction.trace) {
    const list = byNode.get(e.node);
    if (list) list.push(e);
    else byNode.set(e.node, [e]);
  }
  return rows
    .filter((r) => r.words > 0)
    .map((r) => {
      const kept = insideAny(tree, r.node, roots);
      const decided = decision(tree, r.node, kept, byNode);
      return { node: r.node, path: r.path, tag: r.tag, p: r.content, words: r.words, kept, ...decided };
    });
}

function insideAny(tree: Tree, node: number, roots: ReadonlySet<number>): boolean {
  for (let i = node; i >= 0; i = tree.parent[i] as number) if (roots.has(i)) return true;
  return false;
}

/**
 * The trace entry that decided a block: a rule's or refiner's entry on the block or a block
 * around it that agrees with the outcome, else the content classifier's on the block.
 */
function decision(
  tree: Tree,
  node: number,
  kept: boolean,
  byNode: ReadonlyMap<number, TraceEntry[]>,
): { step: string; reason: string } {
  for (let i = node; i >= 0; i = tree.parent[i] as number) {
    const e = byNode.get(i)?.find((t) => t.step !== "content-classifier" && (t.action === "keep") === kept);
    if (e) return { step: e.step, reason: i === node ? e.reason : `${e.reason} (on ${e.path})` };
  }
  const own = byNode.get(node)?.find((t) => t.step === "content-classifier");
  if (own && (own.action === "keep") === kept) return { step: own.step, reason: own.reason };
  if (kept) return { step: INSIDE_KEPT, reason: "inside a kept block" };
  return { step: own?.step ?? "none", reason: own?.reason ?? "not kept" };
}

async function readGoldText(dir: string, id: string): Promise<string | null> {
  const path = join(dir, "gold", `${id}.txt`);
  return existsSync(path) ? readFile(path, "utf8") : null;
}

async function readGoldHtmlFile(dir: string, id: string): Promise<string | null> {
  const gz = join(dir, "gold-html", `${id}.html.gz`);
  if (existsSync(gz)) return gunzipSync(await readFile(gz)).toString("utf8");
  const plain = join(dir, "gold-html", `${id}.html`);
  return existsSync(plain) ? readFile(plain, "utf8") : null;
}

interface PageRows {
  view: PageSnapshot;
  tree: Tree;
  rows: Int32Array;
  own: Ownership;
}

/**
 * The blocks the gold calls main: node-level gold (gold-html) where the page has it, else the gold
 * text aligned to the page's words as training aligns it (src/train/align.ts); a block is main
 * when at least MAIN_LEAF_SHARE of its own words are gold, the rule training labels leaves by.
 */
function goldBlocks(at: PageRows, gold: string, goldHtml: string | null): number[] {
  const goldWords = new Float64Array(at.rows.length);
  const add = (textNode: number, n: number): void => {
    const r = at.own.ownerRow[textNode] as number;
    if (r >= 0) goldWords[r] = (goldWords[r] as number) + n;
  };
  if (goldHtml !== null) {
    const ng = goldNodeLabels(at.view, at.tree, goldHtml);
    ng.units.forEach((u, k) => ng.gold[k] && add(u, wordCount(at.view.nodes[u]?.text ?? "")));
  } else {
    const { tokens, owner } = pageTokens(at.view, at.tree);
    const { matched } = alignTokens(tokens, words(gold.toLowerCase()));
    owner.forEach((o, k) => matched[k] && add(o, 1));
  }
  const main: number[] = [];
  at.rows.forEach((node, r) => {
    const w = at.own.ownWords[r] as number;
    if (w > 0 && (goldWords[r] as number) / w >= MAIN_LEAF_SHARE) main.push(node);
  });
  return main;
}
