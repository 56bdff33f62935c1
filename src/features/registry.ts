/**
 * The feature registry: every feature pith computes is a named entry with a one-line description
 * and the paper it comes from (dragnet's "named, cited transformers", STYLE.md). Families
 * (dom.ts, visual.ts, text.ts, cnr.ts, context.ts, site.ts) declare their entries and fill their
 * columns; the registry fixes the order, and the schema (names + hash) is what models record.
 */
import { createHash } from "node:crypto";
import { eachOnRowPaths, type Tree } from "../dom/tree.ts";
import type { PageSnapshot, SiteContext } from "../types.ts";
import type { NodeStats } from "./stats.ts";

/** Bump when a feature's meaning changes (names alone are hashed too). */
export const FEATURE_VERSION = 1;

export interface FeatureDef {
  name: string;
  description: string;
  /** Source: "louvan" | "insa" | "alarte" | "debnath" | "modeling-notes" | "pith". */
  paper: string;
}

/** What every family reads: the page, its tree, shared subtree statistics and optional context. */
export interface PageFacts {
  page: PageSnapshot;
  tree: Tree;
  stats: NodeStats;
  /** Structural node indices = table rows. */
  rows: Int32Array;
  site: SiteContext | null;
  /**
   * Per node: bits of the id/class keyword families (dom.ts CLASS_KEYWORDS) on the node itself; set
   * on filled rows and their ancestors only.
   */
  keywordBits: Int32Array;
  /**
   * Per row: 1 = write its values, 0 = leave them at 0; null = every row. Extraction fills only
   * the rows its classifiers read (FeatureContext.fillRows). Page-wide statistics (CNR ranks and
   * maxima, sibling counts, neighbour windows) still count every row.
   */
  filled: Uint8Array | null;
}

/** Whether a family leaves `row` unwritten (PageFacts.filled). */
export function skipRow(f: PageFacts, row: number): boolean {
  return f.filled !== null && f.filled[row] === 0;
}

/**
 * Per node, the OR of `own` over the node and its ancestors, taken on the filled rows and their
 * ancestors only (0 elsewhere: the text-level elements inside leaf segments are never read).
 */
export function inheritedAtRows(f: PageFacts, own: (node: number) => number): Int32Array {
  const bits = new Int32Array(f.tree.n);
  eachOnRowPaths(f.tree, f.rows, f.filled, (b) => {
    const p = f.tree.parent[b] as number;
    bits[b] = (p >= 0 ? (bits[p] as number) : 0) | own(b);
  });
  return bits;
}

/** Writes one column at a time into the row-major table. */
export interface ColumnWriter {
  /** Column index of a registered name (throws on an unknown name: a family/registry mismatch). */
  col(name: string): number;
  set(row: number, col: number, value: number): void;
}

export interface FeatureFamily {
  family: string;
  defs: readonly FeatureDef[];
  fill(facts: PageFacts, out: ColumnWriter): void;
}

export interface FeatureSchema {
  version: number;
  names: string[];
  /** sha256 of version + names, hex, first 16 chars. */
  hash: string;
}

export function schemaOf(families: readonly FeatureFamily[]): FeatureSchema {
  const names = families.flatMap((f) => f.defs.map((d) => d.name));
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`feature registry: duplicate name "${dup}"`);
  const hash = createHash("sha256")
    .update(`${FEATURE_VERSION}\n${names.join("\n")}`)
    .digest("hex")
    .slice(0, 16);
  return { version: FEATURE_VERSION, names, hash };
}

/** Helper for families: def(name, description, paper). */
export function def(name: string, description: string, paper: string): FeatureDef {
  return { name, description, paper };
}

/** a / b, NaN when b is 0 (a ratio over nothing is missing, not zero). */
export function ratio(a: number, b: number): number {
  return b === 0 ? NaN : a / b;
}
