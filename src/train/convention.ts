/**
 * Training side of the label-convention feature (src/features/convention.ts): each page's rows
 * get its dataset's convention, and everything that stands for extraction (the page-type router,
 * held-out evaluation) sees the default convention, as a new page would.
 */
import { CONVENTION_DEFAULT, CONVENTION_FEATURE } from "../features/convention.ts";
import { featureIndex } from "../features/index.ts";
import type { PageRecord } from "./page-record.ts";

/** Sets whose gold follows WCXB's convention (every other set: 0). */
const WCXB_CONVENTION_SETS: ReadonlySet<string> = new Set(["wcxb-dev"]);

function column(): number {
  const c = featureIndex().get(CONVENTION_FEATURE);
  if (c === undefined) throw new Error(`feature ${CONVENTION_FEATURE} is not registered`);
  return c;
}

function fill(values: Float32Array, nCols: number, c: number, v: number): void {
  for (let off = c; off < values.length; off += nCols) values[off] = v;
}

/** Sets the convention column of every row of `rec` from its dataset (in place). */
export function labelConvention(rec: PageRecord, nCols: number): void {
  fill(rec.values, nCols, column(), WCXB_CONVENTION_SETS.has(rec.dataset) ? 1 : 0);
}

/** A copy of the page's values with the convention an extraction asks for. */
export function extractionValues(values: Float32Array, nCols: number): Float32Array {
  const out = values.slice();
  fill(out, nCols, column(), CONVENTION_DEFAULT);
  return out;
}
