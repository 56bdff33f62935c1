/**
 * Page metadata read from the raw HTML, for both renderers (the snapshot's script bodies and
 * <meta> attributes are not kept): the canonical URL (<link rel=canonical>, else og:url), the
 * Open Graph type and the schema.org types the page declares (JSON-LD "@type" values and
 * microdata itemtype names), and what it declares about itself (description, author, dates:
 * declared-meta.ts). They tell what kind of page this is (an og:type "product", a
 * JSON-LD Product or DiscussionForumPosting), which the page-type router and the content models
 * read through src/features/page.ts.
 *
 * Regular expressions over the whole document, each linear; no JSON parsing (JSON-LD in the
 * wild is often invalid), so "@type" values are read wherever they appear, @graph included.
 */

import type { PageMeta } from "../types.ts";
import { decodeHTMLAttribute } from "entities";
import { DeclaredMetaReader } from "./declared-meta.ts";

export type { PageMeta };

/** At most this many schema types are kept per page. */
export const MAX_SCHEMA_TYPES = 32;
/**
 * Only this much of a document is scanned (a 10 MB page keeps its
 * metadata near the top or in its first scripts).
 */
export const MAX_SCAN_CHARS = 4_000_000;

/**
 * One pass over the document for four kinds of metadata: a comment (skipped whole: a
 * commented-out tag is no metadata; an unclosed one runs to the end, as in HTML), <meta …> or
 * <link …> (quoted values may hold ">"), a JSON-LD script's body, or an itemtype attribute value
 * (quoted, or unquoted up to whitespace). The pass takes the leftmost match of any kind, then
 * looks again after it (MetaScan), as the one regular expression alternating all four did
 * before. Its `\bitemtype` alternative may start at any character, so V8 tried every alternative
 * at every position; the three kinds that start with "<" are now tried only at a "<" found
 * natively (indexOf) and followed by a character that can start them (startsTagMatch), and itemtype
 * has its own expression. On 200 wcxb-dev pages (307 KB of HTML on average) pageMeta took
 * 0.50 ms a page with the one expression, 0.38 ms with the two searches.
 */
const AT_LT =
  /<(?:!--(?:[\s\S]*?-->|[\s\S]*$)|(meta|link)\b|script\b[^>]*application\/ld\+json[^>]*>([\s\S]*?)<\/script)/iy;
const ITEMTYPE = /\bitemtype\s*=\s*(?:"([^"]{1,300})"|'([^']{1,300})'|([^\s"'>]{1,300}))/gi;
/**
 * Whether the character after a "<" (its code lower-cased with
 * `| 0x20`) may start an AT_LT match: "!", "m", "l" or "s".
 */
function startsTagMatch(c: number): boolean {
  return c === 0x21 || c === 0x6d || c === 0x6c || c === 0x73;
}

/** The leftmost AT_LT match at or after `from`, or null. */
function nextTagMatch(doc: string, from: number): RegExpExecArray | null {
  for (let p = doc.indexOf("<", from); p >= 0; p = doc.indexOf("<", p + 1)) {
    if (!startsTagMatch(doc.charCodeAt(p + 1) | 0x20)) continue;
    AT_LT.lastIndex = p;
    const m = AT_LT.exec(doc);
    if (m !== null) return m;
  }
  return null;
}

/** The leftmost ITEMTYPE match at or after `from`, or null. */
function nextItemtypeMatch(doc: string, from: number): RegExpExecArray | null {
  ITEMTYPE.lastIndex = from;
  return ITEMTYPE.exec(doc);
}

/**
 * The leftmost match of one kind at or after a position, remembered: the scan asks again after
 * each match it takes, and one still ahead is the answer again (whether a match starts at a
 * position does not depend on where the search started), so each kind's search passes over the
 * document about once. A search that found nothing is not repeated.
 */
class NextMatch {
  /** undefined: not searched yet. */
  private found: RegExpExecArray | null | undefined;
  constructor(
    private readonly doc: string,
    private readonly search: (doc: string, from: number) => RegExpExecArray | null,
  ) {}

  at(from: number): RegExpExecArray | null {
    if (this.found === undefined || (this.found !== null && this.found.index < from))
      this.found = this.search(this.doc, from);
    return this.found;
  }
}

/** The scan's matches in document order, each found after the end of the one before (see the header). */
class MetaScan {
  private readonly tags: NextMatch;
  private readonly itemtypes: NextMatch;
  constructor(doc: string) {
    this.tags = new NextMatch(doc, nextTagMatch);
    this.itemtypes = new NextMatch(doc, nextItemtypeMatch);
  }

  /** The leftmost match at or after `from` and whether it is an itemtype, or null when none is left. */
  next(from: number): { m: RegExpExecArray; itemtype: boolean } | null {
    const tag = this.tags.at(from);
    const itemtype = this.itemtypes.at(from);
    if (itemtype !== null && (tag === null || itemtype.index < tag.index))
      return { m: itemtype, itemtype: true };
    return tag === null ? null : { m: tag, itemtype: false };
  }
}

const LD_TYPE = /"@type"\s*:\s*(?:"([^"]{1,80})"|\[([^\]]{0,400})\])/g;
const ATTR = /([a-z:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
const QUOTED = /"([^"]{1,80})"/g;

/** How far into a tag a quoted value is read for its ">" (a longer one ends at the first ">"). */
const MAX_QUOTED_TAG_CHARS = 1024;

/**
 * Finds where tags end, in linear time over a document: a quoted value may hold ">" (`content="5
 * > 3"`), and a tag that opens a quote it never closes (within MAX_QUOTED_TAG_CHARS) ends at its
 * first ">". The first ">" after a position is remembered, so 50,000 unclosed `<meta ` do not
 * each scan to the end (a regular expression did: 5 s for 300 KB).
 */
class TagEnds {
  /** The first ">" at or after the last position asked (-1: none; -2: not looked for yet). */
  private gt = -2;
  constructor(private readonly doc: string) {}

  /** The first ">" at or after `from`, or -1; `from` only grows between calls (the scan moves forward). */
  private firstGt(from: number): number {
    if (this.gt !== -1 && this.gt < from) this.gt = this.doc.indexOf(">", from);
    return this.gt;
  }

  /** Index after the ">" of the tag starting at `from`, or -1 when the document ends inside it. */
  end(from: number): number {
    const doc = this.doc;
    const limit = Math.min(doc.length, from + MAX_QUOTED_TAG_CHARS);
    let quote = "";
    for (let i = from; i < limit; i++) {
      const c = doc[i];
      if (quote) {
        if (c === quote) quote = "";
      } else if (c === '"' || c === "'") quote = c as string;
      else if (c === ">") return i + 1;
    }
    const gt = this.firstGt(from);
    return gt < 0 ? -1 : gt + 1;
  }
}

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(ATTR)) out.set((m[1] as string).toLowerCase(), m[2] ?? m[3] ?? m[4] ?? "");
  return out;
}

/**
 * A refresh's delay and target: `0; url=/next`, `5;URL='x.html'`, `0, https://x.org/` (HTML's
 * "shared declarative refresh steps", simplified).
 */
const REFRESH = /^\s*(?:\d+\.?\d*|\.\d+)\s*[;,]?\s*(?:url\s*=\s*)?(["']?)(.*?)\1\s*$/is;

/** The URL a refresh's content sends the browser to, or null for a plain reload (`30`). */
function refreshTarget(content: string): string | null {
  const url = REFRESH.exec(content)?.[2]?.trim();
  return url ? url.slice(0, MAX_REFRESH_URL_CHARS) : null;
}
/** A refresh target longer than this is cut (it is only shown in a reason). */
const MAX_REFRESH_URL_CHARS = 2048;

/** "https://schema.org/NewsArticle" or "schema:NewsArticle" → "NewsArticle". */
function typeName(raw: string): string {
  const t = raw.trim();
  const cut = Math.max(t.lastIndexOf("/"), t.lastIndexOf(":"), t.lastIndexOf("#"));
  return t.slice(cut + 1);
}

function absolute(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url.trim());
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * The metadata of one HTML document (see the header): canonicalUrl is absolute or null, ogType
 * lower-cased or null, schemaTypes deduplicated in document order.
 */
export function pageMeta(html: string, options: { declared?: boolean } = {}): PageMeta {
  const doc = html.length > MAX_SCAN_CHARS ? html.slice(0, MAX_SCAN_CHARS) : html;
  let ogType: string | null = null;
  let ogUrl: string | null = null;
  let canonical: string | null = null;
  let refreshUrl: string | null = null;
  const types: string[] = [];
  const declared = options.declared ? new DeclaredMetaReader() : null;
  const add = (raw: string): void => {
    const name = typeName(raw);
    if (name && types.length < MAX_SCHEMA_TYPES && !types.includes(name)) types.push(name);
  };
  const ends = new TagEnds(doc);
  const scan = new MetaScan(doc);
  let from = 0;
  for (let found = scan.next(from); found !== null; found = scan.next(from)) {
    const { m, itemtype } = found;
    from = m.index + m[0].length;
    if (itemtype) {
      for (const t of (m[1] ?? m[2] ?? m[3] ?? "").split(/\s+/)) if (t) add(t);
      continue;
    }
    const tag = m[1]?.toLowerCase();
    if (tag) {
      const end = ends.end(m.index);
      if (end < 0) break; // the document ends inside this tag
      const text = doc.slice(m.index, end);
      from = end;
      if (tag === "meta") {
        const a = attributes(text);
        const key = (a.get("property") ?? a.get("name") ?? a.get("itemprop") ?? "").toLowerCase();
        declared?.meta(key, a.get("content"));
        if ((a.get("http-equiv") ?? "").trim().toLowerCase() === "refresh")
          refreshUrl ??= refreshTarget(decodeHTMLAttribute(a.get("content") ?? ""));
        if (key === "og:type") ogType ??= (a.get("content") ?? "").trim().toLowerCase() || null;
        else if (key === "og:url") ogUrl ??= absolute(a.get("content"));
      } else if (canonical === null && /canonical/i.test(text)) {
        const a = attributes(text);
        if ((a.get("rel") ?? "").toLowerCase().split(/\s+/).includes("canonical"))
          canonical = absolute(a.get("href"));
      }
    } else if (m[2] !== undefined) {
      declared?.jsonLd(m[2]);
      for (const t of m[2].matchAll(LD_TYPE)) {
        if (t[1] !== undefined) add(t[1]);
        else for (const q of (t[2] ?? "").matchAll(QUOTED)) add(q[1] as string);
      }
    } // else a comment, skipped whole
  }
  return {
    canonicalUrl: canonical ?? ogUrl,
    ogType,
    schemaTypes: types,
    ...(declared ? { declared: declared.result() } : {}),
    ...(refreshUrl ? { refreshUrl } : {}),
  };
}
