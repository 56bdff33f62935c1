/**
 * Markup repairs where htmlparser2 departs from how browsers (and the datasets' annotators)
 * see a page, each found on a real page; the static renderer applies all of them, the Chromium
 * renderer (JavaScript off) the iframe one:
 * - `<![CDATA[` outside SVG/MathML is a bogus comment ending at the next `>` in HTML; htmlparser2
 *   reads it up to `]]>` and swallowed whole forums (XenForo, wcxb-dev wx-4311). It becomes an
 *   empty comment, so the markup after it survives.
 * - A `<title>` that is never closed swallowed the whole document (l3s-gn1 gn1-0014); it is
 *   closed at the end of its first line.
 * - A self-closed `<iframe …/>` (Google Tag Manager's `<noscript>` snippet) opened a raw-text
 *   element that swallowed the page (harvest-forums hv-0015); browsers running scripts never
 *   parse it. It gets its end tag.
 */
const CDATA_OPEN = /<!\[CDATA\[/gi;
const TITLE_OPEN = /<title\b[^>]*>/i;
const TITLE_CLOSE = /<\/title/i;
const SELF_CLOSED_IFRAME = /<iframe\b([^>]*?)\/>/gi;

/**
 * The self-closed `<iframe …/>` repair alone. Chromium with JavaScript off parses `<noscript>` as
 * markup too, so its renderer applies this before writing the page (harvest-forums: 12 of 102
 * pages had no visible text in chromium mode without it).
 */
export function closeSelfClosedIframes(html: string): string {
  // one scan: a /<iframe/i test before the replace scanned pages with an iframe twice (74 of 200 wcxb-dev pages)
  return html.includes("/>") ? html.replace(SELF_CLOSED_IFRAME, "<iframe$1></iframe>") : html;
}

export function repairMarkup(html: string): string {
  let out = html.includes("<![") ? html.replace(CDATA_OPEN, "<!---->") : html;
  out = closeSelfClosedIframes(out);
  const open = TITLE_OPEN.exec(out);
  if (open && !TITLE_CLOSE.test(out)) {
    const from = open.index + open[0].length;
    const newline = out.indexOf("\n", from);
    const at = newline < 0 ? out.length : newline;
    out = out.slice(0, at) + "</title>" + out.slice(at);
  }
  return out;
}
