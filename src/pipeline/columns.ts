/**
 * Feature-schema compatibility by name. A model records the feature names it was trained on and
 * their hash (version + names). When the running pith computes a *superset* of those features at
 * the same FEATURE_VERSION (a family gained columns), the model still applies: its columns are
 * picked from the wider table by name. Anything else (a version bump, a renamed or removed
 * feature) stays a ModelLoadError, as src/ml/artifact.ts decides.
 */
import { createHash } from "node:crypto";
import { FEATURE_VERSION } from "../features/index.ts";

/** Schema hash as src/features/registry.ts computes it, for a given name list. */
export function schemaHashOf(names: readonly string[], version = FEATURE_VERSION): string {
  return createHash("sha256")
    .update(`${version}\n${names.join("\n")}`)
    .digest("hex")
    .slice(0, 16);
}

/**
 * Column of each model feature in the current table, or null when the model's schema is not a
 * same-version subset of the current one (or is identical: no mapping needed).
 */
export function columnMap(
  model: { names: readonly string[]; hash: string },
  current: readonly string[],
): Int32Array | null {
  if (schemaHashOf(model.names) !== model.hash) return null;
  const index = new Map(current.map((n, k) => [n, k]));
  const map = new Int32Array(model.names.length);
  for (let k = 0; k < model.names.length; k++) {
    const c = index.get(model.names[k] as string);
    if (c === undefined) return null;
    map[k] = c;
  }
  return map;
}

/** The table's values re-laid out in the model's column order. */
export function selectColumns(
  values: Float32Array,
  nRows: number,
  nCols: number,
  map: Int32Array,
): Float32Array {
  const width = map.length;
  const out = new Float32Array(nRows * width);
  for (let r = 0; r < nRows; r++) {
    const src = r * nCols;
    const dst = r * width;
    for (let k = 0; k < width; k++) out[dst + k] = values[src + (map[k] as number)] as number;
  }
  return out;
}
