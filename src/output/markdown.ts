/**
 * Markdown output from the chosen subtrees: headings (#), paragraphs, list items (- / 1.),
 * block quotes (>), code blocks (```), links ([text](href), absolute when the page URL is known:
 * urls.ts), images (![alt](src), markdownImage), emphasis, strikethrough (~~), line breaks (a
 * backslash at the line's end), and data tables as
 * GitHub-flavoured tables (markdown-table.ts; a layout table's cells are blocks). One iterative
 * pre-order walk; block elements close their line (an <hr> is a thematic break), list items and quotes nest
 * (markdown-blocks.ts). Page text is escaped wherever CommonMark would read it as syntax
 * (escape.ts), and a link or emphasis around blocks is repeated in each block, so that rendered
 * Markdown says what the text output says (`npm run check:markdown`). The line being written is a
 * list of pieces (markdown-line.ts), so that closing a mark reads only the mark's own content:
 * linear time in the length of a paragraph or a code block.
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { PREFORMATTED_TAGS, isBlockDisplay } from "../dom/blocks.ts";
import { childrenOf, type Tree } from "../dom/tree.ts";
import { leftOutOfOutput } from "../dom/permalink.ts";
import { codeLanguage } from "./code-language.ts";
import {
  collapseSpaces,
  continuesLine,
  followsCode,
  needsSeparator,
  unrenderedWhitespace,
  VERBATIM_TAGS,
} from "../dom/text.ts";
import {
  escapeHeadingEnd,
  escapeLineStart,
  escapeMarkdown,
  isDataUrl,
  markdownUrl,
  safeUrl,
} from "../dom/escape.ts";
import { absoluteUrl, baseUrl } from "../dom/urls.ts";
import { markdownRows, markdownTable } from "./markdown-table.ts";
import { MarkdownBlocks } from "./markdown-blocks.ts";
import { MarkdownLine } from "./markdown-line.ts";
import { dropUnflanked, type EmphasisPair } from "./emphasis.ts";
import { DEFAULT_OUTPUT, type OutputOptions } from "./options.ts";

const HEADING = /^h([1-6])$/;
/** An <hr> (not "---", which under a paragraph line would make it a heading). */
const THEMATIC_BREAK = "* * *";

interface Open {
  end: number;
  tag: string;
  /** Text to append when the element closes (link targets, emphasis). */
  suffix: string;
  block: boolean;
  /**
   * Inline marks: where the content after the opening mark starts in the line (MarkdownLine.openMark;
   * -1 while a block boundary has closed the mark and no content has reopened it: flush closes
   * every open mark on its line).
   */
  at: number;
  /**
   * The opening mark ("[", "**", "`"; "" for none), written again when content follows a block
   * boundary inside the element.
   */
  opening: string;
}

/**
 * Parts of a table that, chosen without it, are written as a table of their rows (chosen rows: markdownRows).
 */
const TABLE_PARTS = new Set(["tbody", "thead", "tfoot"]);

/** The Open tag of a block element inside a code block: it ends a line, not the block. */
const IN_PRE = "#in-pre";

/**
 * Stands for a <br> in a line until the line is written (control
 * characters are never page text: control-chars.ts).
 */
const BREAK = "\u0000";
/** Spaces and line breaks at the start of a mark's content. */
const EDGE_SPACE_START = /^[\s\u0000]*/;
/** A space or a line break. */
const EDGE_SPACE = /[\s\u0000]/;

/**
 * The spaces and line breaks at the end of `s`, read backwards from its end: the pattern
 * /[\s\u0000]*$/ is tried from every character and reads each run of spaces to its end, quadratic
 * in a long run inside `s` (100,000 spaces inside a <b>: 5 s).
 */
function trailingSpace(s: string): string {
  let k = s.length;
  while (k > 0 && EDGE_SPACE.test(s.charAt(k - 1))) k--;
  return s.slice(k);
}

function headingPrefix(node: SnapshotNode): string {
  const h = HEADING.exec(node.tag);
  return h ? "#".repeat(Number(h[1])) + " " : "";
}

/** The first child of `i` that is visible (an element, or text that is not only spaces), or -1. */
function firstVisibleChild(page: PageSnapshot, tree: Tree, i: number): number {
  for (const c of childrenOf(tree, i)) {
    const node = page.nodes[c] as SnapshotNode;
    if (node.visible && (node.type === 1 || (node.text ?? "").trim() !== "")) return c;
  }
  return -1;
}

/** Length of the longest run of backticks in `s` (a code fence or span must be longer). */
function longestBacktickRun(s: string): number {
  return (s.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
}

/**
 * A code block fenced by more backticks than any run inside it (a ``` in the code would end a ```
 * fence), with its language when the page names one.
 */
function fenced(code: string, language: string): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(code) + 1));
  return `${fence}${language}\n${code}\n${fence}`;
}

/**
 * An inline code span around `code` (written unescaped: backslashes are literal in a code span),
 * delimited by more backticks than any run inside it, padded with a space when it starts or ends
 * with a backtick (CommonMark's rule).
 */
function codeSpan(code: string): string {
  const fence = "`".repeat(longestBacktickRun(code) + 1);
  const pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
  return `${fence}${pad}${code}${pad}${fence}`;
}

const NO_MARKS = { prefix: "", suffix: "" } as const;
/**
 * Struck-out text (an old price, a retracted sentence): GitHub-flavoured Markdown's `~~`, whose
 * delimiter runs flank as emphasis's do (GFM spec, §6.5), so emphasis.ts leaves out the pairs it
 * would not read. Its text stays in the output, as in the text output.
 */
const STRUCK_TAGS: ReadonlySet<string> = new Set(["del", "s", "strike"]);

function inlineMarks(node: SnapshotNode, base: string | null): { prefix: string; suffix: string } {
  const href = node.tag === "a" ? node.attrs?.["href"] : undefined;
  if (href && safeUrl("href", href))
    return { prefix: "[", suffix: `](${markdownUrl(absoluteUrl(href, base))})` };
  if (node.tag === "strong" || node.tag === "b") return { prefix: "**", suffix: "**" };
  if (node.tag === "em" || node.tag === "i") return { prefix: "*", suffix: "*" };
  if (STRUCK_TAGS.has(node.tag)) return { prefix: "~~", suffix: "~~" };
  if (node.tag === "code") return { prefix: "`", suffix: "`" };
  // raised and lowered text as inline HTML, which CommonMark passes through and GFM shows: E =
  // mc<sup>2</sup>, H<sub>2</sub>O
  if (node.tag === "sup" || node.tag === "sub") return { prefix: `<${node.tag}>`, suffix: `</${node.tag}>` };
  return NO_MARKS;
}

/**
 * An image as `![alt](src)`, or null for one Markdown leaves out: no source, or a source that may
 * not be shown (safeUrl) or is a `data:` URL (a lazy loader's placeholder, or kilobytes of
 * base64 in the text), and a decorative image, which HTML marks with an empty `alt=""` (a
 * spacer, an icon beside its label). An image without alt is kept with empty brackets. A link
 * around an image left out (here or by --no-images) leaves nothing (closeInline), not the alt
 * text as its link text: alt text is not text the page shows, and the text output leaves it out.
 */
function markdownImage(node: SnapshotNode, base: string | null): string | null {
  const src = node.attrs?.["src"]?.trim();
  const alt = node.attrs?.["alt"];
  if (!src || !safeUrl("src", src) || isDataUrl(src) || (alt !== undefined && alt.trim() === "")) return null;
  return `![${escapeMarkdown(collapseSpaces(alt ?? ""))}](${markdownUrl(absoluteUrl(src, base))})`;
}

export function toMarkdown(
  page: PageSnapshot,
  tree: Tree,
  roots: readonly number[],
  options: OutputOptions = DEFAULT_OUTPUT,
): string {
  const setting = { base: baseUrl(page), images: options.images };
  return new MarkdownWriter(page, tree, setting, false).write(roots).join("\n\n");
}

/** What every block of one output shares: the base of its URLs, and whether images are written. */
interface Setting {
  base: string | null;
  images: boolean;
}

/**
 * Writes the Markdown blocks of chosen subtrees (`oneLine`: a table cell's, where a <br> is a space): one
 * method per kind of node, the state of the line being written in fields.
 */
class MarkdownWriter {
  private readonly line = new MarkdownLine();
  private readonly out: MarkdownBlocks;
  private prefix = "";
  private inPre = 0;
  /** The outermost code block's language (code-language.ts). */
  private language = "";
  /** In a code block: where the text since its last block boundary starts (endRun). */
  private runStart = 0;
  private inCode = 0;
  /** Last character of the text on the line (textOf's separator rule). */
  private lastChar = "";
  /** Parent of that text. */
  private prevParent = -1;
  /** Inside a VERBATIM_TAGS element (code: no separators) until this index. */
  private verbatimEnd = -1;
  private readonly open: Open[] = [];
  /**
   * The entries of `open` that have an opening mark, in the same order: flush and the link check
   * read these instead of the whole stack, which on a page of 200,000 nested <div>s made the
   * writer quadratic (65 s; a block boundary at every level).
   */
  private readonly marked: Open[] = [];
  /** Inline marks closed at a block boundary inside their element, reopened when content follows. */
  private readonly pending: Open[] = [];
  /** Emphasis written on the line (left out at its end where CommonMark would not read it: emphasis.ts). */
  private readonly emphasis: EmphasisPair[] = [];

  constructor(
    private readonly page: PageSnapshot,
    private readonly tree: Tree,
    private readonly setting: Setting,
    private readonly oneLine: boolean,
  ) {
    this.out = new MarkdownBlocks(page, tree);
  }

  /** A table cell as one root: its pieces are one line. */
  private readonly cellText = (cell: number): string =>
    new MarkdownWriter(this.page, this.tree, this.setting, true).write([cell]).join(" ");

  /** The Markdown blocks of the subtrees `roots`. */
  write(roots: Iterable<number>): string[] {
    const { page, tree } = this;
    const list = [...roots];
    for (let r = 0; r < list.length; r++) {
      const root = list[r] as number;
      if (page.nodes[root]?.tag === "tr") {
        // rows chosen without their table: consecutive rows of one parent are one table
        let last = r;
        while (
          page.nodes[list[last + 1] as number]?.tag === "tr" &&
          tree.parent[list[last + 1] as number] === tree.parent[root]
        )
          last++;
        const table = this.inPre ? null : markdownRows(page, tree, list.slice(r, last + 1), this.cellText);
        if (table !== null) {
          this.flush();
          this.out.write(table);
          r = last;
          continue;
        }
      }
      this.writeRoot(root);
      const next = list[r + 1];
      // the pieces of one line (textOf)
      if (next !== undefined && continuesLine(page, tree, root, next)) continue;
      this.flush();
      this.out.closeAll();
      this.pending.length = 0;
    }
    return this.out.blocks;
  }

  /** Writes the subtree `root` onto the line and the blocks, closing every element opened in it. */
  private writeRoot(root: number): void {
    const { page, tree } = this;
    const end = tree.end[root] as number;
    // a list item's leading text chosen without its item (the item also holds a nested list): keep its marker
    const item = tree.parent[root] as number;
    if (
      page.nodes[root]?.tag !== "li" &&
      page.nodes[item]?.tag === "li" &&
      firstVisibleChild(page, tree, item) === root
    ) {
      this.out.openItem(item);
    }
    for (let i = root; i < end; i++) {
      this.closeEnded(i);
      i = this.writeNode(i, root);
    }
    while (this.open.length) {
      const o = this.popOpen();
      if (!o.block) this.closeInline(o);
      if (o.tag === "pre") {
        if (this.inPre === 1) this.flush(); // a chosen <pre> ends here: fenced, and the next root is not
        this.inPre--;
      }
    }
  }

  /** Closes the open elements that end before node `i`. */
  private closeEnded(i: number): void {
    const { open } = this;
    while (open.length && (open[open.length - 1] as Open).end <= i) {
      const o = this.popOpen();
      if (!o.block) this.closeInline(o);
      if (o.tag === "pre") {
        if (this.inPre === 1)
          this.flush(); // the outermost preformatted element ends its code block
        else this.endRun();
        this.inPre--;
      } else if (o.tag === IN_PRE) this.endRun();
      else if (o.block) this.flush();
      // each block li / blockquote opened one
      if (o.block && (o.tag === "li" || o.tag === "blockquote")) this.out.close();
    }
  }

  /** Writes node `i` (of the subtree `root`); returns the last index it covers (its subtree's when skipped). */
  private writeNode(i: number, root: number): number {
    const { page, tree } = this;
    const node = page.nodes[i] as SnapshotNode;
    if (!node.visible || leftOutOfOutput(page, tree, i)) return (tree.end[i] as number) - 1;
    if (node.type === 3) {
      this.writeText(i, node);
      return i;
    }
    if (node.tag === "br") {
      this.line.append(this.inPre ? "\n" : BREAK);
      this.lastChar = "";
      return i;
    }
    if (node.tag === "img") {
      this.writeImage(node);
      return i;
    }
    if (VERBATIM_TAGS.has(node.tag) && i >= this.verbatimEnd) this.verbatimEnd = tree.end[i] as number;
    // a table, or a tbody/thead/tfoot the extraction chose without
    // its table (a layout table's rows are blocks)
    if (!this.inPre && (node.tag === "table" || (TABLE_PARTS.has(node.tag) && i === root))) {
      const table = markdownTable(page, tree, i, this.cellText); // a chosen tbody is its rows' table
      if (table !== null) {
        this.flush();
        this.out.write(table);
        return (tree.end[i] as number) - 1;
      }
    }
    if (node.tag === "hr" && !this.inPre) {
      this.flush();
      this.out.write(THEMATIC_BREAK);
      return i;
    }
    // a second flavour of an example starts its line (dom/text.ts)
    if (this.inPre && followsCode(page, tree, i)) this.endRun();
    if (isBlockDisplay(node.tag, node.style?.display)) {
      if (this.inPre) this.openInPre(i, node);
      else this.openBlock(i, node);
      return i;
    }
    this.openInline(i, node);
    return i;
  }

  /** Writes the text node `i`, with the separator the text output puts before it. */
  private writeText(i: number, node: SnapshotNode): void {
    const text = node.text ?? "";
    if (this.inPre && unrenderedWhitespace(this.page, this.tree, i)) return;
    if (!this.inPre && this.pending.length && text.trim()) this.reopen();
    // sibling inline elements' texts are two words, as in the text output (textOf), unless verbatim
    const parent = this.tree.parent[i] as number;
    if (
      i >= this.verbatimEnd &&
      text &&
      needsSeparator(this.tree, this.lastChar, this.prevParent, parent, text)
    )
      this.line.append(" ");
    this.line.append(this.inPre || this.inCode ? text : escapeMarkdown(text));
    if (text) {
      this.lastChar = text.charAt(text.length - 1);
      this.prevParent = parent;
    }
  }

  /** Writes an image (markdownImage), unless inside code or images are left out. */
  private writeImage(node: SnapshotNode): void {
    const image =
      this.inPre || this.inCode || !this.setting.images ? null : markdownImage(node, this.setting.base);
    if (image) {
      if (this.pending.length) this.reopen();
      // the text around it keeps its own separators: an image is no word of the text output
      this.line.append(image);
    }
  }

  /**
   * Opens a block inside a code block (a highlighter's line <div>, an <xmp> in a <pre>): it starts a
   * line of the same block.
   */
  private openInPre(i: number, node: SnapshotNode): void {
    this.endRun();
    if (PREFORMATTED_TAGS.has(node.tag)) this.inPre++;
    this.pushBlock(i, PREFORMATTED_TAGS.has(node.tag) ? "pre" : IN_PRE);
  }

  /** Opens a block element: ends the line, starts a heading, list item, quote or code block. */
  private openBlock(i: number, node: SnapshotNode): void {
    this.flush();
    this.prefix = headingPrefix(node);
    if (node.tag === "li") this.out.openItem(i);
    else if (node.tag === "blockquote") this.out.openQuote(i);
    if (PREFORMATTED_TAGS.has(node.tag)) {
      if (this.inPre++ === 0) this.language = codeLanguage(this.page, this.tree, i);
      this.pushBlock(i, "pre");
      return;
    }
    this.pushBlock(i, node.tag);
  }

  /** Pushes the Open entry of block element `i` under `tag`. */
  private pushBlock(i: number, tag: string): void {
    this.open.push({ end: this.tree.end[i] as number, tag, suffix: "", block: true, at: -1, opening: "" });
  }

  /** Opens an inline element, writing its opening mark (a link, emphasis, code span) when it has one. */
  private openInline(i: number, node: SnapshotNode): void {
    // code is literal: no marks inside a code block (its <code> adds no backticks) or a code span (a docs
    // page's `pub use task::<a>spawn</a>`); a link inside a link (a parser without HTML's adoption rules
    // keeps <a> in <a>) is text of the outer one: CommonMark nests no links
    const inLink = node.tag === "a" && this.marked.some((o) => o.tag === "a");
    let marks = this.inPre || this.inCode > 0 || inLink ? NO_MARKS : inlineMarks(node, this.setting.base);
    if (marks.prefix && this.pending.length) {
      this.reopen();
      if (this.inCode > 0) marks = NO_MARKS; // a code span reopened around this element
    }
    if (node.tag === "code" && marks.prefix) this.inCode++;
    const entry: Open = {
      end: this.tree.end[i] as number,
      tag: node.tag,
      suffix: marks.suffix,
      block: false,
      at: this.openMark(marks.prefix),
      opening: marks.prefix,
    };
    this.open.push(entry);
    if (entry.opening) this.marked.push(entry);
  }

  /** Pops the innermost open element (from `marked` too when it has a mark). */
  private popOpen(): Open {
    const o = this.open.pop() as Open;
    if (o.opening) this.marked.pop();
    return o;
  }

  /**
   * Appends an opening mark, returns where its content starts (Open.at); "!" right before a link's
   * "[" would make it an image, so it is escaped.
   */
  private openMark(mark: string): number {
    if (mark === "[" && this.line.lastChar() === "!") this.line.replaceLastChar("\\!");
    return this.line.openMark(mark);
  }

  /** Reopens the marks a block boundary closed, now that content follows. */
  private reopen(): void {
    for (const o of this.pending) {
      if (o.tag === "code") this.inCode++;
      o.at = this.openMark(o.opening);
    }
    this.pending.length = 0;
  }

  /**
   * Writes the line as a block. A link or emphasis still open here (a card's <a> holding a
   * heading and a paragraph) is closed on this line and reopened on the next one that has
   * content: CommonMark's link text and emphasis cannot span blocks, so "](url)" would dangle.
   */
  private flush(): void {
    const { inPre, prefix, emphasis } = this;
    const split = inPre ? [] : this.marked.filter((o) => o.at >= 0);
    for (let k = split.length - 1; k >= 0; k--) this.closeInline(split[k] as Open);
    const written = emphasis.length ? dropUnflanked(this.line.take(), emphasis) : this.line.take();
    emphasis.length = 0;
    const text = inPre
      ? written
          // a page's CR LF line breaks, as a browser reads them (a CR left in would keep a blank line below)
          .replace(/\r\n?/g, "\n")
          .replace(/^(?:[ \t]*\n)+|(?:\n[ \t]*)+$/g, "")
          // blank lines at its ends (the source's indentation around a nested <xmp>) are not code
          .replace(/[ \t]+$/, "")
      : collapseSpaces(written)
          .split(BREAK)
          .map((part) => escapeLineStart(part.trim()))
          .filter(Boolean)
          // a heading (a table cell) is one line: its <br> is a space
          .join(prefix || this.oneLine ? " " : "\\\n");
    // no empty code block
    if (inPre ? text.trim() : text)
      this.out.write(inPre ? fenced(text, this.language) : prefix ? prefix + escapeHeadingEnd(text) : text);
    this.runStart = 0;
    this.prefix = "";
    this.lastChar = "";
    this.prevParent = -1;
    for (const o of split) {
      o.at = -1;
      this.pending.push(o);
    }
  }

  /**
   * A block boundary inside a code block (a highlighter's line <div>): the text since the last one
   * ends its line, as in the text output (preformattedRun): an empty line <div> adds no line, and
   * text that ends with a line break (`<div>a\n</div>`, `<div><br></div>`) has ended it already.
   */
  private endRun(): void {
    const { line } = this;
    if (line.length > this.runStart && !/[\r\n]/.test(line.lastChar())) line.append("\n");
    this.runStart = line.length;
  }

  /**
   * Closes an inline element's mark; a link or emphasis around nothing visible (an image link, an icon)
   * leaves no "[ ](…)" or "** **" behind.
   */
  private closeInline(o: Open): void {
    const { line } = this;
    if (o.at < 0) {
      this.pending.splice(this.pending.indexOf(o), 1); // closed at a block boundary, nothing of it since
      return;
    }
    const mark = o.opening;
    if (!mark) return; // an element without marks (a span)
    if (o.tag === "code") this.inCode--;
    const inner = line.closeMark(o.at);
    if (inner.replaceAll(BREAK, "").trim() === "") line.append(inner);
    else if (o.tag === "code") line.append(codeSpan(inner));
    else {
      // spaces (and line breaks) inside the marks go outside them: "**Note: **text" is no emphasis
      // in CommonMark, "**Note:** text" is
      const lead = (EDGE_SPACE_START.exec(inner) as RegExpExecArray)[0];
      const trail = trailingSpace(inner);
      const content = inner.slice(lead.length, inner.length - trail.length);
      const start = line.length + lead.length; // where the opening mark goes
      if (mark !== "[" && !mark.startsWith("<"))
        this.emphasis.push({ open: start, close: start + mark.length + content.length, size: mark.length });
      line.append(lead + mark + content + o.suffix + trail);
    }
  }
}
