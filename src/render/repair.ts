/**
 * Markup repairs where htmlparser2 departs from how browsers (and the datasets' annotators)
 * see a page, each found on a real page; the static renderer applies all of them, the Chromium
 * renderer (JavaScript off) the iframe one:
 * - `<![CDATA[` outside SVG/MathML is a bogus comment ending at the next `>` in HTML; htmlparser2
 *   reads it up to `]]>` and swallowed whole forums (XenForo). It becomes an
 *   empty comment, so the markup after it survives.
 * - A `<title>` that is never closed swallowed the whole document (a news page); it is
 *   closed at the end of its first line.
 * - A self-closed `<iframe …/>` (Google Tag Manager's `<noscript>` snippet) opened a raw-text
 *   element that swallowed the page (a forum thread); browsers running scripts never
 *   parse it. It gets its end tag.
 */
const TITLE_OPEN = /<title\b[^>]*>/i;
const TITLE_CLOSE = /<\/title/i;

/** The two repairs of a tag, each tried (sticky) at a "<" followed by its first character. */
const CDATA_OPEN_AT = /<!\[CDATA\[/iy;
const SELF_CLOSED_IFRAME_AT = /<iframe\b([^>]*?)\/>/iy;
const CDATA_OPEN = /<!\[CDATA\[/i;
/** Codes of "!" and of "i" lower-cased with `| 0x20`: what may follow the "<" of a repaired tag. */
const BANG = 0x21;
const LOWER_I = 0x69;

interface TagRepair {
  /** Length of the markup replaced, from its "<". */
  length: number;
  replacement: string;
}

/**
 * The repair of the markup starting at the "<" at `p`, or null. With `cdata`, CDATA openings are
 * emptied as if in a pass of their own before the iframe repair: a self-closed iframe tag that
 * holds one is left as it is, since the emptied opening (`<!---->`) ends the tag before its `/>`.
 */
function repairAt(html: string, p: number, cdata: boolean): TagRepair | null {
  const next = html.charCodeAt(p + 1) | 0x20;
  if (cdata && next === BANG) {
    CDATA_OPEN_AT.lastIndex = p;
    if (CDATA_OPEN_AT.test(html)) return { length: "<![CDATA[".length, replacement: "<!---->" };
  } else if (next === LOWER_I) {
    SELF_CLOSED_IFRAME_AT.lastIndex = p;
    const m = SELF_CLOSED_IFRAME_AT.exec(html);
    if (m !== null && !(cdata && CDATA_OPEN.test(m[0])))
      return { length: m[0].length, replacement: `<iframe${m[1]}></iframe>` };
  }
  return null;
}

/**
 * The tag repairs in one pass over the document's "<"s, found natively (indexOf). A global
 * regular expression per repair tried every character instead: on 200 wcxb-dev pages (307 KB of
 * HTML on average) both took 0.29 ms a page (with an `includes` test before each, which scanned
 * the page again), this pass 0.13 ms.
 */
function repairTags(html: string, cdata: boolean): string {
  let out = "";
  let copied = 0; // html before this index is in out
  for (let p = html.indexOf("<"); p >= 0; p = html.indexOf("<", p + 1)) {
    const repair = repairAt(html, p, cdata);
    if (repair === null) continue;
    out += html.slice(copied, p) + repair.replacement;
    copied = p + repair.length;
    p = copied - 1;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

/**
 * The self-closed `<iframe …/>` repair alone. Chromium with JavaScript off parses `<noscript>` as
 * markup too, so its renderer applies this before writing the page (harvest-forums: 12 of 102
 * pages had no visible text in chromium mode without it).
 */
export function closeSelfClosedIframes(html: string): string {
  return repairTags(html, false);
}

export function repairMarkup(html: string): string {
  let out = repairTags(html, true);
  const open = TITLE_OPEN.exec(out);
  if (open && !TITLE_CLOSE.test(out)) {
    const from = open.index + open[0].length;
    const newline = out.indexOf("\n", from);
    const at = newline < 0 ? out.length : newline;
    out = out.slice(0, at) + "</title>" + out.slice(at);
  }
  return out;
}
