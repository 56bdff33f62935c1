/**
 * MathML formulas as page text (MathML Core; Chromium ≥ 109, Firefox and Safari render it).
 * A formula is text a reader sees and copies (`<math><mi>E</mi><mo>=</mo><mi>m</mi><msup>…`):
 * dropping it whole would leave holes in the sentences around it ("It states
 * that , linking five constants"). Both renderers keep the `<math>` element without its
 * descendants (the snapshot stays small, and features see one inline element) and
 * give it one text child: the formula's rendered tokens on one line (below).
 *
 * Choices (no paper covers this):
 * - The text is the concatenation of the formula's text nodes on one line: `e^{iπ}+1=0` comes
 *   out `eiπ+1=0`, `x²` as `x2`. Chromium 156's innerText differs: a line per token, and a
 *   one-letter `<mi>` as its mathematical italic (`𝑒`, U+1D452); pith keeps the formula inside its
 *   sentence and its letters as the source wrote them, so they stay words a search finds.
 *   Whitespace-only text between tokens is layout, not text, and is dropped; whitespace inside a
 *   token collapses to one space and is trimmed at the token's edges, except inside `<mtext>` and
 *   `<ms>` (text runs whose spaces are shown), where it is kept collapsed.
 * - `<annotation>` and `<annotation-xml>` (the TeX source or content markup a `<semantics>`
 *   element carries beside the rendered formula) are not shown by a browser and are left out.
 * - A formula the markup hides (Wikipedia's MathML copy sits in a display:none span beside an
 *   image of the formula) stays hidden: the text child inherits the element's visibility.
 */

/** MathML elements whose content a browser does not render. */
export const MATH_UNRENDERED_TAGS: readonly string[] = ["annotation", "annotation-xml"];
/** MathML text runs whose inner spaces are shown. */
export const MATH_SPACED_TAGS: readonly string[] = ["mtext", "ms"];

const SPACES = /\s+/g;

/** One text piece of a formula, as it joins the formula's text (see the header). */
export function mathPiece(data: string, spaced: boolean): string {
  const collapsed = data.replace(SPACES, " ");
  return spaced ? collapsed : collapsed.trim();
}

/** Builds one formula's text from its text events (static renderer). */
export class MathText {
  private text = "";
  /** Depth (in open elements inside the formula) of the unrendered element being skipped, 0 when none. */
  private unrenderedAt = 0;
  private spacedDepth = 0;
  private depth = 0;

  open(tag: string): void {
    this.depth++;
    if (this.unrenderedAt === 0 && MATH_UNRENDERED_TAGS.includes(tag)) this.unrenderedAt = this.depth;
    if (MATH_SPACED_TAGS.includes(tag)) this.spacedDepth++;
  }

  close(tag: string): void {
    if (this.depth === 0) return;
    if (this.unrenderedAt === this.depth) this.unrenderedAt = 0;
    if (MATH_SPACED_TAGS.includes(tag) && this.spacedDepth > 0) this.spacedDepth--;
    this.depth--;
  }

  add(data: string): void {
    if (this.unrenderedAt === 0) this.text += mathPiece(data, this.spacedDepth > 0);
  }

  /** The formula's text, or "" when it shows none. */
  result(): string {
    return this.text.trim();
  }
}
