/**
 * Bytes → HTML text. The order follows the WHATWG encoding sniffing algorithm, simplified:
 *   1. gzip magic (1f 8b) → gunzip first (datasets store pages as .html.gz);
 *   2. a byte-order mark decides (UTF-8, UTF-16 LE/BE); without one, UTF-16 is told by its NUL
 *      bytes: mostly-ASCII markup in UTF-16 LE has a NUL in nearly every odd byte and in no even
 *      one (BE the reverse), a pattern no binary format or 8-bit text has over kilobytes
 *      (browsers would show such a file as mojibake; pith reads it);
 *   3. a declared charset (HTTP Content-Type given by the caller, unless it names no encoding
 *      iconv-lite knows, then <meta charset> /
 *      <meta http-equiv content="…charset=…"> in the first PRESCAN_BYTES bytes, then an XML
 *      declaration's encoding, `<?xml version="1.0" encoding="windows-1251"?>`, at the start);
 *   4. bytes that are valid UTF-8 are UTF-8;
 *   5. otherwise Thai (TIS-620 / windows-874) when the bytes read as Thai spelling (thai.ts:
 *      chardet scores Thai below the Korean, Chinese and Japanese encodings whose byte range
 *      Thai fills, so undeclared Thai came out as EUC-KR or windows-1252 mojibake), then
 *      chardet's statistical detection, when it is confident enough or its guess clearly leads
 *      the others (MIN_DETECT_CONFIDENCE, DETECT_LEAD); both look at the first DETECT_BYTES;
 *   6. fallback: windows-1252 (the web's de-facto default for undeclared legacy pages).
 * A declared charset that contradicts valid multi-byte UTF-8 loses to UTF-8: mislabelled
 * pages are far more common than genuine legacy pages that happen to be valid UTF-8. The reverse
 * too: a page declared UTF-8 whose non-ASCII bytes are mostly not UTF-8 (a latin-1 page under
 * a template's `<meta charset=utf-8>`: "Über die Straße" read as "�ber die Stra�e") is
 * decoded by steps 5-6; one with a few broken sequences among valid ones stays UTF-8.
 * Binary input (NUL bytes in the first kilobytes) is refused with a clear error.
 */
import buffer from "node:buffer";
import { constants as zlib, gunzipSync } from "node:zlib";
import chardet from "chardet";
import iconv from "iconv-lite";
import { looksThai } from "./thai.ts";

/** How far into the document <meta charset> is looked for (HTML spec: 1024; real pages need more). */
const PRESCAN_BYTES = 8192;
/** Share of NUL bytes in the first BINARY_PROBE_BYTES above which the input is binary. */
const BINARY_NUL_SHARE = 0.01;
/** Share of C0 control bytes other than tab, LF, FF, CR and ESC above which the input is binary. */
const BINARY_CONTROL_SHARE = 0.05;
const BINARY_PROBE_BYTES = 4096;
/** How much of the page encoding detection (step 5) looks at. */
const DETECT_BYTES = 65536;
/** chardet confidence (0..100) at which its guess is trusted outright. */
const MIN_DETECT_CONFIDENCE = 30;
/**
 * A lower confidence is trusted when the guess leads the runner-up by DETECT_LEAD times. chardet's
 * single-byte Cyrillic models report low figures on plain Cyrillic text: 17-32 for Russian,
 * Ukrainian and Bulgarian sentences in windows-1251, KOI8-R and ISO-8859-5 (runner-up 1-14), so
 * an undeclared Russian page fell back to windows-1252 ("Ïîãîäà â Ìîñêâå"); Latin-1 text in
 * German, French, Spanish, Portuguese and English gets 37-98 (checked with chardet 2.x).
 */
const MIN_LEADING_CONFIDENCE = 15;
const DETECT_LEAD = 1.5;
/** Largest page pith accepts after decompression (bytes). */
export const MAX_PAGE_BYTES = 64 * 1024 * 1024;

export class DecodeError extends Error {
  override name = "DecodeError";
}

export interface Decoded {
  html: string;
  /** e.g. "utf-8 (bom)", "shift_jis (meta)", "windows-1252 (fallback)". */
  encoding: string;
  /** What was wrong with the bytes but did not stop the page (a truncated gzip, leading NULs). */
  warnings?: string[];
}

/** Bounds of the output buffer size gunzipPage asks zlib for (zlib's own default is the lower one). */
const MIN_GUNZIP_CHUNK = 16 * 1024;
const MAX_GUNZIP_CHUNK = 8 * 1024 * 1024;

/**
 * The output buffer size for gunzipping `bytes`: the size the gzip trailer states (ISIZE, the
 * last four bytes: the uncompressed length modulo 2^32), plus one byte so that the whole page
 * fits in one buffer with room left, which is how zlib knows it is done. With zlib's default
 * 16 KB, a page came out in ~15 buffers joined by a copy; in one, gunzipping the 500 pages of a
 * wcxb-dev batch took 118 ms instead of 150 (docs/render.md). Only a hint: a wrong trailer (a
 * truncated download) costs buffers or memory, bounded, never bytes.
 */
function gunzipChunkSize(bytes: Uint8Array): number {
  const n = bytes.length;
  if (n < 4) return MIN_GUNZIP_CHUNK;
  const stated = Buffer.from(bytes.buffer, bytes.byteOffset + n - 4, 4).readUInt32LE(0);
  return Math.min(MAX_GUNZIP_CHUNK, Math.max(MIN_GUNZIP_CHUNK, stated + 1));
}

/**
 * Gunzips page bytes under the page cap. A stream cut short (a download that stopped) gives what
 * arrived, with a warning; data that expands past the cap (a gzip bomb) is refused in words.
 */
function gunzipPage(bytes: Uint8Array, warnings: string[]): Uint8Array {
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_PAGE_BYTES, chunkSize: gunzipChunkSize(bytes) });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ERR_BUFFER_TOO_LARGE")
      throw new DecodeError(`gzip data expands past the ${MAX_PAGE_BYTES / 1024 / 1024} MB cap`);
    if (code !== "Z_BUF_ERROR") throw new DecodeError(`corrupt gzip data: ${(e as Error).message}`);
  }
  // truncated: what the stream holds up to its cut (a sync flush does not ask for the trailer)
  const partial = gunzipSync(bytes, { maxOutputLength: MAX_PAGE_BYTES, finishFlush: zlib.Z_SYNC_FLUSH });
  warnings.push(`gzip data is truncated: extracted from the ${partial.length} bytes that arrived`);
  return partial;
}

/**
 * The bytes after a run of NUL bytes at the start (padding from a broken download or a
 * preallocated file), when the rest is no binary data; null when there is no such run.
 */
function afterLeadingNuls(bytes: Uint8Array): Uint8Array | null {
  let k = 0;
  while (k < bytes.length && bytes[k] === 0) k++;
  if (k === 0 || k === bytes.length) return null;
  const rest = bytes.subarray(k);
  return looksBinary(rest) ? null : rest;
}

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)/i;
/** An XML declaration's encoding at the document's start (XHTML e-book chapters carry theirs there). */
const XML_ENCODING = /^\s*<\?xml[^>]{0,200}?\bencoding\s*=\s*["']([a-zA-Z0-9_:.\-]+)["']/;

/** gzip's magic bytes (1f 8b) at the start. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_PROBE_BYTES);
  if (n === 0) return false;
  // UTF-16 text has many NULs: it is recognised (BOM or NUL pattern) before this check.
  let nul = 0;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === 0) nul++;
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d && b !== 0x1b) || b === 0x7f)
      control++;
  }
  return nul / n > BINARY_NUL_SHARE || control / n > BINARY_CONTROL_SHARE;
}

function bomEncoding(bytes: Uint8Array): string | null {
  if (startsWithUtf8Bom(bytes)) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

/** Share of a UTF-16 text's high bytes that are NUL (ASCII markup) / of its low bytes at most. */
const UTF16_HIGH_NUL_SHARE = 0.5;
const UTF16_LOW_NUL_SHARE = 0.02;
const UTF16_MIN_BYTES = 16;

/** UTF-16 without a byte-order mark, from where its NUL bytes fall (header, step 2). */
function utf16ByNuls(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const n = Math.min(bytes.length, BINARY_PROBE_BYTES) & ~1;
  if (n < UTF16_MIN_BYTES) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  const pairs = n / 2;
  if (odd >= UTF16_HIGH_NUL_SHARE * pairs && even <= UTF16_LOW_NUL_SHARE * pairs) return "utf-16le";
  if (even >= UTF16_HIGH_NUL_SHARE * pairs && odd <= UTF16_LOW_NUL_SHARE * pairs) return "utf-16be";
  return null;
}

function declaredCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, PRESCAN_BYTES)).toString("latin1");
  const m = META_CHARSET.exec(head) ?? XML_ENCODING.exec(head);
  return m?.[1] ? normaliseLabel(m[1]) : null;
}

function normaliseLabel(label: string): string {
  const l = label.trim().toLowerCase();
  // The WHATWG encoding standard maps these labels to windows-1252.
  if (l === "iso-8859-1" || l === "latin1" || l === "us-ascii" || l === "ascii") return "windows-1252";
  return l;
}

/**
 * An HTTP charset label if it names an encoding pith can decode; an unknown one is passed over
 * (WHATWG), so <meta> decides.
 */
function knownLabel(label: string | null | undefined): string | null {
  if (!label) return null;
  const l = normaliseLabel(label);
  return iconv.encodingExists(l) ? l : null;
}

const utf8Strict = new TextDecoder("utf-8", { fatal: true });
/**
 * Above this size TextDecoder decodes (straight into the string): transcode's UTF-16 copy would
 * add twice the page's size to the memory peak of a huge page.
 */
const MAX_TRANSCODE_BYTES = 8 * 1024 * 1024;

/**
 * The text of `bytes` if they are valid UTF-8, else null (TextDecoder's fatal mode, which also
 * drops a leading byte-order mark). Valid non-ASCII bytes are converted by ICU (`transcode`, in
 * Node builds with Intl) and copied into the string as UTF-16: V8's UTF-8 decoder, behind
 * TextDecoder and Buffer#toString alike, took a third more CPU (docs/render.md). `isUtf8` accepts
 * exactly what the fatal decoder does (no overlong forms, surrogates or code points past U+10FFFF).
 * Pure ASCII, a leading byte-order mark, a huge page (MAX_TRANSCODE_BYTES) and Node builds
 * without Intl go to TextDecoder.
 */
function decodeUtf8Strict(bytes: Uint8Array): string | null {
  if (
    buffer.transcode === undefined ||
    bytes.length > MAX_TRANSCODE_BYTES ||
    startsWithUtf8Bom(bytes) ||
    buffer.isAscii(bytes)
  ) {
    try {
      return utf8Strict.decode(bytes);
    } catch {
      return null;
    }
  }
  if (!buffer.isUtf8(bytes)) return null;
  return buffer.transcode(bytes, "utf8", "utf16le").toString("utf16le");
}

function startsWithUtf8Bom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

function decodeWith(bytes: Uint8Array, encoding: string): string | null {
  if (!iconv.encodingExists(encoding)) return null;
  return iconv.decode(Buffer.from(bytes), encoding);
}

function detect(bytes: Uint8Array): string | null {
  const head = bytes.subarray(0, DETECT_BYTES);
  if (looksThai(head)) return "windows-874";
  const guesses = chardet.analyse(head);
  const best = guesses[0];
  if (!best) return null;
  const runnerUp = guesses[1]?.confidence ?? 0;
  const leads = best.confidence >= MIN_LEADING_CONFIDENCE && best.confidence >= DETECT_LEAD * runnerUp;
  return best.confidence >= MIN_DETECT_CONFIDENCE || leads ? normaliseLabel(best.name) : null;
}

function isUtf8Label(label: string): boolean {
  return label === "utf-8" || label === "utf8";
}

/** Above this share of U+FFFD among the non-ASCII characters, bytes declared UTF-8 are not UTF-8. */
const MAX_BROKEN_UTF8_SHARE = 0.5;
const utf8Lenient = new TextDecoder("utf-8");

/** Whether most non-ASCII characters of `bytes` read as UTF-8 come out as U+FFFD (broken sequences). */
function mostlyNotUtf8(bytes: Uint8Array): boolean {
  const text = utf8Lenient.decode(bytes);
  let nonAscii = 0;
  let broken = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x7f) continue;
    nonAscii++;
    if (c === 0xfffd) broken++;
  }
  return nonAscii > 0 && broken / nonAscii > MAX_BROKEN_UTF8_SHARE;
}

/** Decode page bytes to text following the rules in this file's header. */
export function decodeHtml(input: Uint8Array, httpCharset?: string | null): Decoded {
  const warnings: string[] = [];
  const decoded = decodeBytes(isGzip(input) ? gunzipPage(input, warnings) : input, httpCharset, warnings);
  return warnings.length ? { ...decoded, warnings } : decoded;
}

/** decodeHtml on bytes already gunzipped. */
function decodeBytes(input: Uint8Array, httpCharset: string | null | undefined, warnings: string[]): Decoded {
  let bytes = input;
  if (bytes.length > MAX_PAGE_BYTES) throw new DecodeError(`page is larger than ${MAX_PAGE_BYTES} bytes`);
  const bom = bomEncoding(bytes);
  if (bom) {
    const skip = bom === "utf-8" ? 3 : 2;
    return { html: decodeWith(bytes.subarray(skip), bom) ?? "", encoding: `${bom} (bom)` };
  }
  const utf16 = utf16ByNuls(bytes);
  if (utf16) return { html: decodeWith(bytes, utf16) ?? "", encoding: `${utf16} (no bom)` };
  if (looksBinary(bytes)) {
    const rest = afterLeadingNuls(bytes);
    if (!rest) throw new DecodeError("binary data, not an HTML page");
    warnings.push(`skipped ${bytes.length - rest.length} NUL bytes before the markup`);
    bytes = rest;
  }
  const utf8 = decodeUtf8Strict(bytes);
  const http = knownLabel(httpCharset);
  const declared = http ?? declaredCharset(bytes);
  if (
    utf8 !== null &&
    (declared === null || declared === "utf-8" || declared === "utf8" || !buffer.isAscii(bytes))
  ) {
    return {
      html: utf8,
      encoding:
        declared && declared !== "utf-8" && declared !== "utf8"
          ? "utf-8 (valid, overrides declared)"
          : "utf-8",
    };
  }
  if (declared && !(utf8 === null && isUtf8Label(declared) && mostlyNotUtf8(bytes))) {
    const text = decodeWith(bytes, declared);
    if (text !== null) return { html: text, encoding: `${declared} (${http ? "http" : "meta"})` };
  }
  if (utf8 !== null) return { html: utf8, encoding: "utf-8" };
  const guessed = detect(bytes);
  if (guessed) {
    const text = decodeWith(bytes, guessed);
    if (text !== null) return { html: text, encoding: `${guessed} (detected)` };
  }
  return { html: iconv.decode(Buffer.from(bytes), "windows-1252"), encoding: "windows-1252 (fallback)" };
}
