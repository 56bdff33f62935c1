/**
 * What a page declares about itself in its <head> and JSON-LD: description, author, publication
 * and modification dates, site name, lead image. Read from the raw HTML during pageMeta's single
 * scan (page-meta.ts hands over every <meta> tag's attributes and every JSON-LD body) and given in
 * `pith extract --format json` as `metadata`. Declared only: no date or byline is guessed from
 * the visible text, so a field is null when the page does not state it, and values are the page's
 * own (a date as written, usually ISO 8601), with character references and JSON escapes decoded.
 *
 * Precedence, first found wins within a source, and sources in the order of DECLARED_SOURCES:
 * Open Graph / article: properties, then plain <meta name>, then itemprop, then JSON-LD. An
 * `article:author` holding a URL (Facebook's profile link convention) is no name and is skipped.
 */
import { decodeHTML } from "entities";
import type { DeclaredMeta } from "../types.ts";

export type { DeclaredMeta };

/** Longest value kept per field (a description is a sentence or two, not an article). */
export const MAX_DECLARED_CHARS = 1000;

type Field = keyof DeclaredMeta;

/** <meta property|name|itemprop> keys (lower-cased) per field, best first. */
export const DECLARED_SOURCES: Readonly<Record<Field, readonly string[]>> = {
  description: ["og:description", "description", "twitter:description", "dc.description"],
  author: ["author", "article:author", "parsely-author", "sailthru.author", "dc.creator", "byl"],
  published: ["article:published_time", "og:published_time", "datepublished", "pubdate", "publishdate", "parsely-pub-date", "sailthru.date", "dc.date", "date"],
  modified: ["article:modified_time", "og:updated_time", "datemodified", "last-modified"],
  siteName: ["og:site_name", "application-name"],
  image: ["og:image", "og:image:url", "twitter:image", "image"],
};

/** JSON-LD patterns per field (linear regular expressions: JSON-LD in the wild is often invalid JSON). */
const LD_STRING = (key: string): RegExp => new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){1,${MAX_DECLARED_CHARS}})"`);
/** `"key": {…"name": "X"…}`, `"key": [{…"name": "X"…}]` or `"key": "X"` (a flat object: nested braces before the name are not followed). */
const LD_NAMED = (key: string): RegExp =>
  new RegExp(`"${key}"\\s*:\\s*(?:\\[\\s*)?(?:\\{[^{}]*?"name"\\s*:\\s*"((?:[^"\\\\]|\\\\.){1,300})"|"((?:[^"\\\\]|\\\\.){1,300})")`);
const LD_RULES: readonly (readonly [Field, RegExp])[] = [
  ["published", LD_STRING("datePublished")],
  ["modified", LD_STRING("dateModified")],
  ["author", LD_NAMED("author")],
  ["siteName", LD_NAMED("publisher")],
  ["description", LD_STRING("description")],
];

const URL_LIKE = /^(?:https?:)?\/\//i;

function clean(raw: string): string | null {
  const v = raw.replace(/\s+/g, " ").trim();
  return v ? v.slice(0, MAX_DECLARED_CHARS) : null;
}

/** A JSON string body as text ("Caf\u00e9 \/ Bar" → "Café / Bar"); as written when it does not parse. */
function jsonText(body: string): string {
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body;
  }
}

/** Collects the declared metadata of one document as pageMeta's scan meets <meta> tags and JSON-LD bodies. */
export class DeclaredMetaReader {
  private readonly fromMeta = new Map<string, string>();
  private readonly fromLd: Partial<Record<Field, string>> = {};

  /** A <meta> tag's key (property, name or itemprop, lower-cased) and its content. */
  meta(key: string, content: string | undefined): void {
    if (!key || content === undefined || this.fromMeta.has(key)) return;
    const v = clean(decodeHTML(content));
    if (v !== null) this.fromMeta.set(key, v);
  }

  /** The body of a JSON-LD script. */
  jsonLd(body: string): void {
    for (const [field, rule] of LD_RULES) {
      if (this.fromLd[field] !== undefined) continue;
      const m = rule.exec(body);
      const raw = m?.[1] ?? m?.[2];
      const v = raw === undefined ? null : clean(decodeHTML(jsonText(raw)));
      if (v !== null) this.fromLd[field] = v;
    }
  }

  result(): DeclaredMeta {
    const out = {} as DeclaredMeta;
    for (const field of Object.keys(DECLARED_SOURCES) as Field[]) {
      let value: string | null = null;
      for (const key of DECLARED_SOURCES[field]) {
        const v = this.fromMeta.get(key);
        if (v === undefined || (field === "author" && URL_LIKE.test(v))) continue;
        value = v;
        break;
      }
      out[field] = value ?? this.fromLd[field] ?? null;
    }
    return out;
  }
}
