/**
 * Keys of process-wide memos (keyword bits, class-token parts, element signatures) must not keep
 * a page alive. V8 makes a substring of 13 or more characters a view of its parent string: an id
 * or class value cut from a page's HTML by the parser holds the whole page's HTML for as long as
 * it is referenced, so a memo that outlives the page holds every page whose values it keeps.
 */

/** A copy of `s` that references no larger string (V8 flattens the concatenation into new memory). */
export function detached(s: string): string {
  return (" " + s).slice(1);
}
