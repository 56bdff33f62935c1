/**
 * Control characters in page text. Pages are untrusted and pith's text goes to terminals, files
 * and other programs: an ESC sequence in a page (`\x1b[2J`, `\x1b]8;;…`) would drive the terminal
 * that prints `pith extract`'s output, and NUL, BEL or DEL is never text a reader sees (browsers
 * ignore NUL in body text and draw no glyph for the others). Both renderers drop them from text
 * nodes, the title and kept attributes, so features, labels and every output format see the same
 * text. Kept: tab, line feed, form feed and carriage return, which HTML counts as whitespace.
 *
 * C1 controls (U+0080-U+009F) in a page are nearly always mis-decoded windows-1252 punctuation:
 * text saved as windows-1252, read as ISO-8859-1 and written out as UTF-8 keeps U+0092 where the
 * author typed ’ ("don\u0092t"; 75 pages of ../shared/data hold such a control between two
 * letters). They are read as windows-1252 meant them (ftfy's `fix_c1_controls` does the same),
 * so the word boundary stays where the reader sees it; the five bytes windows-1252 leaves
 * undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) are dropped. trafilatura's `sanitize` drops the
 * other controls too.
 */

/** C0 controls but HTML whitespace, DEL, C1 controls. */
const CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/g;
const HAS_CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/;

/** What each C1 control (U+0080 + k) meant in windows-1252; "" where that code page has no character. */
const C1_AS_WINDOWS_1252: readonly string[] = [
  "\u20AC",
  "",
  "\u201A",
  "\u0192",
  "\u201E",
  "\u2026",
  "\u2020",
  "\u2021",
  "\u02C6",
  "\u2030",
  "\u0160",
  "\u2039",
  "\u0152",
  "",
  "\u017D",
  "",
  "",
  "\u2018",
  "\u2019",
  "\u201C",
  "\u201D",
  "\u2022",
  "\u2013",
  "\u2014",
  "\u02DC",
  "\u2122",
  "\u0161",
  "\u203A",
  "\u0153",
  "",
  "\u017E",
  "\u0178",
];

function replaceControl(c: string): string {
  const code = c.charCodeAt(0);
  return code >= 0x80 ? (C1_AS_WINDOWS_1252[code - 0x80] as string) : "";
}

/** `text` without control characters, C1 ones read as windows-1252 (the same string when it has none). */
export function withoutControls(text: string): string {
  return HAS_CONTROL.test(text) ? text.replace(CONTROL, replaceControl) : text;
}
