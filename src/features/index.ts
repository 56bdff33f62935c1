/**
 * pith's feature stage: one row per structural node (structural.ts), one column per registered
 * feature (registry.ts), families in a fixed order. Papers: Louvan et al. (DOM, visual, text),
 * Insa et al. (CNR, Algorithm 1), Alarte et al. 2018 (occurrence counts), Debnath et al. 2005
 * (IBDF); context features after MODELING-NOTES.md. Linear time, no recursion.
 */
import { eachOnRowPaths, type Tree } from "../dom/tree.ts";
import type { PageSnapshot, SiteContext, SnapshotNode } from "../types.ts";
import { cnrFamily } from "./cnr.ts";
import { contextFamily } from "./context.ts";
import { domFamily, keywordBits } from "./dom.ts";
import { hiddenFamily } from "./hidden.ts";
import { landmarkFamily } from "./landmarks.ts";
import {
  schemaOf,
  type ColumnWriter,
  type FeatureFamily,
  type FeatureSchema,
  type PageFacts,
} from "./registry.ts";
import { pageFamily } from "./page.ts";
import { regionFamily } from "./region.ts";
import { siteFamily } from "./site.ts";
import { computeStats } from "./stats.ts";
import { textFamily } from "./text.ts";
import { visualFamily } from "./visual.ts";

export type { FeatureDef, FeatureSchema } from "./registry.ts";
export { FEATURE_VERSION } from "./registry.ts";
export { structuralNodes, analyzeStructure, type Structure } from "./structural.ts";
export { siteContextFor } from "./site-context.ts";

/** The families, in column order. Same names in both render modes (visual NaN in static). */
export const FAMILIES: readonly FeatureFamily[] = [
  domFamily,
  textFamily,
  cnrFamily,
  contextFamily,
  visualFamily,
  siteFamily,
  regionFamily,
  pageFamily,
  hiddenFamily,
  landmarkFamily,
];

export interface FeatureTable {
  schema: FeatureSchema;
  /** Snapshot indices of the structural nodes, document order. */
  nodes: Int32Array;
  /** Row-major nodes.length × schema.names.length; NaN = missing. */
  values: Float32Array;
  /** Detected or given page language (ISO 639-1), null when unknown. */
  lang: string | null;
}

let cachedSchema: FeatureSchema | null = null;
let cachedIndex: Map<string, number> | null = null;

export function featureSchema(): FeatureSchema {
  cachedSchema ??= schemaOf(FAMILIES);
  return cachedSchema;
}

/** name → column index. */
export function featureIndex(): ReadonlyMap<string, number> {
  cachedIndex ??= new Map(featureSchema().names.map((n, k) => [n, k]));
  return cachedIndex;
}

/** Every feature with its description and paper (for docs, `pith features --list`, notebooks). */
export function featureDefinitions() {
  return FAMILIES.flatMap((f) => f.defs.map((d) => ({ ...d, family: f.family })));
}

/** What computeFeatures may be given beside the page. */
export interface FeatureContext {
  site?: SiteContext;
  lang?: string | null;
  /**
   * Given the rows (structural nodes), which of them to fill: 1 = fill, 0 = leave at 0. Extraction
   * reads only rows that own words (40 % of a wcxb-dev page's rows) and fills only those
   * (pipeline/run.ts); training and `pith features` fill every row. `nodeWords`: the words under
   * each snapshot node as the text statistics counted them (a visible text node: its own words),
   * so that the caller need not count them again.
   */
  fillRows?: (rows: Int32Array, nodeWords: Int32Array) => Uint8Array;
}

export function computeFeatures(page: PageSnapshot, tree: Tree, context: FeatureContext = {}): FeatureTable {
  const schema = featureSchema();
  const index = featureIndex();
  const stats = computeStats(page, tree, context.lang);
  const rows = stats.structure.nodes;
  const width = schema.names.length;
  // Zero-initialised: one-hot columns only write their 1s. Every family writes every other
  // column itself, NaN where a value is missing (tested: features-compute.test.ts).
  const values = new Float32Array(rows.length * width);
  const writer: ColumnWriter = {
    col(name) {
      const c = index.get(name);
      if (c === undefined) throw new Error(`features: "${name}" is not in the registry`);
      return c;
    },
    set(row, col, value) {
      values[row * width + col] = value;
    },
  };
  const filled = context.fillRows ? context.fillRows(rows, stats.words) : null;
  const facts: PageFacts = {
    page,
    tree,
    stats,
    rows,
    site: context.site && context.site.pages.length ? context.site : null,
    keywordBits: rowKeywordBits(page, tree, rows, filled),
    filled,
  };
  for (const family of FAMILIES) family.fill(facts, writer);
  return { schema, nodes: rows, values, lang: stats.lang };
}

/**
 * Keyword bits (dom.ts keywordBits) of the nodes the families read them on: the filled rows (dom
 * columns) and their ancestors (context.ts inherited bits); 0 elsewhere. The other elements, more
 * than half of those with an id or class on a wcxb-dev page (459 of 830), are never looked at.
 */
function rowKeywordBits(
  page: PageSnapshot,
  tree: Tree,
  rows: Int32Array,
  filled: Uint8Array | null,
): Int32Array {
  const bits = new Int32Array(tree.n);
  eachOnRowPaths(tree, rows, filled, (a) => (bits[a] = keywordBits(page.nodes[a] as SnapshotNode)));
  return bits;
}

/** One cell: table value at (row, feature name). */
export function featureValue(table: FeatureTable, row: number, name: string): number {
  const c = featureIndex().get(name);
  if (c === undefined) throw new Error(`features: unknown feature "${name}"`);
  return table.values[row * table.schema.names.length + c] as number;
}
