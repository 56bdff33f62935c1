/** The attribute filter shared by both renderers' outputs (see KEPT_ATTRIBUTES in src/types.ts). */
import { KEPT_ATTRIBUTE_PREFIX, KEPT_ATTRIBUTES } from "../types.ts";
import { withoutControls } from "./control-chars.ts";

const KEPT = new Set<string>(KEPT_ATTRIBUTES);
/** Longer attribute values are cut: they are read for tokens, never re-emitted verbatim. */
export const MAX_ATTRIBUTE_LENGTH = 300;

/** Whether a snapshot keeps an attribute of this (lower-case) name. */
export function keptAttribute(name: string): boolean {
  return KEPT.has(name) || name.startsWith(KEPT_ATTRIBUTE_PREFIX);
}

/** A kept attribute's value, cut to MAX_ATTRIBUTE_LENGTH, without control characters (control-chars.ts). */
export function keptValue(value: string): string {
  return withoutControls(value.length > MAX_ATTRIBUTE_LENGTH ? value.slice(0, MAX_ATTRIBUTE_LENGTH) : value);
}

