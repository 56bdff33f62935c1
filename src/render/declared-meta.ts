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
 * JSON-LD is parsed when it is valid JSON (most is): the fields come from the first object that
 * describes a work (it has an author, a publication date or a headline), else from the first
 * object that has them, `@graph` and nested values included (walked iteratively); several
 * authors are joined ("Ann Lee, Bo Chan"). Invalid JSON-LD falls back to regular expressions.
 * Text values longer than MAX_DECLARED_CHARS are cut there; a URL that long is dropped, not cut.
 */
import { decodeHTML, decodeHTMLAttribute } from "entities";
import type { DeclaredMeta } from "../types.ts";

export type { DeclaredMeta };

/** Longest value kept per text field (a description is a sentence or two, not an article). */
export const MAX_DECLARED_CHARS = 1000;
/** Longest URL kept (a signed CDN link is long; a cut one is broken). */
export const MAX_DECLARED_URL_CHARS = 8192;
/** JSON-LD bodies larger than this are read by the regular expressions only. */
const MAX_PARSED_LD_CHARS = 1_000_000;

type Field = keyof DeclaredMeta;

/** <meta property|name|itemprop> keys (lower-cased) per field, best first. */
export const DECLARED_SOURCES: Readonly<Record<Field, readonly string[]>> = {
  description: ["og:description", "description", "twitter:description", "dc.description"],
  author: ["author", "article:author", "parsely-author", "sailthru.author", "dc.creator", "byl"],
  published: [
    "article:published_time",
    "og:published_time",
    "datepublished",
    "pubdate",
    "publishdate",
    "parsely-pub-date",
    "sailthru.date",
    "dc.date",
    "date",
  ],
  modified: ["article:modified_time", "og:updated_time", "datemodified", "last-modified"],
  siteName: ["og:site_name", "application-name"],
  image: ["og:image", "og:image:url", "twitter:image", "image"],
};

/** JSON-LD patterns per field (linear regular expressions: JSON-LD in the wild is often invalid JSON). */
const LD_STRING = (key: string): RegExp => new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)+)"`);
/**
 * `"key": {…"name": "X"…}`, `"key": [{…"name": "X"…}]` or `"key": "X"` (one level of nested objects
 * before the name is stepped over).
 */
const LD_NAMED = (key: string): RegExp =>
  new RegExp(
    `"${key}"\\s*:\\s*(?:\\[\\s*)?` +
      `(?:\\{(?:[^{}]|\\{[^{}]*\\})*?"name"\\s*:\\s*"((?:[^"\\\\]|\\\\.){1,300})"|"((?:[^"\\\\]|\\\\.){1,300})")`,
  );
const LD_RULES: readonly (readonly [Field, RegExp])[] = [
  ["published", LD_STRING("datePublished")],
  ["modified", LD_STRING("dateModified")],
  ["author", LD_NAMED("author")],
  ["siteName", LD_NAMED("publisher")],
  ["description", LD_STRING("description")],
];

const LD_FIELDS: readonly Field[] = ["published", "modified", "author", "siteName", "description"];

const URL_LIKE = /^(?:https?:)?\/\//i;

function clean(raw: string, field?: Field): string | null {
  const v = raw.replace(/\s+/g, " ").trim();
  if (!v) return null;
  if (field === "image") return v.length <= MAX_DECLARED_URL_CHARS ? v : null;
  return v.length <= MAX_DECLARED_CHARS ? v : v.slice(0, MAX_DECLARED_CHARS).trimEnd();
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A JSON-LD person or organisation as a name: a string, {name}, or a list of them joined. */
function names(v: Json | undefined): string | null {
  const list = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const x of list) {
    const name =
      typeof x === "string"
        ? x
        : x && typeof x === "object" && !Array.isArray(x) && typeof x["name"] === "string"
          ? x["name"]
          : null;
    if (name && name.trim() && !out.includes(name.trim())) out.push(name.trim());
  }
  return out.length ? out.join(", ") : null;
}

/** A field's value in one JSON-LD object, or null. */
function fieldOf(o: { [key: string]: Json }, field: Field): string | null {
  const str = (k: string): string | null => (typeof o[k] === "string" ? (o[k] as string) : null);
  switch (field) {
    case "published":
      return str("datePublished");
    case "modified":
      return str("dateModified");
    case "author":
      return names(o["author"]);
    case "siteName":
      return names(o["publisher"]);
    case "description":
      return str("description");
    case "image":
      return null; // og:image is the page's lead image; a JSON-LD image may be any picture of it
  }
}

/** Every object of a parsed JSON-LD value in document order (@graph, arrays, nested values), iteratively. */
function objectsOf(root: Json): { [key: string]: Json }[] {
  const out: { [key: string]: Json }[] = [];
  const stack: Json[] = [root];
  while (stack.length) {
    const v = stack.pop() as Json;
    if (Array.isArray(v)) {
      for (let k = v.length - 1; k >= 0; k--) stack.push(v[k] as Json);
    } else if (v && typeof v === "object") {
      out.push(v);
      const values = Object.values(v);
      for (let k = values.length - 1; k >= 0; k--) stack.push(values[k] as Json);
    }
  }
  return out;
}

/** Describes a work (an article, a post, a product page): its fields are the page's. */
function isWork(o: { [key: string]: Json }): boolean {
  return "author" in o || "datePublished" in o || "headline" in o;
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
  /** From JSON-LD objects that describe a work (isWork): preferred to other objects' fields. */
  private readonly fromWork: Partial<Record<Field, string>> = {};

  /** A <meta> tag's key (property, name or itemprop, lower-cased) and its content. */
  meta(key: string, content: string | undefined): void {
    if (!key || content === undefined || this.fromMeta.has(key)) return;
    // as a browser reads an attribute: "a&copy=b" stays
    const v = clean(decodeHTMLAttribute(content), key.includes("image") ? "image" : undefined);
    if (v !== null) this.fromMeta.set(key, v);
  }

  /** The body of a JSON-LD script. */
  jsonLd(body: string): void {
    let parsed: Json | undefined;
    if (body.length <= MAX_PARSED_LD_CHARS) {
      try {
        parsed = JSON.parse(body) as Json;
      } catch {
        parsed = undefined; // invalid JSON-LD is common: the regular expressions below
      }
    }
    if (parsed !== undefined) return this.fromObjects(objectsOf(parsed));
    for (const [field, rule] of LD_RULES) {
      if (this.fromLd[field] !== undefined) continue;
      const m = rule.exec(body);
      const raw = m?.[1] ?? m?.[2];
      const v = raw === undefined ? null : clean(decodeHTML(jsonText(raw)), field);
      if (v !== null) this.fromLd[field] = v;
    }
  }

  /** Fields of parsed JSON-LD: a work's fields (whichever block holds the work) before any other object's. */
  private fromObjects(objects: readonly { [key: string]: Json }[]): void {
    for (const o of objects) {
      const target = isWork(o) ? this.fromWork : this.fromLd;
      for (const field of LD_FIELDS) {
        if (target[field] !== undefined) continue;
        const raw = fieldOf(o, field);
        const v = raw === null ? null : clean(decodeHTML(raw), field);
        if (v !== null) target[field] = v;
      }
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
      out[field] = value ?? this.fromWork[field] ?? this.fromLd[field] ?? null;
    }
    return out;
  }
}
