/**
 * Control characters in page text. Pages are untrusted and pith's text goes to terminals, files
 * and other programs: an ESC sequence in a page (`\x1b[2J`, `\x1b]8;;…`) would drive the terminal
 * that prints `pith extract`'s output, and NUL, BEL, DEL or a C1 control is never text a reader
 * sees (browsers ignore NUL in body text and draw no glyph for the others). Both renderers drop
 * them from text nodes and the title, so features, labels and every output format see the same
 * text. Kept: tab, line feed, form feed and carriage return, which HTML counts as whitespace.
 * trafilatura's `sanitize` removes the same set.
 */

/** C0 controls but HTML whitespace, DEL, C1 controls. */
const CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/g;
const HAS_CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/;

/** `text` without control characters (the same string when it has none). */
export function withoutControls(text: string): string {
  return HAS_CONTROL.test(text) ? text.replace(CONTROL, "") : text;
}
