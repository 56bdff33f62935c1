/** The attribute filter shared by both renderers' outputs (see KEPT_ATTRIBUTES in src/types.ts). */
import { KEPT_ATTRIBUTE_PREFIX, KEPT_ATTRIBUTES } from "../types.ts";
import { withoutControls } from "./control-chars.ts";

/** Each kept name as its own (shared, internalized) string: see keptName. */
const KEPT = new Map<string, string>(KEPT_ATTRIBUTES.map((name) => [name, name]));
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

/**
 * The name under which a snapshot keeps an attribute of this (lower-case) name, or null when it
 * drops it: one of KEPT_ATTRIBUTES as the same shared string for every element (a name read from
 * the page is a new string each time, which an object's property lookups must first find in V8's
 * string table, comparing characters), or the name itself (aria-*).
 */
export function keptName(name: string): string | null {
  return KEPT.get(name) ?? (name.startsWith(KEPT_ATTRIBUTE_PREFIX) ? name : null);
}

/** A kept attribute's value, cut to MAX_ATTRIBUTE_LENGTH, without control characters (control-chars.ts). */
export function keptValue(value: string): string {
  return withoutControls(value.length > MAX_ATTRIBUTE_LENGTH ? value.slice(0, MAX_ATTRIBUTE_LENGTH) : value);
}

