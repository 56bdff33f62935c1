/**
 * The static renderer's attribute-name filter, read in place: the name a snapshot keeps an
 * attribute under is its lower-cased name when that is one of KEPT_ATTRIBUTES (returned as that
 * list's shared string) or starts with KEPT_ATTRIBUTE_PREFIX; other attributes are dropped.
 * The name of an attribute the snapshot drops is not sliced.
 * The tree builder asks it when an attribute's name is read, before its value, so a dropped
 * attribute's value is not sliced or decoded either (tree-builder.ts). Of the ~2,500 attributes
 * of a wcxb-dev page, 41 % have a name the snapshot drops (data-*, width, rel, target, …). The
 * slice, the lower-casing check and the Map lookup (which hashes the new string) cost ~50 ns an
 * attribute. Here a kept name is found by its length and characters among the few kept names of
 * that length, compared ASCII case-insensitively, and returned as the table's shared string. With
 * both, the static snapshot took 5.5 % less CPU (200 wcxb-dev pages, medians of nine
 * alternating runs). test/attribute-names.test.ts compares it with that
 * definition applied to the sliced, lower-cased name.
 *
 * Why comparing ASCII letters case-insensitively is exact: `toLowerCase` maps a character to
 * ASCII only from ASCII, except KELVIN SIGN (to `k`, in no kept name) and `İ` (to `i` plus a
 * combining dot, never followed by ASCII in the result); so the lower-cased name equals an ASCII
 * kept name, or starts with `aria-`, exactly when the characters match that way. Names with the
 * prefix are sliced and lower-cased (they are kept under their own name).
 */
import { KEPT_ATTRIBUTE_PREFIX, KEPT_ATTRIBUTES } from "../types.ts";
import { lowerCased } from "./attributes.ts";

/**
 * The attribute a <template> declares a shadow root with
 * (shadow-root.ts): its value is read though it is not kept.
 */
export const SHADOW_ROOT_MODE = "shadowrootmode";

/** KEPT_ATTRIBUTES by length: at most three names share one. */
const KEPT_BY_LENGTH: string[][] = [];
for (const name of KEPT_ATTRIBUTES) (KEPT_BY_LENGTH[name.length] ??= []).push(name);

const ASCII_CASE_BIT = 0x20;
const LOWER_A = 0x61;
const LOWER_Z = 0x7a;

/** Whether html[start, start + name.length) is `name` (lower-case ASCII) with ASCII letters in any case. */
export function matchesAt(html: string, start: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const want = name.charCodeAt(i);
    const c = html.charCodeAt(start + i);
    if (c !== want && (want < LOWER_A || want > LOWER_Z || (c | ASCII_CASE_BIT) !== want)) return false;
  }
  return true;
}

/**
 * The name under which the snapshot keeps the attribute named
 * html[start, end), or null when it drops it (see the header).
 */
export function keptNameAt(html: string, start: number, end: number): string | null {
  const length = end - start;
  const candidates = KEPT_BY_LENGTH[length];
  if (candidates !== undefined) {
    for (let k = 0; k < candidates.length; k++) {
      const name = candidates[k] as string;
      if (matchesAt(html, start, name)) return name;
    }
  }
  if (length >= KEPT_ATTRIBUTE_PREFIX.length && matchesAt(html, start, KEPT_ATTRIBUTE_PREFIX))
    return lowerCased(html.slice(start, end));
  return null;
}

/**
 * Whether the attribute named html[start, end) is SHADOW_ROOT_MODE in any ASCII case (as
 * `lowerCased(name) === SHADOW_ROOT_MODE`).
 */
export function isShadowRootModeAt(html: string, start: number, end: number): boolean {
  return end - start === SHADOW_ROOT_MODE.length && matchesAt(html, start, SHADOW_ROOT_MODE);
}
