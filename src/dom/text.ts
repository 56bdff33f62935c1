/**
 * Text from snapshot subtrees: whitespace collapsed inside a block, one line per block, as a
 * reader would copy it. Also the word tokenizer the features, labels and rules share (the
 * evaluation's word metric has its own: src/evaluate/metrics.ts).
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { PREFORMATTED_TAGS, isBlockDisplay } from "./blocks.ts";
import { leftOutOfOutput } from "./permalink.ts";
import { silencesSubtree } from "./silent.ts";
import { CELL_TAGS, isDataTable } from "./tables.ts";
import { childrenOf, type Tree } from "./tree.ts";

/**
 * Whether a UTF-16 code unit is whitespace as `\s` and String.prototype.trim define it
 * (ECMAScript WhiteSpace and LineTerminator: tab, LF, VT, FF, CR, space, U+00A0, U+1680,
 * U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF).
 */
export function isSpace(c: number): boolean {
  if (c > 32 && c < 0xa0) return false;
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * `s.replace(/\s+/g, " ").trim()`, by a scan that copies the runs between whitespace: every
 * output line goes through it (and every kept leaf's dedupe key), and the regular expression
 * cost about twice as much (11 against 5 ns a character over 2.7 M characters of wcxb-dev text).
 * A string with nothing to collapse is returned as it is.
 */
export function collapseSpaces(s: string): string {
  const n = s.length;
  let i = 0;
  while (i < n && isSpace(s.charCodeAt(i))) i++;
  let out = "";
  let start = i; // start of the text not yet copied to `out`
  while (i < n) {
    if (!isSpace(s.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i + 1; // end of the whitespace run at i
    while (j < n && isSpace(s.charCodeAt(j))) j++;
    if (j === n) return out + s.slice(start, i); // trailing whitespace
    if (j > i + 1 || s.charCodeAt(i) !== 32) {
      out += s.slice(start, i) + " ";
      start = j;
    }
    i = j;
  }
  return out + s.slice(start, n);
}

/** Unicode word tokens (letters, marks, digits, connector punctuation), as Python's `\w+`. */
export const WORD = /[\p{L}\p{M}\p{Nd}\p{Pc}]+/gu;

/**
 * Scripts written without spaces between words: Han, kana, Thai, Lao, Khmer, Myanmar. A WORD run
 * holding one of their characters is a phrase or a whole sentence ("港沿いに新しい路面電車が開業"
 * is one run), so word counts, word lengths and stop words would read a Japanese paragraph as a
 * few long words. Such a run is split into the words Intl.Segmenter finds (UAX #29 word
 * boundaries, with ICU's dictionaries for these scripts): 港|沿い|に|新しい|路面|電車|が|開業.
 * Hangul is left out: Korean separates its words with spaces. Text without these characters is
 * tokenised as before, and in mixed text only the runs with them are split.
 */
const UNSPACED =
  /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]$/u;

/**
 * A hand-written scanner that finds exactly WORD's matches, the runs (checked against the regular
 * expression on every text node of 300 wcxb-dev pages and on surrogate / combining-mark cases in
 * test/text-words.test.ts): a run is a maximal sequence of code points in WORD's class, and a lone
 * surrogate is in no class. It is 2-3× faster than the regular expression on page text (0.15
 * against 0.40 ms per wcxb-dev page for every text node) and allocates nothing; ownership and the
 * feature statistics scan every text node of every page. Class membership (and whether a word
 * character is UNSPACED) is decided once per code point by the regular expressions and
 * remembered, so a run is known to need segmenting as it is scanned: a separate test of every
 * text for UNSPACED characters cost 2-4 % of a wcxb-dev page's extraction.
 */
const WORD_CHAR = /^[\p{L}\p{M}\p{Nd}\p{Pc}]$/u;
/** wordStep's flag on a word character of a script without spaces. */
const UNSPACED_STEP = 4;

/** The wordStep of code point `ch` (`ch.length` code units long). */
function stepOf(ch: string): number {
  return WORD_CHAR.test(ch) ? (UNSPACED.test(ch) ? ch.length + UNSPACED_STEP : ch.length) : -ch.length;
}

/** Per BMP code unit, its wordStep (0: not decided yet). */
const BMP_STEP = new Int8Array(0x10000);
/** Per astral code point seen, its wordStep. */
const ASTRAL_STEP = new Map<number, number>();

/**
 * The code point at k: its length in code units, negative when it is not a word character, plus
 * UNSPACED_STEP when it is an UNSPACED one.
 */
function wordStep(text: string, k: number): number {
  const c = text.charCodeAt(k);
  if (c < 0xd800 || c > 0xdfff) {
    const v = BMP_STEP[c] as number;
    return v !== 0 ? v : (BMP_STEP[c] = stepOf(String.fromCharCode(c)));
  }
  const cp = text.codePointAt(k) as number;
  if (cp <= 0xffff) return -1; // a lone surrogate
  let v = ASTRAL_STEP.get(cp);
  if (v === undefined) ASTRAL_STEP.set(cp, (v = stepOf(String.fromCodePoint(cp))));
  return v;
}

/** Start of the first run at or after `from` (a code point boundary), -1 when there is none. */
export function nextWordStart(text: string, from: number): number {
  for (let k = from; k < text.length;) {
    const step = wordStep(text, k);
    if (step > 0) return k;
    k -= step;
  }
  return -1;
}

/**
 * End (exclusive) of the run that starts at `start`; its bitwise complement (`~end`, negative)
 * when the run holds a character of a script without spaces, to be split by segmentRun.
 */
export function runEnd(text: string, start: number): number {
  let k = start;
  let unspaced = false;
  while (k < text.length) {
    let step = wordStep(text, k);
    if (step < 0) break;
    if (step > UNSPACED_STEP) {
      unspaced = true;
      step -= UNSPACED_STEP;
    }
    k += step;
  }
  return unspaced ? ~k : k;
}

/** End (exclusive) of the run that starts at `start`. */
export function wordEnd(text: string, start: number): number {
  const end = runEnd(text, start);
  return end < 0 ? ~end : end;
}

/** One segmenter for every page: ICU picks the dictionary by script, and making one costs about 0.1 ms. */
let segmenter: Intl.Segmenter | null = null;

/**
 * Calls `visit(a, b)` for each word text[a, b) of the run text[start, end) in a script without
 * spaces, as Intl.Segmenter splits it (its pieces tile the run: every one is a word, since the run
 * holds only word characters).
 */
export function segmentRun(
  text: string,
  start: number,
  end: number,
  visit: (a: number, b: number) => void,
): void {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
  for (const s of segmenter.segment(text.slice(start, end)))
    visit(start + s.index, start + s.index + s.segment.length);
}

/**
 * Calls `visit(a, b)` for each word text[a, b) of `text`: WORD's runs, those holding a character of
 * a script without spaces split into their words (segmentRun).
 */
export function forEachWord(text: string, visit: (a: number, b: number) => void): void {
  for (let a = nextWordStart(text, 0), b = 0; a >= 0; a = nextWordStart(text, b)) {
    const end = runEnd(text, a);
    b = end < 0 ? ~end : end;
    if (end < 0) segmentRun(text, a, b, visit);
    else visit(a, b);
  }
}

/** The words of `text`: WORD's runs, with runs in scripts without spaces split into their words (forEachWord). */
export function words(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, (a, b) => out.push(text.slice(a, b)));
  return out;
}

/** `words(text).length` without building the array of words. */
export function wordCount(text: string): number {
  let n = 0;
  for (let a = nextWordStart(text, 0), b = 0; a >= 0; a = nextWordStart(text, b)) {
    const end = runEnd(text, a);
    if (end >= 0) {
      b = end;
      n++;
    } else {
      b = ~end;
      n += segmentCount(text, a, b);
    }
  }
  return n;
}

/** The words of a run in a script without spaces (apart from wordCount: its closure is then made only here). */
function segmentCount(text: string, start: number, end: number): number {
  let n = 0;
  segmentRun(text, start, end, () => n++);
  return n;
}

export interface TextOptions {
  /** Skip nodes the renderer marked invisible (default true). */
  visibleOnly?: boolean;
  /** Skip these node indices (and their subtrees). */
  exclude?: ReadonlySet<number>;
  /**
   * Keep the line breaks and indentation of preformatted elements (<pre>: code keeps its layout).
   * For output text; features, labels and refiners read the collapsed lines (default false).
   */
  preformatted?: boolean;
  /**
   * Write each row of a data table (tables.ts) as one line, its cells separated by a tab, so the
   * rows can be read back; otherwise (default false) each cell is a line, as features, labels and
   * refiners read it.
   */
  tableRows?: boolean;
  /**
   * Stop reading once the text's whole lines hold more than this many characters: the text is
   * then those lines, and its first `maxChars` characters are the full text's (a trace entry's
   * excerpt of a large subtree reads no further than it shows).
   */
  maxChars?: number;
}

/** Elements whose text is kept verbatim: no separator is inserted between their inline pieces. */
export const VERBATIM_TAGS: ReadonlySet<string> = new Set(["pre", "code", "kbd", "samp", "tt", "textarea"]);

/**
 * Texts of two sibling inline elements with nothing between them (`<span>Publisher</span><span>Acme</span>`,
 * adjacent links) read as two words on screen (CSS gaps, flex or grid items), so a space joins
 * them. Not when one text's element contains the other's (`<span>T</span>he` drop caps, `<b>x</b>y`)
 * and not inside verbatim code (syntax-highlighting spans; the caller tracks that). Shared with
 * the label alignment's tokens (src/train/align.ts), which must follow textOf exactly.
 */
export function siblingInlineTexts(tree: Tree, prevParent: number, parent: number): boolean {
  if (prevParent < 0 || prevParent === parent) return false;
  const prevInside = parent <= prevParent && prevParent < (tree.end[parent] as number);
  const curInside = prevParent <= parent && parent < (tree.end[prevParent] as number);
  return !prevInside && !curInside;
}

/**
 * Whether a space goes between the line so far and `text` (siblingInlineTexts; textOf and the
 * Markdown writer). `last`: the line's last character so far ("" for an
 * empty line), kept beside the line. Not a
 * /\s$/ test on the line (nor charAt): the line is a string built by `+=`, which either flattens
 * on every call, so a line of 20,000 links took 5 s and one of 40,000 took 35 s.
 */
export function needsSeparator(
  tree: Tree,
  last: string,
  prevParent: number,
  parent: number,
  text: string,
): boolean {
  if (!last || isSpace(last.charCodeAt(0)) || isSpace(text.charCodeAt(0))) return false;
  return siblingInlineTexts(tree, prevParent, parent);
}

/** Whether an element starts a new line: a <br> or a block (text nodes never do). */
export function breaksLine(node: SnapshotNode): boolean {
  return node.type === 1 && (node.tag === "br" || isBlockDisplay(node.tag, node.style?.display));
}

/** A text node, or an element that does not break the line (b, a, span, not br or a block). */
function isInline(node: SnapshotNode): boolean {
  return node.type === 3 || !breaksLine(node);
}

/** Whether the subtree at `i` shows a letter, digit or mark (a dropped link's words), or breaks a line. */
function showsContent(page: PageSnapshot, tree: Tree, i: number): boolean {
  const end = tree.end[i] as number;
  for (let k = i; k < end; k++) {
    const n = page.nodes[k] as SnapshotNode;
    if (silencesSubtree(n)) {
      k = (tree.end[k] as number) - 1;
      continue;
    }
    if (n.type === 1 ? breaksLine(n) : (n.text ?? "").trim() !== "") return true;
  }
  return false;
}

/** Whether `a` and the later `b` are inline (texts or inline elements) and children of one parent. */
function inlineSiblings(page: PageSnapshot, tree: Tree, a: number, b: number): boolean {
  const parent = tree.parent[a] as number;
  if (parent < 0 || tree.parent[b] !== parent || b < (tree.end[a] as number)) return false;
  return isInline(page.nodes[a] as SnapshotNode) && isInline(page.nodes[b] as SnapshotNode);
}

/**
 * Whether chosen root `b` continues the line of the chosen root `a` before it: both inline (texts
 * or inline elements) under one parent, with nothing shown between them. Text straight in a
 * container that also holds blocks (`<div>Version 2 is <b>twice as fast</b> on…<p>…</div>`) is
 * chosen piece by piece, and a browser shows those pieces as one line (an anonymous block), so
 * the text and Markdown outputs do too.
 */
export function continuesLine(page: PageSnapshot, tree: Tree, a: number, b: number): boolean {
  if (!inlineSiblings(page, tree, a, b)) return false;
  for (let i = tree.end[a] as number; i < b; i = tree.end[i] as number)
    if (showsContent(page, tree, i)) return false;
  return !lineBreakAtEdge(page, tree, a, "end") && !lineBreakAtEdge(page, tree, b, "start");
}

/**
 * Whether an inline element's subtree ends (or starts) with a block or <br>, with no shown text
 * after (before) it: a block inside an inline element (`<a><h3>Card</h3></a>`) breaks the line
 * around it, so what follows the element starts a new line.
 */
function lineBreakAtEdge(page: PageSnapshot, tree: Tree, i: number, edge: "start" | "end"): boolean {
  const end = tree.end[i] as number;
  let breakSeen = false;
  for (let k = i + 1; k < end; k++) {
    const n = page.nodes[k] as SnapshotNode;
    if (silencesSubtree(n)) {
      k = (tree.end[k] as number) - 1;
      continue;
    }
    if (n.type === 1) {
      if (!breaksLine(n)) continue;
      if (edge === "start") return true;
      breakSeen = true;
      k = (tree.end[k] as number) - 1; // text inside the block is before its end
    } else if ((n.text ?? "").trim() !== "") {
      if (edge === "start") return false;
      breakSeen = false;
    }
  }
  return breakSeen;
}

/**
 * What separates two chosen inline roots of one parent in HTML output, where roots are written
 * one after the other: a line break when something breaking the line (a <br>, a block) lies
 * between them, a space when only whitespace does (it was not chosen), else nothing. Roots of
 * different parents, or blocks, need none (their own tags separate them).
 */
export function inlineGap(page: PageSnapshot, tree: Tree, a: number, b: number): "" | " " | "<br>" {
  if (!inlineSiblings(page, tree, a, b)) return "";
  let space = false;
  for (let i = tree.end[a] as number; i < b; i = tree.end[i] as number) {
    const n = page.nodes[i] as SnapshotNode;
    if (!n.visible) continue;
    if (n.type === 1 && breaksLine(n)) return "<br>";
    if (n.type === 3 && /\s/.test(n.text ?? "")) space = true;
  }
  return space ? " " : "";
}

/**
 * Displays whose children are items (CSS Flexbox §4, CSS Grid §6.1): a browser lays out no text
 * of only whitespace straight inside them, preformatted or not (a highlighter's "\n" between the
 * line <span>s of a `display: grid` <code>).
 */
const ITEM_CONTAINERS: ReadonlySet<string> = new Set(["flex", "inline-flex", "grid", "inline-grid"]);

/**
 * Whether text node `i` is only whitespace straight inside a flex or grid container (Chromium mode:
 * computed display), which shows nothing.
 */
export function unrenderedWhitespace(page: PageSnapshot, tree: Tree, i: number): boolean {
  const display = page.nodes[tree.parent[i] as number]?.style?.display;
  return display !== undefined && ITEM_CONTAINERS.has(display) && (page.nodes[i]?.text ?? "").trim() === "";
}

/**
 * Whether element i is a <code> straight inside a <pre> right after another <code>, with nothing
 * but hidden nodes between them (`<code>ls</code> <code>-la</code>` is one line in a browser).
 * Node.js's API docs give each example twice, an ES-module and a CommonJS flavour, as sibling
 * <code>s of one <pre>, one of them hidden by a style sheet that static mode does not apply;
 * each starts a line of its own instead of running on from the other
 * ("import zlib from 'node:zlib';const zlib = require('node:zlib');").
 */
export function followsCode(page: PageSnapshot, tree: Tree, i: number, visibleOnly = true): boolean {
  const parent = tree.parent[i] as number;
  if (page.nodes[i]?.tag !== "code" || page.nodes[parent]?.tag !== "pre") return false;
  const siblings = childrenOf(tree, parent);
  for (let k = siblings.indexOf(i) - 1; k >= 0; k--) {
    const node = page.nodes[siblings[k] as number] as SnapshotNode;
    if (visibleOnly && !node.visible) continue;
    return node.tag === "code";
  }
  return false;
}

/**
 * The lines a browser shows for a run of preformatted text (its text and <br>s as line breaks)
 * between two block boundaries inside a <pre> (a highlighter's line <div>s): none for an empty
 * run (an empty line <div> takes no height), one per line break otherwise, a line break at the
 * run's end ending its last line rather than opening an empty one (`<div>a = 1\n</div>` is one
 * line, `<div>\n</div>` and `<div><br></div>` a blank one). Lines are right-trimmed.
 */
function preformattedRun(lines: string[], run: string): void {
  if (run === "") return;
  const own = run.split(/\r\n|\r|\n/);
  if (own.length > 1 && own[own.length - 1] === "") own.pop();
  for (const l of own) lines.push(l.trimEnd());
}

/**
 * A preformatted element's lines, without the blank lines at its ends
 * (the source's indentation around its code).
 */
function pushPreformatted(lines: string[], own: readonly string[]): void {
  let from = 0;
  let to = own.length;
  while (from < to && !own[from]) from++;
  while (to > from && !own[to - 1]) to--;
  for (let k = from; k < to; k++) lines.push(own[k] as string);
}

/** Text of the subtrees rooted at `roots` (in document order), one line per block. */
export function textOf(
  page: PageSnapshot,
  tree: Tree,
  roots: readonly number[],
  options: TextOptions = {},
): string {
  return new TextReader(page, tree, options).read(roots);
}

/** Reads the text of subtrees line by line (textOf): the line being read and the lines so far in fields. */
class TextReader {
  private readonly visibleOnly: boolean;
  private readonly limit: number;
  private readonly lines: string[] = [];
  /** Characters of `lines`, with a line end after each. */
  private produced = 0;
  private current = "";
  /** Lines of the preformatted element being read (options.preformatted). */
  private preLines: string[] | null = null;
  /** Ends of the open block elements, innermost last. */
  private readonly blockEnds: number[] = [];
  /** Parent of the last text appended to the current line. */
  private prevParent = -1;
  /** The current line's last character (needsSeparator). */
  private last = "";
  /** Inside a VERBATIM_TAGS element until this index. */
  private verbatimEnd = -1;
  /** Inside a PREFORMATTED_TAGS element until this index (options.preformatted). */
  private preEnd = -1;
  /** The cells read so far of the data-table row being read (options.tableRows), null outside one. */
  private rowCells: string[] | null = null;
  /** End of that row. */
  private rowEnd = -1;
  /** Whether a cell of that row has begun. */
  private cellOpen = false;
  /** Whether each table seen is a data table (isDataTable), by node. */
  private readonly dataTables = new Map<number, boolean>();

  constructor(
    private readonly page: PageSnapshot,
    private readonly tree: Tree,
    private readonly options: TextOptions,
  ) {
    this.visibleOnly = options.visibleOnly ?? true;
    this.limit = options.maxChars ?? Infinity;
  }

  /** The text of the subtrees `roots`, one line per block. */
  read(roots: readonly number[]): string {
    const { page, tree, limit } = this;
    for (let r = 0; r < roots.length && this.produced <= limit; r++) {
      const root = roots[r] as number;
      this.readRoot(root);
      if (this.produced > limit) break; // whole lines hold more than asked: the line being read is not needed
      if (this.preLines) this.endPre();
      this.blockEnds.length = 0;
      const next = roots[r + 1];
      if (next === undefined || !continuesLine(page, tree, root, next)) this.flush();
    }
    return this.lines.join("\n");
  }

  /** Reads the subtree `root` (until the text holds more than options.maxChars). */
  private readRoot(root: number): void {
    const { page, tree, options, visibleOnly, limit, blockEnds } = this;
    const end = tree.end[root] as number;
    for (let i = root; i < end && this.produced <= limit; i++) {
      while (blockEnds.length && (blockEnds[blockEnds.length - 1] as number) <= i) {
        blockEnds.pop();
        this.flush();
      }
      if (this.preLines && i >= this.preEnd) this.endPre();
      const node = page.nodes[i] as SnapshotNode;
      if ((visibleOnly && !node.visible) || leftOutOfOutput(page, tree, i) || options.exclude?.has(i)) {
        i = (tree.end[i] as number) - 1; // skip the subtree
        continue;
      }
      if (node.type === 3) this.readText(i, node);
      else if (this.preLines && node.tag === "br") {
        this.current += "\n"; // a line break of the code, not a block boundary (preformattedRun)
      } else if (this.rowCells && i < this.rowEnd) this.readInRow(i, node);
      else this.readElement(i, node);
    }
  }

  /** Appends the text node `i` to the line, after a separator when needsSeparator asks for one. */
  private readText(i: number, node: SnapshotNode): void {
    const text = node.text ?? "";
    if (!text || (this.preLines && unrenderedWhitespace(this.page, this.tree, i))) return;
    const parent = this.tree.parent[i] as number;
    if (i >= this.verbatimEnd && needsSeparator(this.tree, this.last, this.prevParent, parent, text))
      this.current += " ";
    this.current += text;
    this.last = text.charAt(text.length - 1);
    this.prevParent = parent;
  }

  /** Enters element `i`: a verbatim, preformatted or block element changes how the text after it is read. */
  private readElement(i: number, node: SnapshotNode): void {
    const { tree } = this;
    if (VERBATIM_TAGS.has(node.tag) && i >= this.verbatimEnd) this.verbatimEnd = tree.end[i] as number;
    if (
      this.preLines &&
      this.current &&
      !this.current.endsWith("\n") &&
      followsCode(this.page, tree, i, this.visibleOnly)
    )
      this.current += "\n";
    if (this.options.preformatted && PREFORMATTED_TAGS.has(node.tag) && !this.preLines) {
      this.flush(); // a preformatted element's lines are lines of their own
      this.preLines = [];
      this.preEnd = tree.end[i] as number;
    }
    if (breaksLine(node)) {
      this.flush();
      this.blockEnds.push(tree.end[i] as number);
    }
    if (node.tag === "tr" && this.options.tableRows && this.inDataTable(i)) {
      this.rowCells = [];
      this.rowEnd = tree.end[i] as number;
    }
  }

  /** Whether row `tr` belongs to a data table (its nearest table ancestor). */
  private inDataTable(tr: number): boolean {
    const { page, tree } = this;
    let table = tree.parent[tr] as number;
    while (table >= 0 && page.nodes[table]?.tag !== "table") table = tree.parent[table] as number;
    if (table < 0) return false;
    let data = this.dataTables.get(table);
    if (data === undefined) this.dataTables.set(table, (data = isDataTable(page, tree, table)));
    return data;
  }

  /** An element inside a data-table row: a cell ends the one before it; a <br> in a cell is a space. */
  private readInRow(i: number, node: SnapshotNode): void {
    if (CELL_TAGS.has(node.tag)) {
      if (this.cellOpen) this.endCell();
      this.cellOpen = true;
    } else if (node.tag === "br") {
      this.current += " ";
      this.last = " ";
    } else if (VERBATIM_TAGS.has(node.tag) && i >= this.verbatimEnd)
      this.verbatimEnd = this.tree.end[i] as number;
  }

  /** Ends the cell being read: its collapsed text is the row's next cell. */
  private endCell(): void {
    (this.rowCells as string[]).push(collapseSpaces(this.current));
    this.current = "";
    this.last = "";
    this.prevParent = -1;
  }

  /** Ends the line being read: a line of the text, or a run of the preformatted element being read. */
  private flush(): void {
    if (this.preLines) preformattedRun(this.preLines, this.current);
    else if (this.rowCells) {
      if (this.cellOpen) this.endCell();
      this.cellOpen = false;
      const line = this.rowCells.some((c) => c !== "") ? this.rowCells.join("\t") : "";
      if (line) {
        this.lines.push(line);
        this.produced += line.length + 1;
      }
      this.rowCells = null;
    } else {
      const line = collapseSpaces(this.current);
      if (line) {
        this.lines.push(line);
        this.produced += line.length + 1;
      }
    }
    this.current = "";
    this.last = "";
    this.prevParent = -1;
  }

  /** Ends the preformatted element being read: its lines are lines of the text. */
  private endPre(): void {
    this.flush();
    const { lines } = this;
    const before = lines.length;
    pushPreformatted(lines, this.preLines ?? []);
    for (let k = before; k < lines.length; k++) this.produced += (lines[k] as string).length + 1;
    this.preLines = null;
  }
}
