/**
 * Which elements break text into blocks (lines) and which are inline. One table, used by text
 * rendering, the block segmentation of the features stage and the paper extractors.
 * Based on the HTML Living Standard's flow/phrasing content split and the display:block
 * defaults of Chromium's UA stylesheet.
 */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "center",
  "dd",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
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
  "header",
  "hgroup",
  "hr",
  "html",
  "iframe",
  "legend",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "noscript",
  "ol",
  "optgroup",
  "option",
  "p",
  "plaintext",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
  "xmp",
  "caption",
  "br",
  "select",
  "textarea",
  "video",
  "audio",
  "canvas",
  "picture",
  "search",
]);

/**
 * Elements whose whitespace is content (a browser's default `white-space: pre`): code and preformatted text.
 */
export const PREFORMATTED_TAGS: ReadonlySet<string> = new Set([
  "pre",
  "listing",
  "plaintext",
  "textarea",
  "xmp",
]);

/**
 * Elements whose subtree is never main text, whatever the renderer says about visibility. Not
 * `<math>`: both renderers give a formula its text as one child (src/render/math-text.ts).
 */
export const NON_CONTENT_TAGS: ReadonlySet<string> = new Set([
  "script",
  "style",
  "template",
  "head",
  "title",
  "meta",
  "link",
  "base",
  "svg",
  "canvas",
  "select",
  "option",
  "optgroup",
  "button",
  "input",
  "textarea",
  "iframe",
  "object",
  "embed",
  "noembed",
  "noframes",
]);

/**
 * In Chromium mode the computed display decides; statically the tag table does. `math` is what
 * Chromium computes for an inline formula (MathML Core's `inline math`); a display formula
 * computes `block math`.
 */
export function isBlockDisplay(tag: string, display: string | undefined): boolean {
  if (display !== undefined) {
    return (
      display !== "inline" &&
      display !== "contents" &&
      display !== "none" &&
      display !== "math" &&
      !display.startsWith("inline")
    );
  }
  return BLOCK_TAGS.has(tag);
}
