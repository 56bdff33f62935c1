/** The attribute filter shared by both renderers' outputs (see KEPT_ATTRIBUTES in src/types.ts). */
import { KEPT_ATTRIBUTE_PREFIX, KEPT_ATTRIBUTES } from "../types.ts";

const KEPT = new Set<string>(KEPT_ATTRIBUTES);
/** Longer attribute values are cut: they are read for tokens, never re-emitted verbatim. */
export const MAX_ATTRIBUTE_LENGTH = 300;

export function keepAttributes(raw: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in raw) {
    if (KEPT.has(name) || name.startsWith(KEPT_ATTRIBUTE_PREFIX)) {
      const v = raw[name] ?? "";
      out[name] = v.length > MAX_ATTRIBUTE_LENGTH ? v.slice(0, MAX_ATTRIBUTE_LENGTH) : v;
    }
  }
  return out;
}
