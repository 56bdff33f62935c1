/**
 * Tag names read from the page without making a string for each: `html.slice(start,
 * end).toLowerCase()` for a known name is looked up by its characters in a table of the names of
 * HTML, SVG and MathML, which holds each as one shared string. A page has ~2,600 tags; the slice
 * and toLowerCase each allocate, and a page held as a two-byte string (a character beyond
 * Latin-1: 185 of 200 wcxb-dev pages) slices two-byte names, whose toLowerCase V8 runs on its
 * slow path (~35 ns). The shared strings are also internalized, so the tree builder's and the
 * snapshot's set lookups and comparisons of names find them by identity. Names not in the table
 * (custom elements, names with characters beyond ASCII) are sliced and lower-cased.
 * On 200 wcxb-dev pages the static snapshot took 4-7 % less CPU with the table. The same for
 * attribute names did not pay (about the noise), so they are sliced.
 */

/** Element names of HTML (current and obsolete), SVG and MathML, lower-case. */
const KNOWN_NAMES = [
  // HTML
  "a",
  "abbr",
  "acronym",
  "address",
  "applet",
  "area",
  "article",
  "aside",
  "audio",
  "b",
  "base",
  "basefont",
  "bdi",
  "bdo",
  "bgsound",
  "big",
  "blink",
  "blockquote",
  "body",
  "br",
  "button",
  "canvas",
  "caption",
  "center",
  "cite",
  "code",
  "col",
  "colgroup",
  "command",
  "data",
  "datalist",
  "dd",
  "del",
  "details",
  "dfn",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "em",
  "embed",
  "fieldset",
  "figcaption",
  "figure",
  "font",
  "footer",
  "form",
  "frame",
  "frameset",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "head",
  "header",
  "hgroup",
  "hr",
  "html",
  "i",
  "iframe",
  "image",
  "img",
  "input",
  "ins",
  "isindex",
  "kbd",
  "keygen",
  "label",
  "legend",
  "li",
  "link",
  "listing",
  "main",
  "map",
  "mark",
  "marquee",
  "menu",
  "menuitem",
  "meta",
  "meter",
  "nav",
  "nobr",
  "noembed",
  "noframes",
  "noscript",
  "object",
  "ol",
  "optgroup",
  "option",
  "output",
  "p",
  "param",
  "picture",
  "plaintext",
  "pre",
  "progress",
  "q",
  "rb",
  "rp",
  "rt",
  "rtc",
  "ruby",
  "s",
  "samp",
  "script",
  "search",
  "section",
  "select",
  "slot",
  "small",
  "source",
  "span",
  "strike",
  "strong",
  "style",
  "sub",
  "summary",
  "sup",
  "table",
  "tbody",
  "td",
  "template",
  "textarea",
  "tfoot",
  "th",
  "thead",
  "time",
  "title",
  "tr",
  "track",
  "tt",
  "u",
  "ul",
  "var",
  "video",
  "wbr",
  "xmp",
  // SVG (lower-cased: tree-builder.ts restores the capitals)
  "svg",
  "altglyph",
  "altglyphdef",
  "altglyphitem",
  "animate",
  "animatecolor",
  "animatemotion",
  "animatetransform",
  "circle",
  "clippath",
  "defs",
  "desc",
  "ellipse",
  "feblend",
  "fecolormatrix",
  "fecomponenttransfer",
  "fecomposite",
  "feconvolvematrix",
  "fediffuselighting",
  "fedisplacementmap",
  "fedistantlight",
  "fedropshadow",
  "feflood",
  "fefunca",
  "fefuncb",
  "fefuncg",
  "fefuncr",
  "fegaussianblur",
  "feimage",
  "femerge",
  "femergenode",
  "femorphology",
  "feoffset",
  "fepointlight",
  "fespecularlighting",
  "fespotlight",
  "fetile",
  "feturbulence",
  "filter",
  "foreignobject",
  "g",
  "glyphref",
  "line",
  "lineargradient",
  "marker",
  "mask",
  "metadata",
  "mpath",
  "path",
  "pattern",
  "polygon",
  "polyline",
  "radialgradient",
  "rect",
  "set",
  "stop",
  "switch",
  "symbol",
  "text",
  "textpath",
  "tspan",
  "use",
  "view",
  // MathML
  "math",
  "annotation",
  "annotation-xml",
  "maction",
  "menclose",
  "merror",
  "mfenced",
  "mfrac",
  "mi",
  "mmultiscripts",
  "mn",
  "mo",
  "mover",
  "mpadded",
  "mphantom",
  "mprescripts",
  "mroot",
  "mrow",
  "ms",
  "mspace",
  "msqrt",
  "mstyle",
  "msub",
  "msubsup",
  "msup",
  "mtable",
  "mtd",
  "mtext",
  "mtr",
  "munder",
  "munderover",
  "none",
  "semantics",
];

/** Slots of the open-addressing table: a power of two, about four times the names. */
const TABLE_SIZE = 1024;
const MASK = TABLE_SIZE - 1;
const LONGEST = KNOWN_NAMES.reduce((n, name) => Math.max(n, name.length), 0);

/** Each ASCII code lower-cased as toLowerCase does (only A-Z change). */
const LOWER = Uint8Array.from({ length: 128 }, (_, c) => (c >= 0x41 && c <= 0x5a ? c | 0x20 : c));

function step(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

const slots: (string | undefined)[] = new Array<string | undefined>(TABLE_SIZE).fill(undefined);
for (const name of KNOWN_NAMES) {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = step(h, name.charCodeAt(i));
  let slot = h & MASK;
  while (slots[slot] !== undefined) slot = (slot + 1) & MASK;
  slots[slot] = name;
}

/** The known name spelled (in any case) by html[start, end), or undefined. */
function knownName(html: string, start: number, end: number): string | undefined {
  const length = end - start;
  if (length > LONGEST) return undefined;
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    const c = html.charCodeAt(i);
    if (c >= 0x80) return undefined;
    h = step(h, LOWER[c] as number);
  }
  for (let slot = h & MASK; ; slot = (slot + 1) & MASK) {
    const name = slots[slot];
    if (name === undefined) return undefined;
    if (name.length === length && sameLowerCase(name, html, start)) return name;
  }
}

function sameLowerCase(name: string, html: string, start: number): boolean {
  for (let i = 0; i < name.length; i++)
    if (name.charCodeAt(i) !== LOWER[html.charCodeAt(start + i)]) return false;
  return true;
}

/** `html.slice(start, end).toLowerCase()`, as a shared string when it is a known element name. */
export function lowerCaseName(html: string, start: number, end: number): string {
  return knownName(html, start, end) ?? html.slice(start, end).toLowerCase();
}
