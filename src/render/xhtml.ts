/**
 * XHTML files read as browsers read them. A `.xhtml` file (an e-book chapter, a saved XHTML
 * page), a page served as application/xhtml+xml (a URL, a WARC response: PageInput.xhtml) or a
 * document that opens with an XML declaration and the XHTML namespace is XML: `<tag/>`
 * closes any element and `<![CDATA[…]]>` is text. Both renderers parse HTML, where a
 * self-closed `<script src="x.js"/>` or `<style/>` stays open and swallows the rest of the page
 * (the whole chapter came out empty) and CDATA is a bogus comment. So such a document is first
 * rewritten into the HTML that parses to the same tree: a self-closed non-void element gets its
 * end tag, a void element's end tag goes (`<br></br>` is one break), and a CDATA section in text
 * becomes its escaped text (one in a script or style, behind the `//` or `/*` that hides it from
 * HTML-era parsers, is left as it is).
 */
import type { PageInput } from "../types.ts";
import { escapeText } from "../dom/escape.ts";

/** Elements that take no end tag in HTML: `<br/>` is already HTML. */
const VOID_TAGS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
  "param",
  "keygen",
  "basefont",
  "bgsound",
  "frame",
]);
/** File names of XHTML documents. */
const XHTML_FILE = /\.(?:xhtml|xht)(?:\.gz)?$/i;
/**
 * An XML declaration at the start (after a byte-order mark or spaces) and the XHTML namespace near the top.
 */
const XML_PROLOG = /^\uFEFF?\s*<\?xml\b/;
const XHTML_NAMESPACE = "http://www.w3.org/1999/xhtml";
/** How far into a document with an XML declaration the XHTML namespace is looked for. */
const NAMESPACE_SCAN_CHARS = 4096;

/** A self-closed start tag: name, attributes (quoted values may hold "/>"), "/>". */
const SELF_CLOSED =
  /<([a-zA-Z][\w:.-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/>/g;
/** A CDATA section, and what stands before it (a script's `//` or `/*` comment marker). */
const CDATA = /(?:(\/\/|\/\*)[ \t]*)?<!\[CDATA\[([\s\S]*?)\]\]>/g;
/** An end tag of a void element (`<br></br>` is one element in XML, two breaks in HTML). */
const VOID_END_TAG = new RegExp(`<\\/(?:${[...VOID_TAGS].join("|")})\\s*>`, "gi");

export function isXhtml(input: Pick<PageInput, "source" | "html" | "xhtml">): boolean {
  if (input.xhtml === true || XHTML_FILE.test(input.source)) return true;
  return XML_PROLOG.test(input.html) && input.html.slice(0, NAMESPACE_SCAN_CHARS).includes(XHTML_NAMESPACE);
}

/** The HTML that parses to the tree the XHTML document `html` describes (see the header). */
export function xhtmlAsHtml(html: string): string {
  const noCdata = html.includes("<![CDATA[")
    ? html.replace(CDATA, (whole, comment: string | undefined, text: string) =>
        comment ? whole : escapeText(text),
      )
    : html;
  const closed = noCdata.includes("/>")
    ? noCdata.replace(SELF_CLOSED, (whole, tag: string, attrs: string) =>
        VOID_TAGS.has(tag.toLowerCase()) ? whole : `<${tag}${attrs}></${tag}>`,
      )
    : noCdata;
  return closed.replace(VOID_END_TAG, "");
}

/** The input's markup as HTML: rewritten when it is an XHTML document, else as it is. */
export function htmlOf(input: Pick<PageInput, "source" | "html">): string {
  return isXhtml(input) ? xhtmlAsHtml(input.html) : input.html;
}
