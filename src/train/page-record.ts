/**
 * One labeled page as training rows: the feature table of its structural nodes (static or
 * chromium snapshot) beside the node labels aligned from the gold text, plus what grouping
 * and reporting need (dataset, site, page type). Built in worker threads (worker.ts) and
 * cached on disk (cache.ts). Static mode renders the page here; chromium mode reads the
 * snapshot the main thread rendered into the snapshot cache (snapshot-cache.ts), because a
 * browser per worker would cost more memory than the two cores can use.
 */
import { buildTree, type Tree } from "../dom/tree.ts";
import { computeFeatures, type FeatureContext } from "../features/index.ts";
import { rowClassTokens, type RowTokens } from "../pipeline/context/class-lexicon.ts";
import { rowHeadingTokens } from "../pipeline/context/heading-lexicon.ts";
import { copyText } from "../pipeline/rules/dedupe.ts";
import { rowPathSignatures } from "../pipeline/context/path-signature.ts";
import { ownership, type Ownership } from "../pipeline/own-text.ts";
import { staticSnapshot } from "../render/static.ts";
import { revealMarkupHidden } from "../pipeline/hidden-text.ts";
import { readDatasetPage, readGold, type Dataset, type DatasetPage } from "../io/dataset.ts";
import type { PageSnapshot, RenderMode } from "../types.ts";
import { labelNodes } from "./labels.ts";
import { readCachedSnapshot } from "./snapshot-cache.ts";
import { siteOf } from "./sites.ts";

export interface PageRecord {
  dataset: string;
  id: string;
  /** Grouping key for site-held-out splits. */
  site: string;
  pageType: string;
  genre: string;
  /** Structural node indices (rows), document order. */
  nodes: Int32Array;
  /** Row-major features, nodes.length × nCols. */
  values: Float32Array;
  /** Label: the row's own words are mostly gold. */
  main: Uint8Array;
  /** Label: the row is a segment of good granularity. */
  good: Uint8Array;
  /** Share of the row's words found in the gold (0 when the alignment gave the row no tokens). */
  share: Float32Array;
  /** Words owned by the row (its own text). */
  ownWords: Int32Array;
  /** Words in the row's subtree. */
  subtreeWords: Int32Array;
  /** Row of the nearest structural ancestor, -1 at the top. */
  parentRow: Int32Array;
  /**
   * 1 on a noise-labeled leaf whose text repeats a main-labeled leaf of the page word for word
   * (ambiguousCopies): which copy the gold aligned to is arbitrary, so the row is not trained on.
   */
  ambiguous: Uint8Array;
  /** Number of gold words (for page-level statistics). */
  goldWords: number;
  /**
   * id/class tokens of each leaf row, for the context stage's class-token lexicon
   * (src/pipeline/context/class-lexicon.ts).
   */
  classTokens: RowTokens;
  /**
   * Section-heading tokens of each leaf row, for the context stage's heading lexicon
   * (src/pipeline/context/heading-lexicon.ts).
   */
  headingTokens: RowTokens;
  /**
   * Path signature of each row, for the context stage's same-path features (src/pipeline/context/path-signature.ts).
   */
  paths: Uint32Array;
}

/**
 * The page's snapshot in `mode`: rendered statically, or the cached chromium render (an error when missing).
 */
export async function datasetSnapshot(
  ds: Dataset,
  page: DatasetPage,
  mode: RenderMode,
): Promise<PageSnapshot> {
  if (mode === "static") return staticSnapshot(await readDatasetPage(ds, page));
  const snap = await readCachedSnapshot(ds, page.id);
  if (!snap) throw new Error(`no cached chromium snapshot of ${ds.name}/${page.id}`);
  return snap;
}

/** Sibling snapshots kept for the next pages of their site (a worker gets a site's pages in turn). */
const SIBLINGS_KEPT = 32;
const siblingViews = new Map<string, PageSnapshot | null>();

/** A sibling page in the view the model reads (null when it cannot be read or rendered). */
async function siblingView(ds: Dataset, id: string, mode: RenderMode): Promise<PageSnapshot | null> {
  const key = `${ds.dir}\u0000${mode}\u0000${id}`;
  if (siblingViews.has(key)) return siblingViews.get(key) as PageSnapshot | null;
  const page = ds.pages.find((p) => p.id === id);
  const view = page ? await datasetSnapshot(ds, page, mode).then(revealMarkupHidden, () => null) : null;
  siblingViews.set(key, view);
  if (siblingViews.size > SIBLINGS_KEPT) siblingViews.delete(siblingViews.keys().next().value as string);
  return view;
}

/** The feature context of a page read with `siblings` (none without them). */
async function siteFeatureContext(
  ds: Dataset,
  page: DatasetPage,
  mode: RenderMode,
  siblings: readonly string[],
): Promise<FeatureContext> {
  const pages: PageSnapshot[] = [];
  for (const id of siblings) {
    const view = await siblingView(ds, id, mode);
    if (view) pages.push(view);
  }
  return pages.length ? { site: { domain: siteOf(page), pages } } : {};
}

/**
 * Computes the rows and labels of one dataset page from its snapshot in `mode`; with `siblings`
 * (ids of other pages of its site, `pith train --site-features`), the site features against them,
 * as `pith extract --site-features on` computes them on a batch.
 */
export async function buildPageRecord(
  ds: Dataset,
  page: DatasetPage,
  mode: RenderMode = "static",
  siblings: readonly string[] = [],
): Promise<PageRecord | null> {
  const gold = await readGold(ds, page);
  if (gold === null) return null;
  // the view the trained model will read (readsHiddenText: static mode), so labels and rows match it
  const snap = revealMarkupHidden(await datasetSnapshot(ds, page, mode));
  const tree = buildTree(snap);
  const table = computeFeatures(snap, tree, await siteFeatureContext(ds, page, mode, siblings));
  const labels = labelNodes(snap, tree, gold);
  const own = ownership(snap, tree, table.nodes);
  const n = table.nodes.length;
  const main = new Uint8Array(n);
  const good = new Uint8Array(n);
  const share = new Float32Array(n);
  const at = new Map<number, number>();
  for (let k = 0; k < labels.nodes.length; k++) at.set(labels.nodes[k] as number, k);
  for (let r = 0; r < n; r++) {
    const k = at.get(table.nodes[r] as number);
    if (k === undefined) continue;
    main[r] = labels.main[k] as number;
    good[r] = labels.goodSegment[k] as number;
    // labels.ts gives NaN where the alignment counted none of the row's words: a word split over two
    // rows ("2<sup>nd</sup>" when the <sup> is its own row) is one token, owned by the first row.
    // 0, not NaN: one NaN would make estimatedF1 (thresholds.ts) 0 for the whole page.
    const g = labels.goldShare[k] as number;
    share[r] = Number.isNaN(g) ? 0 : g;
  }
  const ambiguous = ambiguousCopies(snap, tree, table.nodes, own, main);
  const goldWords = gold.match(/[\p{L}\p{M}\p{Nd}\p{Pc}]+/gu)?.length ?? 0;
  return {
    dataset: ds.name,
    id: page.id,
    site: siteOf(page),
    pageType: page.pageType,
    genre: page.genre,
    nodes: table.nodes,
    values: table.values,
    main,
    good,
    share,
    ownWords: own.ownWords,
    subtreeWords: own.subtreeWords,
    parentRow: own.parentRow,
    ambiguous,
    goldWords,
    classTokens: rowClassTokens(snap, tree, table.nodes, own.ownWords),
    headingTokens: rowHeadingTokens(snap, tree, table.nodes, own.ownWords),
    paths: rowPathSignatures(snap, tree, table.nodes),
  };
}

/**
 * Noise-labeled leaves that repeat a main-labeled leaf's text word for word. The gold aligns to
 * one copy of a block the page shows twice (a product description in a tab and in a hidden
 * mobile copy, a summary repeated below): the other copy is labeled noise although its features
 * may be those of content, and a bag-of-words metric does not care which copy is kept. Measured
 * (static, first 400 pages per set): 1.7 % of wcxb-dev's main-labeled leaf words have such a
 * noise copy, on 71 of 400 pages; dragnet 77 pages, cleaneval 29. A copy is what the duplicate
 * rule calls one (src/pipeline/rules/dedupe.ts copyText: a leaf of at least 4 words, same text).
 */
export function ambiguousCopies(
  page: PageSnapshot,
  tree: Tree,
  nodes: Int32Array,
  own: Pick<Ownership, "ownWords" | "subtreeWords">,
  main: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(nodes.length);
  const mainTexts = new Set<string>();
  const noise: { row: number; text: string }[] = [];
  for (let r = 0; r < nodes.length; r++) {
    const text = copyText(page, tree, nodes[r] as number, own, r);
    if (text === null) continue;
    if (main[r] === 1) mainTexts.add(text);
    else noise.push({ row: r, text });
  }
  for (const { row, text } of noise) if (mainTexts.has(text)) out[row] = 1;
  return out;
}

/**
 * A labeled page the run could not use: "features", it has no record (HTML missing or
 * unreadable, no chromium render), so it neither trains nor is scored; "evaluate", its held-out
 * end-to-end evaluation failed, so no cross-validation figure counts it.
 */
export interface PageFailure {
  dataset: string;
  id: string;
  stage: "features" | "evaluate";
  reason: string;
}
