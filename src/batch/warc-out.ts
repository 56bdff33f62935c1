/**
 * The records of `--out-format warc` (batch-files.ts), laid out as Common Crawl's WET files are
 * (WARC/1.0, each record its own gzip member, so a reader can seek to any record): a `warcinfo`
 * record first, then one `conversion` record per page whose block is the page's output exactly
 * as `--out-format files` writes it (`--format text`: `text/plain`; `markdown`: `text/markdown`;
 * `html`: `text/html`), with the source's `WARC-Target-URI`, and for a page read from a WARC
 * `WARC-Refers-To` its record's WARC-Record-ID and `WARC-Date` its capture date. A page that
 * failed is a `metadata` record (`application/warc-fields`: `page` (its id), `error-stage`,
 * `error-reason`) that names it, never a conversion record, so a WET reader sees only pages.
 *
 * Records are built and serialized by warcio (WARCRecord, WARCSerializer: Content-Length, header
 * layout); the block digest (`sha1:` and base32, as WET files give it) is computed here with
 * node:crypto, since warcio's own digest starts a WebAssembly hasher per record (0.35 against
 * 0.05 ms a record, measured on 3.6 kB blocks). The record id is derived from the source and the
 * block, so the same page converted the same way gets the same id in a retried run.
 */
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { WARCType } from "warcio";
import type { WarcRecordRef } from "../io/page-bytes.ts";
import type { Format } from "../output/index.ts";
import type { PageError } from "../types.ts";

const gzipped = promisify(gzip);

/** The version Common Crawl's WET files are written in (WET readers expect it; 1.1 adds sub-second dates). */
export const WARC_VERSION = "WARC/1.0";

/** The conversion record's Content-Type for each format it holds (JSON goes to --out-format jsonl). */
export const WARC_CONTENT_TYPE: Partial<Record<Format, string>> = {
  text: "text/plain",
  markdown: "text/markdown",
  html: "text/html",
};

/** Where a page came from, as its records name it. */
export interface PageOrigin {
  /** The page's URL when known (a URL input, a WARC record's target), else null. */
  url: string | null;
  /** The input it was read from (a path, a URL, `-`). */
  source: string;
  /** The WARC record it was read from. */
  record?: WarcRecordRef;
}

/** The `warcinfo` record that opens a file: its name and what made it. */
export function warcinfoRecord(filename: string, info: Record<string, string>): Promise<Uint8Array> {
  const block = Object.entries(info)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return record("warcinfo", { "WARC-Filename": filename, "Content-Type": "application/warc-fields" }, block);
}

/** The `conversion` record of a page: its output as the block. */
export function conversionRecord(
  origin: PageOrigin,
  contentType: string,
  block: string,
): Promise<Uint8Array> {
  return record("conversion", { ...sourceHeaders(origin), "Content-Type": contentType }, block);
}

/** The `metadata` record of a page that failed: the stage and reason of its error record. */
export function errorRecord(origin: PageOrigin, error: PageError): Promise<Uint8Array> {
  const block = [`page: ${error.id}`, `error-stage: ${error.stage}`, `error-reason: ${error.reason}`]
    .map((field) => `${fieldValue(field)}\r\n`)
    .join("");
  return record("metadata", { ...sourceHeaders(origin), "Content-Type": "application/warc-fields" }, block);
}

/** The headers that name a page's source: its URI, the record it came from and when that was captured. */
function sourceHeaders(origin: PageOrigin): Record<string, string> {
  const headers: Record<string, string> = { "WARC-Target-URI": targetUri(origin) };
  if (origin.record) {
    headers["WARC-Refers-To"] = origin.record.id;
    if (origin.record.date) headers["WARC-Date"] = origin.record.date;
  }
  return headers;
}

/** The page's URL; a local file's `file:` URL; `-` (stdin) as `urn:pith:stdin`. */
function targetUri(origin: PageOrigin): string {
  if (origin.url) return origin.url;
  if (origin.source === "-") return "urn:pith:stdin";
  return pathToFileURL(origin.source).href;
}

/** A WARC field value on one line (an error reason is one line already; this keeps it so). */
function fieldValue(text: string): string {
  return text.replace(/[\r\n]+/g, " ");
}

/** One record, serialized by warcio and gzipped as a member of its own. */
async function record(type: WARCType, headers: Record<string, string>, block: string): Promise<Uint8Array> {
  const bytes = Buffer.from(block, "utf8");
  const digest = `sha1:${base32(createHash("sha1").update(bytes).digest())}`;
  const { "WARC-Date": date, "Content-Type": contentType = "", ...source } = headers;
  // in the order WET files give them (warcio sets WARC-Type and WARC-Date in their places)
  const warcHeaders: Record<string, string> = {
    "WARC-Type": type,
    ...source,
    "WARC-Date": "",
    "WARC-Record-ID": recordId(type, headers, digest),
    "WARC-Block-Digest": digest,
    // a conversion's block is its payload (warcio would otherwise hash it again)
    ...(type === "warcinfo" ? {} : { "WARC-Payload-Digest": digest }),
    "Content-Type": contentType,
  };
  // warcio is imported with the first record: loading it costs 50 ms, and most batches write no WARC
  const { WARCRecord, WARCSerializer } = await import("warcio");
  const made = WARCRecord.create(
    { type, warcVersion: WARC_VERSION, warcHeaders, ...(date ? { date } : {}) },
    [bytes],
  );
  return gzipped(await WARCSerializer.serialize(made));
}

/**
 * A name-based UUID (RFC 4122 version 5 layout) of the record's type, source and block: equal
 * for the same page converted the same way, distinct for anything else.
 */
function recordId(type: WARCType, headers: Record<string, string>, digest: string): string {
  const name = [
    type,
    headers["WARC-Target-URI"],
    headers["WARC-Refers-To"],
    headers["WARC-Filename"],
    digest,
  ];
  const hash = createHash("sha1").update(name.join("\n")).digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `<urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}>`;
}

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding (a SHA-1 digest's 20 bytes are 32 characters, none needed). */
function base32(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}
