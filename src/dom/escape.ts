/** HTML and Markdown escaping for the output formats, and the URLs they may keep. */
export function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function escapeAttribute(s: string): string {
  return escapeText(s).replace(/"/g, "&quot;");
}

/**
 * Escape page text for Markdown, inline: emphasis, code, link brackets, raw HTML (`<`: a page that
 * shows `<script>` as text must not put a live tag in Markdown that a renderer turns into HTML),
 * character references (`&copy;` shown as text stays text) and tildes (GitHub's strikethrough
 * takes one or two: "~~old~~" in page text is not struck out). Line starts: escapeLineStart.
 */
export function escapeMarkdown(s: string): string {
  return s.replace(/([\\`*_\[\]<~])/g, "\\$1").replace(/&(?=#?\w+;)/g, "\\&");
}

/**
 * What would make a line of page text a block of Markdown syntax (CommonMark), each escaped only
 * where it would: an ATX heading, a quote, a list item (`-`, `+`, `1.`, `1)`), a thematic break
 * or setext underline (`---`, `===`). (`*`, `_`, backticks and `~`,
 * which a `~~~` fence needs, are escaped inline.)
 */
const LINE_START_RULES: readonly (readonly [RegExp, string])[] = [
  [/^(#{1,6})(?=\s|$)/, "\\$1"],
  [/^>/, "\\>"],
  [/^([-+])(?=\s|$)/, "\\$1"],
  [/^(\d{1,9})([.)])(?=\s|$)/, "$1\\$2"],
  [/^([-=])(?=[-=\s]*$)/, "\\$1"],
];

/**
 * A run of `#` at the end of a heading's text, after a space (or alone): CommonMark reads it as the
 * heading's optional closing sequence and drops it.
 */
const HEADING_CLOSE = /(^|[ \t])(#+)([ \t]*)$/;

/**
 * A heading's text (escaped page text) with a closing-sequence-like run of `#` at its end escaped
 * ("Issue #" stays "Issue #").
 */
export function escapeHeadingEnd(text: string): string {
  return text.replace(
    HEADING_CLOSE,
    (_, space: string, hashes: string, trail: string) => space + hashes.replace(/#/g, "\\#") + trail,
  );
}

/** A line of escaped page text with the block syntax its start would open escaped too. */
export function escapeLineStart(line: string): string {
  for (const [rule, replacement] of LINE_START_RULES)
    if (rule.test(line)) return line.replace(rule, replacement);
  return line;
}

/**
 * URL schemes that run script when followed or loaded, and `file:` (a web page's link into its
 * author's disk: browsers refuse to follow it from a web page, CommonMark renderers drop it).
 */
const UNSAFE_URL = /^(?:javascript|vbscript|data|file):/;
/** The data: URLs kept: an image's source. */
const IMAGE_DATA_URL = /^data:image\/(?:png|gif|jpeg|webp|avif);/;

/**
 * A URL as a browser reads its scheme: whitespace and control
 * characters dropped ("java\tscript:", "da\nta:"), lower-cased.
 */
function schemeView(value: string): string {
  return value.replace(/[\u0000-\u0020\u007f]+/g, "").toLowerCase();
}

/** Whether a URL is a `data:` URL as a browser reads it (schemeView). */
export function isDataUrl(value: string): boolean {
  return schemeView(value).startsWith("data:");
}

/**
 * Whether a link (`href`) or source (`src`) URL from an untrusted page may be kept in output meant
 * to be shown: not one that runs script (`javascript:`, `vbscript:`, a `data:` URL other than an
 * image's source) nor a `file:` one. Browsers skip whitespace and
 * control characters in a scheme ("java\tscript:"),
 * so this does too.
 */
export function safeUrl(attribute: "href" | "src", value: string): boolean {
  const url = schemeView(value);
  if (!UNSAFE_URL.test(url)) return true;
  return attribute === "src" && IMAGE_DATA_URL.test(url);
}

/**
 * A URL as a Markdown link target: trimmed (as a browser reads an href), and the characters that
 * would end or split it (parentheses, spaces, angle brackets, a backslash, which would escape
 * the closing parenthesis) percent-encoded.
 */
export function markdownUrl(url: string): string {
  // encodeURIComponent leaves parentheses alone
  return url
    .trim()
    .replace(/[()<>\s\\]/g, (c) => (c === "(" ? "%28" : c === ")" ? "%29" : encodeURIComponent(c)));
}
