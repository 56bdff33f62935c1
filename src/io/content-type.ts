/**
 * What an HTTP Content-Type says about a body (a fetched URL's, a WARC response's): how to read
 * it, and its charset. A browser parses text/html as HTML, application/xhtml+xml as XML whatever
 * the document's first line, and shows text/plain as text; pith reads each the same way.
 */

/** How a body is read: HTML, XHTML (XML), plain text; null: it is no page. */
export type BodyKind = "html" | "xhtml" | "text" | null;

/** Media types read as HTML: HTML, XML, or none declared (a browser sniffs those as HTML). */
const HTML_TYPE = /^(|text\/html|(application|text)\/xml|application\/[\w.+-]+\+xml)$/;
const XHTML_TYPE = "application/xhtml+xml";
/** Text types of a page's resources, never a page: stylesheets and scripts. */
const RESOURCE_TEXT_TYPE = /^text\/(css|javascript|ecmascript|x-javascript|x-ecmascript|jscript|livescript)$/;
/** A Content-Type's charset parameter, quoted or not: `charset=utf-8`, `charset="windows-1251"`. */
const CHARSET_PARAMETER = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]+))/i;

/** A Content-Type's media type, without parameters, in lower case ("" when there is none). */
export function mediaType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

/** How a body of this Content-Type is read (any text type but a stylesheet or a script is plain text). */
export function bodyKind(contentType: string): BodyKind {
  const type = mediaType(contentType);
  if (type === XHTML_TYPE) return "xhtml";
  if (HTML_TYPE.test(type)) return "html";
  if (type.startsWith("text/") && !RESOURCE_TEXT_TYPE.test(type)) return "text";
  return null;
}

/** The charset a Content-Type declares, without quotes, or null. */
export function contentTypeCharset(contentType: string): string | null {
  const m = CHARSET_PARAMETER.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}
