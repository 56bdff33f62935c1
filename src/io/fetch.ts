/**
 * Fetching a URL input: the page's bytes (PageBytes) or an error record (stage "fetch") that says
 * what went wrong in words a user can act on.
 *
 * - One time limit covers the whole fetch: every redirect, the headers and the body.
 * - Redirects (301, 302, 303, 307, 308) are followed by hand, up to MAX_REDIRECTS, as browsers
 *   do; the page's URL is the last one, so its links resolve against the page actually read.
 *   A page that refreshes to another URL at once (`<meta http-equiv="refresh">`, a Refresh
 *   header: src/io/refresh.ts) is followed the same way, its hops counted with the redirects.
 *   fetch's own following would hide why it stopped ("redirect count exceeded" for a loop, "URL
 *   scheme must be a HTTP(S) scheme" for a redirect to file:), so a loop, too many redirects, a
 *   redirect to another scheme and one without a Location each get a reason of their own.
 * - A user name and password in the URL (`http://ann:secret@host/`) are sent as Basic
 *   authorization (as curl and wget do; fetch itself refuses such a URL), to that origin only:
 *   a redirect to another origin drops them, as browsers do. They are shown nowhere: the page's
 *   id, source and URL, its error records, outputs and --out file names use shownUrl().
 * - A status other than 2xx is an error record naming it, and so is 204 / 205 (no content); a
 *   failure before or during the answer says which (fetchErrorReason). A body over
 *   MAX_PAGE_BYTES is one too, and is not downloaded past the cap.
 * - The Content-Type decides how the body is read (src/io/content-type.ts): HTML, XML or none
 *   as HTML, XHTML as XML, text/plain and other text as plain text (decodePage shows it as a
 *   browser does); a stylesheet, a script or any other type (an image, a PDF) is refused before
 *   its body is read. Its charset parameter goes to decoding (src/io/decode.ts).
 */
import type { PageError, PageResult } from "../types.ts";
import { bodyKind, contentTypeCharset, mediaType } from "./content-type.ts";
import { MAX_PAGE_BYTES } from "./decode.ts";
import type { PageBytes } from "./page-bytes.ts";
import { readCapped, tooLarge } from "./read-capped.ts";
import { REFRESH_SCAN_CHARS, refreshTarget } from "./refresh.ts";
import { percentDecoded } from "../dom/urls.ts";

/** Time limit for fetching one URL (ms). */
export const FETCH_TIMEOUT_MS = 20_000;
export const FETCH_USER_AGENT = "pith/0.1 (+main-content extraction)";
/**
 * Redirects followed for one URL (Chromium and Firefox stop at 20 too, and so does fetch's own following).
 */
export const MAX_REDIRECTS = 20;
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Success statuses that say there is no content (a beacon, a form's target): no page to extract. */
const NO_CONTENT_STATUSES: ReadonlySet<number> = new Set([204, 205]);
/**
 * A URL's user name and password: everything up to the last @ of its
 * authority (up to the first /, ?, # or \).
 */
const USERINFO = /^(https?:\/\/)[^/?#\\]*@/i;

/**
 * An http(s) input as it is shown (page id, error records, outputs): as
 * given, less any user name and password.
 */
export function shownUrl(spec: string): string {
  return spec.replace(USERINFO, "$1");
}

/** A fetch that ends without a page, for a reason this file words (not an exception of fetch's own). */
class FetchFailure extends Error {
  override name = "FetchFailure";
}

function failed(url: string, reason: string): { ok: false; error: PageError } {
  return { ok: false, error: { id: url, source: url, stage: "fetch", reason } };
}

/** Fetches one URL input: its bytes and final URL, or the error record that says why not. */
export async function fetchBytes(spec: string, timeoutMs = FETCH_TIMEOUT_MS): Promise<PageResult<PageBytes>> {
  const url = shownUrl(spec);
  let res: Response | null = null;
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    const { start, authorization } = fetchTarget(spec);
    const hops = new Hops(start, authorization);
    for (;;) {
      res = await getFollowingRedirects(hops, signal);
      const noPage = noPageStatus(res);
      if (noPage) {
        await res.body?.cancel();
        return failed(url, noPage);
      }
      const type = res.headers.get("content-type") ?? "";
      const kind = bodyKind(type);
      if (!kind) {
        await res.body?.cancel();
        return failed(url, `not an HTML page (content-type ${mediaType(type)})`);
      }
      const bytes = await cappedBody(res);
      if (!bytes) return failed(url, tooLarge());
      const refresh =
        kind === "text"
          ? null
          : refreshTarget(
              headerOrNull(res, "refresh"),
              new TextDecoder().decode(bytes.subarray(0, REFRESH_SCAN_CHARS)),
              hops.url,
            );
      if (refresh) {
        hops.follow(refresh, "refreshes");
        res = null; // the next page's headers have not come yet (fetchErrorReason)
        continue;
      }
      const page: PageBytes = {
        id: url,
        source: url,
        url: hops.url.href,
        remote: true,
        charset: contentTypeCharset(type),
        bytes,
      };
      if (kind === "text") page.plainText = true;
      if (kind === "xhtml") page.xhtml = true;
      return { ok: true, value: page };
    }
  } catch (e) {
    return failed(url, fetchErrorReason(e, timeoutMs, res));
  }
}

/** A response's status line, "HTTP 404 Not Found" ("HTTP 404" when the server gave no reason phrase). */
function statusLine(res: Response): string {
  return `HTTP ${res.status} ${res.statusText}`.trim();
}

/** Why a response's status gives no page (an error status, or 204 / 205, which have no body), or null. */
function noPageStatus(res: Response): string | null {
  if (!res.ok) return statusLine(res);
  if (NO_CONTENT_STATUSES.has(res.status)) return `${statusLine(res)}: the server sent no page`;
  return null;
}

/**
 * The URL to GET, without its user name, password and fragment (a part of the page, not another
 * page), and the Basic authorization its user name and password make, if it has them.
 */
function fetchTarget(spec: string): { start: URL; authorization: string | null } {
  const start = new URL(spec);
  const credentials =
    start.username || start.password
      ? `${percentDecoded(start.username)}:${percentDecoded(start.password)}`
      : null;
  start.username = "";
  start.password = "";
  start.hash = "";
  return {
    start,
    authorization: credentials === null ? null : `Basic ${Buffer.from(credentials).toString("base64")}`,
  };
}

/**
 * The hops of one fetch, HTTP redirects and refreshes (src/io/refresh.ts) alike: at most
 * MAX_REDIRECTS, no URL twice, and the authorization only until a hop leaves the start's origin.
 */
class Hops {
  private readonly visited = new Set<string>();
  private count = 0;
  constructor(
    /** The URL the next request goes to. */
    public url: URL,
    public authorization: string | null,
  ) {}

  /** Moves on to `next` (how: "redirects", "refreshes"), or throws the FetchFailure that says why not. */
  follow(next: URL, how: string): void {
    if (next.origin !== this.url.origin) this.authorization = null;
    this.visited.add(this.url.href);
    if (this.visited.has(next.href))
      throw new FetchFailure(
        `redirect loop: ${this.url.href} ${how} back to ${next.href} ` +
          `(a site that sets a cookie and redirects may expect it back: pith keeps no cookies)`,
      );
    if (this.count === MAX_REDIRECTS)
      throw new FetchFailure(`more than ${MAX_REDIRECTS} redirects (the next was to ${next.href})`);
    this.count++;
    this.url = next;
  }
}

/**
 * GETs `hops.url`, following redirects (header) through `hops`: the
 * response that is not a redirect (its URL: hops.url).
 */
async function getFollowingRedirects(hops: Hops, signal: AbortSignal): Promise<Response> {
  for (;;) {
    const headers: Record<string, string> = {
      "user-agent": FETCH_USER_AGENT,
      ...(hops.authorization ? { authorization: hops.authorization } : {}),
    };
    const response = await fetch(hops.url, { signal, redirect: "manual", headers });
    if (!REDIRECT_STATUSES.has(response.status)) return response;
    await response.body?.cancel();
    hops.follow(redirectTarget(response, hops.url), "redirects");
  }
}

/** A response header as its sender meant it (headerText), or null when it is absent. */
function headerOrNull(res: Response, name: string): string | null {
  const value = res.headers.get(name);
  return value === null ? null : headerText(value);
}

/** Where a redirect response leads (its Location, relative to `from`), if that is an http(s) URL. */
function redirectTarget(response: Response, from: URL): URL {
  const location = response.headers.get("location");
  const status = statusLine(response);
  if (location === null) throw new FetchFailure(`${status} without a Location header to go to`);
  let next: URL;
  try {
    next = new URL(headerText(location), from);
  } catch {
    throw new FetchFailure(`${status} to a Location that is not a URL`);
  }
  if (next.protocol !== "http:" && next.protocol !== "https:")
    throw new FetchFailure(
      `redirected to a ${next.protocol} URL, which pith does not follow (only http and https)`,
    );
  next.username = ""; // credentials in a Location are not used, and not shown
  next.password = "";
  next.hash = "";
  return next;
}

/**
 * A header value as its sender meant it: fetch gives each byte as one character (latin-1), and a
 * Location with raw UTF-8 (`/café` sent unescaped, as many servers do) is UTF-8, as browsers read it.
 */
function headerText(value: string): string {
  if (!/[^\x00-\x7f]/.test(value)) return value;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(value, "latin1"));
  } catch {
    return value;
  }
}

/** Connection errors (an error's code) in words, each after "unreachable: ". */
const UNREACHABLE: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be looked up",
  EHOSTUNREACH: "no route to the host",
  ENETUNREACH: "no route to the host's network",
  ETIMEDOUT: "the connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
};
/**
 * Codes of zlib's errors (Z_DATA_ERROR, …) and brotli's (ERR__ERROR_FORMAT_…): a body whose
 * Content-Encoding does not decode.
 */
const DECODE_ERROR = /^(Z_|ERR__ERROR_|ERR_BROTLI|ERR_ZLIB)/;
/** Codes of TLS certificate errors (an expired, self-signed or misnamed certificate, an unknown issuer). */
const CERTIFICATE_ERROR = /CERT|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

/**
 * Why a fetch failed, in words: before any answer (unreachable: a refused connection, an unknown
 * host, a certificate not accepted, no answer within the time limit; or a server that closed
 * the connection, or answered with something that is not HTTP), or while the body came (the
 * time limit, a connection closed before the end, a Content-Encoding that does not decode).
 * `res` is the final response when its headers had come.
 */
function fetchErrorReason(e: unknown, timeoutMs: number, res: Response | null): string {
  if (e instanceof FetchFailure) return e.message;
  const err = e as Error & { code?: string; cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError")
    return res
      ? `the page was still arriving after ${timeoutMs} ms (the time limit)`
      : `unreachable: no answer within ${timeoutMs} ms`;
  if (err.code === "ERR_INVALID_URL" || err.cause?.code === "ERR_INVALID_URL") return "not a valid URL";
  const cause = err.cause ?? {};
  const code = cause.code ?? err.code ?? "";
  if (res && DECODE_ERROR.test(code))
    return `its ${res.headers.get("content-encoding")} body does not decode (${code})`;
  if (code === "UND_ERR_SOCKET" || code === "ECONNRESET")
    return res
      ? `the connection closed before the whole page came (${code})`
      : `the server closed the connection without an answer (${code})`;
  if (code === "UND_ERR_HEADERS_OVERFLOW")
    return (
      `the server's headers are larger than fetch accepts ` +
      `(${code}: 16 KB by default, node's --max-http-header-size)`
    );
  if (code.startsWith("HPE_"))
    return res ? `the body breaks HTTP (${code})` : `the server's answer is not HTTP (${code})`;
  if (UNREACHABLE[code]) return `unreachable: ${UNREACHABLE[code]} (${code})`;
  if (CERTIFICATE_ERROR.test(code))
    return `unreachable: its TLS certificate is not accepted (${code}: ${cause.message})`;
  if (cause.message === "bad port")
    return "unreachable: fetch does not connect to that port (the fetch standard blocks the ports of other protocols)";
  return `unreachable: ${code || cause.message || err.message}`;
}

/** A response's body, or null once it passes MAX_PAGE_BYTES (the rest is not downloaded). */
async function cappedBody(res: Response): Promise<Uint8Array | null> {
  if (Number(res.headers.get("content-length") ?? 0) > MAX_PAGE_BYTES) {
    await res.body?.cancel();
    return null;
  }
  return res.body ? readCapped(res.body as unknown as AsyncIterable<Uint8Array>) : new Uint8Array();
}
