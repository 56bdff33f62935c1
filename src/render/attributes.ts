/**
 * Attribute values and names as both renderers keep them (the names kept: KEPT_ATTRIBUTES in
 * src/types.ts; the static renderer reads them in place: attribute-names.ts).
 */
import { withoutControls } from "./control-chars.ts";

/** Longer attribute values are cut: they are read for tokens, never re-emitted verbatim. */
export const MAX_ATTRIBUTE_LENGTH = 300;

/**
 * `name.toLowerCase()`, without the call when it would change nothing (an ASCII name with no
 * capital, nearly every attribute name). A name sliced from a page held as a two-byte string (a
 * character beyond Latin-1: 185 of 200 wcxb-dev pages) is a two-byte string, whose toLowerCase
 * V8 runs on its slow path: ~35 ns a call, ~8 for this check.
 */
export function lowerCased(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if ((c >= 0x41 && c <= 0x5a) || c >= 0x80) return name.toLowerCase();
  }
  return name;
}

/** A kept attribute's value, cut to MAX_ATTRIBUTE_LENGTH, without control characters (control-chars.ts). */
export function keptValue(value: string): string {
  return withoutControls(value.length > MAX_ATTRIBUTE_LENGTH ? value.slice(0, MAX_ATTRIBUTE_LENGTH) : value);
}
