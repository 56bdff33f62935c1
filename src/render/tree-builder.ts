/**
 * The part of htmlparser2's Parser (12.0.0, pinned) that the static renderer uses, driven
 * directly by the tokenizer (fast-tokenizer.ts, or the stock one: only the public callbacks are
 * used). Parser is a general streaming parser: it keeps its input as a list of chunks, reads
 * every tag name through them, tracks source offsets, builds attribute objects pith does not ask
 * for, and keeps its open elements in an array whose front is the top (`unshift`/`shift` move the
 * whole stack: a page of 100,000 unclosed `<b><i>` pairs took 47 s). On 200 wcxb-dev pages that
 * layer cost 0.5 of the static snapshot's 2.7 CPU ms a page (a parse with no-op callbacks: 1.24
 * ms, the tokenizer alone: 0.72 ms). This builder does only what pith reads, on one string and a
 * stack whose top is its end: with no-op callbacks it costs 0.33 ms over the tokenizer, most of it
 * the tag names (tag-names.ts), and the static snapshot takes 8-9 % less CPU (medians of five
 * alternating runs). It hands pith exactly the events
 * Parser did, in the same order (test/tree-builder.test.ts compares them; when it replaced Parser
 * the snapshots of the 4,762 pages of the sets and of 30,000 fuzzed documents were identical):
 * - tag names lower-cased (`lowerCaseTags`), SVG's camelCase names restored inside <svg>
 *   (`clipPath`), `<image>` read as `<img>` outside foreign content;
 * - a start tag closes the open elements it implies closed (`<li>` an open <li>, `<div>` an open
 *   <p>: OPEN_IMPLIES_CLOSE), a void element closes at its `>`, a <form> inside a form is ignored;
 * - `/>` closes an element only in foreign content (<svg>, <math>, until an HTML integration
 *   point such as <foreignObject> or <title>), which the tokenizer asks about too
 *   (`isInForeignContext`: no raw text inside <svg>);
 * - an end tag closes the innermost open element of its name and every element inside it, or is
 *   ignored; `</p>` with no open <p> is an empty <p>, `</br>` a <br>;
 * - attributes reported under the name the sink gives when it reads the name, or not at all: a
 *   dropped attribute's value is not read (static.ts drops 41 %; its snapshot took 5.5 % less
 *   CPU, attribute-names.ts), and html.slice(start, end) as the name reports what Parser did;
 * - entities decoded in text and attribute values; a text run split where the tokenizer splits
 *   it (at entities), which matters to pith (static.ts addText);
 * - CDATA is text in foreign content, else a comment (static.ts never sees one: repair.ts empties
 *   their openings); the elements still open at the end close, innermost first. Comments,
 *   doctypes and processing instructions give no event.
 */
import type { Tokenizer, TokenizerCallbacks } from "htmlparser2";
import { fastTokenizer } from "./fast-tokenizer.ts";
import { lowerCaseName } from "./tag-names.ts";

/** What the builder reports, in document order (the events of Parser's handler that pith uses). */
export interface TreeSink {
  /**
   * A start tag (or an implied one): its attributes follow, then startTagEnd unless it is implied or cut off.
   */
  openTag(name: string): void;
  /**
   * The name under which the attribute named html[start, end) of the start tag being read is
   * reported, or null to drop it: its value is then neither sliced nor decoded (static.ts drops
   * 41 % of a wcxb-dev page's attributes). `html.slice(start, end)` reports every attribute as written.
   */
  attributeName(html: string, start: number, end: number): string | null;
  /**
   * An attribute of the start tag being read, under the name attributeName gave, value with entities decoded.
   */
  attribute(name: string, value: string): void;
  /** The `>` (or `/>`) of the start tag being read. */
  startTagEnd(): void;
  closeTag(name: string): void;
  text(data: string): void;
}

const formTags = new Set(["input", "option", "optgroup", "select", "button", "datalist", "textarea"]);
const pTag = new Set(["p"]);
const headingTags = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "p"]);
const tableSectionTags = new Set(["thead", "tbody"]);
const ddtTags = new Set(["dd", "dt"]);
const rtpTags = new Set(["rt", "rp"]);

/** htmlparser2's `openImpliesClose`: the open elements a start tag closes while they are the innermost. */
const OPEN_IMPLIES_CLOSE = new Map<string, Set<string>>([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th"])],
  ["td", new Set(["thead", "th", "td"])],
  ["body", new Set(["head", "link", "script"])],
  ["a", new Set(["a"])],
  ["li", new Set(["li"])],
  ["p", pTag],
  ...["h1", "h2", "h3", "h4", "h5", "h6"].map((h) => [h, headingTags] as const),
  ...["select", "input", "output", "button", "datalist", "textarea"].map((t) => [t, formTags] as const),
  ["option", new Set(["option"])],
  ["optgroup", new Set(["optgroup", "option"])],
  ["dd", ddtTags],
  ["dt", ddtTags],
  ...[
    "address",
    "article",
    "aside",
    "blockquote",
    "details",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "header",
    "hr",
    "main",
    "nav",
    "ol",
    "pre",
    "section",
    "table",
    "ul",
  ].map((t) => [t, pTag] as const),
  ["rt", rtpTags],
  ["rp", rtpTags],
  ["tbody", tableSectionTags],
  ["tfoot", tableSectionTags],
]);

/** htmlparser2's void elements: never open, closed at their `>`. */
const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "basefont",
  "br",
  "col",
  "command",
  "embed",
  "frame",
  "hr",
  "img",
  "input",
  "isindex",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

/**
 * Foreign content, and the elements inside it whose content is HTML
 * again (SVG casing: compared after adjustment).
 */
const NO_FOREIGN = 0;
const SVG = 1;
const MATHML = 2;
const HTML_INTEGRATION = new Set([
  "mi",
  "mo",
  "mn",
  "ms",
  "mtext",
  "annotation-xml",
  "foreignObject",
  "desc",
  "title",
]);

/** SVG element names with capitals, restored inside <svg> from the lower-cased name. */
const SVG_TAG_NAMES = new Map(
  [
    "altGlyph",
    "altGlyphDef",
    "altGlyphItem",
    "animateColor",
    "animateMotion",
    "animateTransform",
    "clipPath",
    "feBlend",
    "feColorMatrix",
    "feComponentTransfer",
    "feComposite",
    "feConvolveMatrix",
    "feDiffuseLighting",
    "feDisplacementMap",
    "feDistantLight",
    "feDropShadow",
    "feFlood",
    "feFuncA",
    "feFuncB",
    "feFuncG",
    "feFuncR",
    "feGaussianBlur",
    "feImage",
    "feMerge",
    "feMergeNode",
    "feMorphology",
    "feOffset",
    "fePointLight",
    "feSpecularLighting",
    "feSpotLight",
    "feTile",
    "feTurbulence",
    "foreignObject",
    "glyphRef",
    "linearGradient",
    "radialGradient",
    "textPath",
  ].map((n) => [n.toLowerCase(), n]),
);

/**
 * Beyond this many open elements the builder counts the open elements of each name, so that an
 * end tag (or a <form>, or an SVG end tag in HTML content) asks "is one open?" in constant time.
 * Searching the stack instead, as Parser did, is quadratic on a page of deep unclosed elements
 * followed by end tags that match none: 200,000 <div> then 200,000 </span> (2.2 MB) took 120 s
 * with Parser and 67 s with the search, with no timeout on a single page. The counts are dropped
 * again below half this depth (a page going up and down around it rebuilds them at most once per
 * DEEP_STACK / 2 elements); an ordinary page never reaches it (wcxb-dev: at most a few hundred).
 */
const DEEP_STACK = 1024;

export class TreeBuilder implements TokenizerCallbacks {
  private html = "";
  /** Names of the open elements, innermost last. */
  private readonly stack: string[] = [];
  /** Open elements per name while the stack is deep (DEEP_STACK), else null. */
  private counts: Map<string, number> | null = null;
  /**
   * Foreign-content contexts (NO_FOREIGN, SVG, MATHML), innermost last;
   * the document's NO_FOREIGN at the bottom.
   */
  private readonly foreign: number[] = [NO_FOREIGN];
  /** The start tag being read ("" for an ignored one, or after its end). */
  private tagName = "";
  /** The attribute being read as the sink named it, or null when it is dropped (its value not read). */
  private attributeName: string | null = null;
  private attributeValue = "";

  constructor(private readonly sink: TreeSink) {}

  /**
   * Read a whole document; the elements still open at its end are closed. Any htmlparser2
   * Tokenizer class does (only its public callbacks are used): the stock one gives the same events.
   */
  build(html: string, tokenizerClass: typeof Tokenizer = fastTokenizer()): void {
    this.html = html;
    const tokenizer = new tokenizerClass({ decodeEntities: true }, this);
    if (html) tokenizer.write(html); // as Parser.end: an empty document is not written
    tokenizer.end();
  }

  isInForeignContext(): boolean {
    return this.foreign[this.foreign.length - 1] !== NO_FOREIGN;
  }

  ontext(start: number, end: number): void {
    this.sink.text(this.html.slice(start, end));
  }

  ontextentity(codePoint: number): void {
    this.sink.text(String.fromCodePoint(codePoint));
  }

  oncdata(start: number, end: number, endOffset: number): void {
    if (this.isInForeignContext()) this.sink.text(this.html.slice(start, end - endOffset));
  }

  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}

  onopentagname(start: number, end: number): void {
    this.openTag(this.tagNameAt(start, end));
  }

  onattribname(start: number, end: number): void {
    this.attributeName = this.sink.attributeName(this.html, start, end);
  }

  onattribdata(start: number, end: number): void {
    if (this.attributeName !== null) this.attributeValue += this.html.slice(start, end);
  }

  onattribentity(codePoint: number): void {
    if (this.attributeName !== null) this.attributeValue += String.fromCodePoint(codePoint);
  }

  onattribend(): void {
    if (this.attributeName === null) return;
    this.sink.attribute(this.attributeName, this.attributeValue);
    this.attributeName = null;
    this.attributeValue = "";
  }

  onopentagend(): void {
    this.endStartTag();
    this.sink.startTagEnd();
  }

  /** `/>` closes the element in foreign content only (`recognizeSelfClosing` is off, as for HTML). */
  onselfclosingtag(): void {
    if (!this.isInForeignContext()) return this.onopentagend();
    this.closeCurrentTag();
    this.sink.startTagEnd();
  }

  onclosetag(start: number, end: number): void {
    const name = this.tagNameAt(start, end);
    if (VOID_ELEMENTS.has(name)) {
      if (name === "br") {
        this.sink.openTag("br");
        this.sink.closeTag("br");
      }
      return;
    }
    // the search below finds the element within the ones it then pops,
    // so the whole page's end tags cost O(elements)
    const at = this.isOpen(name) ? this.stack.lastIndexOf(name) : -1;
    if (at >= 0) {
      while (this.stack.length > at) this.popElement();
    } else if (name === "p") {
      this.openTag("p");
      this.closeCurrentTag();
    }
  }

  onend(): void {
    for (let k = this.stack.length - 1; k >= 0; k--) this.sink.closeTag(this.stack[k] as string);
  }

  /** Parser.readTagName: the name lower-cased, then SVG's casing or the `image` alias. */
  private tagNameAt(start: number, end: number): string {
    const name = lowerCaseName(this.html, start, end);
    const context = this.foreign[this.foreign.length - 1];
    if (context === SVG) return SVG_TAG_NAMES.get(name) ?? name;
    if (this.foreign.length > 1) {
      // an SVG element's end tag inside its own HTML content (</foreignObject>)
      const svgName = SVG_TAG_NAMES.get(name);
      if (svgName !== undefined && this.isOpen(svgName)) return svgName;
    }
    if (context === NO_FOREIGN) return name === "image" ? "img" : name;
    return name;
  }

  /** Parser.emitOpenTag. */
  private openTag(name: string): void {
    this.tagName = name;
    if (name === "form" && this.isOpen("form")) {
      this.tagName = "";
      return;
    }
    const closes = OPEN_IMPLIES_CLOSE.get(name);
    if (closes !== undefined) {
      while (this.stack.length > 0 && closes.has(this.stack[this.stack.length - 1] as string))
        this.popElement();
    }
    if (!VOID_ELEMENTS.has(name)) {
      this.pushElement(name);
      if (name === "svg") this.foreign.push(SVG);
      else if (name === "math") this.foreign.push(MATHML);
      else if (HTML_INTEGRATION.has(name)) this.foreign.push(NO_FOREIGN);
    }
    this.sink.openTag(name);
  }

  /** Parser.endOpenTag: a void element closes at its `>`. */
  private endStartTag(): void {
    if (VOID_ELEMENTS.has(this.tagName)) this.sink.closeTag(this.tagName);
    this.tagName = "";
  }

  /** Parser.closeCurrentTag: end the start tag and close its element, which is the innermost. */
  private closeCurrentTag(): void {
    const name = this.tagName;
    this.endStartTag();
    if (this.stack[this.stack.length - 1] === name) this.popElement();
  }

  /** Whether an element of this name is open. */
  private isOpen(name: string): boolean {
    return this.counts === null ? this.stack.includes(name) : (this.counts.get(name) ?? 0) > 0;
  }

  private pushElement(name: string): void {
    this.stack.push(name);
    if (this.counts !== null) this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    else if (this.stack.length > DEEP_STACK) {
      this.counts = new Map();
      for (const open of this.stack) this.counts.set(open, (this.counts.get(open) ?? 0) + 1);
    }
  }

  private popElement(): void {
    const name = this.stack.pop() as string;
    if (this.counts !== null) {
      this.counts.set(name, (this.counts.get(name) as number) - 1);
      if (this.stack.length <= DEEP_STACK / 2) this.counts = null;
    }
    if (name === "svg" || name === "math" || HTML_INTEGRATION.has(name)) this.foreign.pop();
    this.sink.closeTag(name);
  }
}
