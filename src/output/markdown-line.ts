/**
 * The line the Markdown writer (markdown.ts) is building: a list of pieces (page text, marks, a
 * closed mark's rewritten content) and its length, joined once when the line is written. An
 * opening mark is a piece of its own, and the pieces after it are the mark's content, so closing
 * the mark (which rewrites its content: edge spaces moved outside, a code span fenced around it)
 * takes only the list's tail out; the text before the mark is neither copied nor read again, and
 * the last character is read from the last piece. Writing a paragraph of N inline elements, or a
 * code block of N lines, thus takes time linear in its length (times the depth of nested marks).
 * The line kept as one string was rebuilt at every closing mark, and reading its last character
 * flattened it (V8 keeps a string built by `+=` as a tree until it is read): quadratic, `pith
 * extract --format markdown` took 3.6 s for 40,000 <b> in one paragraph and 23 s for a code block of
 * 80,000 line <div>s, against 0.9 s and 2.2 s for the text output (1.1 s and 2.3 s now).
 */
export class MarkdownLine {
  private readonly pieces: string[] = [];
  /** The line's length in characters. */
  length = 0;

  append(text: string): void {
    if (!text) return; // no empty piece: the last piece holds the last character
    this.pieces.push(text);
    this.length += text.length;
  }

  /** The line's last character ("" for an empty line). */
  lastChar(): string {
    const last = this.pieces[this.pieces.length - 1];
    return last === undefined ? "" : last.charAt(last.length - 1);
  }

  /** Replaces the line's last character with `text` (the line is not empty). */
  replaceLastChar(text: string): void {
    const k = this.pieces.length - 1;
    this.pieces[k] = (this.pieces[k] as string).slice(0, -1) + text;
    this.length += text.length - 1;
  }

  /**
   * Appends an opening mark; returns where its content starts, for
   * closeMark (of a mark that is not empty: "" appends nothing).
   */
  openMark(mark: string): number {
    this.append(mark);
    return this.pieces.length;
  }

  /**
   * Takes the content written since openMark returned `at`, and the opening mark before it, out of
   * the line; returns the content. No mark opened after it may still be open.
   */
  closeMark(at: number): string {
    const content = this.pieces.splice(at).join("");
    const mark = this.pieces.pop() as string;
    this.length -= content.length + mark.length;
    return content;
  }

  /** The line's text; the line is empty afterwards. */
  take(): string {
    const text = this.pieces.join("");
    this.pieces.length = 0;
    this.length = 0;
    return text;
  }
}
