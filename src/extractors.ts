/**
 * The extractor registry: every method `pith extract --method` and `pith evaluate --method`
 * can run, by name. Each paper's system registers here from its own file in src/algorithms/;
 * the learned pipeline registers as "ml"; the oracle (labels check) as "oracle".
 * Keep one line per extractor so parallel work does not collide.
 */
import type { Extractor } from "./types.ts";

const REGISTRY = new Map<string, Extractor>();

export function registerExtractor(extractor: Extractor): void {
  REGISTRY.set(extractor.name, extractor);
}

export function getExtractor(name: string): Extractor {
  const e = REGISTRY.get(name);
  if (!e) throw new Error(`unknown method "${name}"; known: ${[...REGISTRY.keys()].sort().join(", ")}`);
  return e;
}

export function extractorNames(): string[] {
  return [...REGISTRY.keys()].sort();
}
