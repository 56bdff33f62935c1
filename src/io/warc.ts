/**
 * WARC input (gzipped or not): every `response` record with an HTML payload becomes a page, and
 * every `resource` record of an HTML content type (a page stored without its HTTP exchange, as
 * archiving tools store local files and captured DOMs). Other records (requests, revisits,
 * metadata, warcinfo) are read past.
 *
 * A response's HTTP header is read by pith (readHttpHeader), not by warcio's parser: warcio looks
 * for the header's end (CRLF CRLF) in the file's stream after the status line, unbounded by the
 * record, so a header without fields (`HTTP/1.1 200 OK` and the blank line, as revisit records and
 * 204 responses hold) ended only at the next CRLF CRLF: the blank line and the first of the two
 * CRLFs that close the record, 2 bytes past its block. In a WARC gzipped per record the parser
 * then read the second CRLF as the first and skipped 2 more bytes, "WA" of the next record (its
 * header line read "RC/1.1"), and the rest of the WARC was one error (`not a WARC record
 * header`); uncompressed WARCs survived by luck (there the parser skips blank lines one by one).
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import {
  AsyncIterReader,
  concatChunks,
  LimitReader,
  StatusAndHeadersParser,
  WARCParser,
  type StatusAndHeaders,
  type WARCRecord,
} from "warcio";
import type { PageResult } from "../types.ts";
import { MAX_PAGE_BYTES } from "./decode.ts";
import { bodyKind, contentTypeCharset } from "./content-type.ts";
import type { PageBytes } from "./page-bytes.ts";

/** HTML and XHTML; a crawl's feeds and sitemaps (application/rss+xml, application/xml) are not pages. */
const HTML_CONTENT_TYPE = /html/i;
/** What may follow a WARC's last record: line ends, spaces, tabs, NUL padding. */
const BLANK_BYTES = new Set([0x0a, 0x0d, 0x20, 0x09, 0x00]);

/** A page of the WARC at `source` that could not be read. */
function readFailure(id: string, source: string, reason: string): PageResult<PageBytes> {
  return { ok: false, error: { id, source, stage: "read", reason } };
}

/** The page an HTML record holds: its id, the URL it was captured from, its content type. */
interface RecordPage {
  id: string;
  url: string | null;
  type: string;
}

/**
 * Page ids are `<name>#<n>`, n counting the HTML responses, with `name` the WARC's path as given
 * (relative to the directory when the WARC was found by walking one, as page files are).
 * `skip` (ReadOptions.skip) is asked with each HTML record's id before its payload is read.
 */
export async function* readWarc(
  path: string,
  skip?: (id: string) => boolean | Promise<boolean>,
  name = path,
): AsyncGenerator<PageResult<PageBytes>> {
  let n = 0;
  let records = 0;
  try {
    const parser = new WARCParser(createReadStream(path), { parseHttp: false });
    /** The page a record holds (an HTML response or resource, not skipped by the caller), or null. */
    const pageOf = async (record: WARCRecord): Promise<RecordPage | null> => {
      if (record.warcType !== "response" && record.warcType !== "resource") return null;
      if (record.warcType === "response") record.httpHeaders = await readHttpHeader(record);
      const type =
        (record.warcType === "response"
          ? record.httpHeaders?.headers.get("content-type")
          : record.warcContentType) ?? "";
      if (!HTML_CONTENT_TYPE.test(type)) return null;
      const id = `${name}#${++n}`;
      return (await skip?.(id)) ? null : { id, url: record.warcTargetURI ?? null, type };
    };
    for await (const record of parser) {
      if (!record.warcHeaders?.protocol?.startsWith("WARC/")) throw new Error("not a WARC record header");
      records++;
      const page = await pageOf(record);
      if (!page) {
        if ((await drain(record)).cut) {
          yield readFailure(`${name}#${n + 1}`, path, cutShort(records, record.warcContentLength));
          return;
        }
        continue;
      }
      yield await readPage(record, page, { path, records, n });
    }
    const rest = await unreadTail(path, parser.offset);
    if (records > 0 && rest)
      throw new Error(
        `truncated or corrupt after record ${records}: ${rest} byte(s) from offset ${parser.offset} ` +
          `hold no whole record`,
      );
  } catch (e) {
    yield readFailure(`${name}#${n + 1}`, path, `bad WARC: ${(e as Error).message}`);
    return;
  }
  if (records === 0) yield readFailure(name, path, "bad WARC: no records found");
  else if (n === 0)
    yield readFailure(
      name,
      path,
      `no HTML pages in this WARC: none of its ${records} record(s) is a response or resource ` +
        `with an HTML content type`,
    );
}

/** Where in its WARC a record is: the WARC's path, records read so far, HTML pages counted so far. */
interface RecordPlace {
  path: string;
  records: number;
  n: number;
}

/** Reads an HTML record's page: its bytes, or why they cannot be read (too large, cut short). */
async function readPage(
  record: WARCRecord,
  page: RecordPage,
  at: RecordPlace,
): Promise<PageResult<PageBytes>> {
  const { path, records, n } = at;
  const { id, url, type } = page;
  if (Number(record.warcContentLength) > MAX_PAGE_BYTES) {
    // not read into memory; decode.ts would refuse it anyway
    await drain(record);
    return readFailure(
      id,
      path,
      `page is larger than ${MAX_PAGE_BYTES} bytes (a ${record.warcContentLength}-byte WARC record)`,
    );
  }
  const raw = await record.readFully(false); // the record's own bytes first: were they all there?
  if (isCut(record.reader)) {
    // the file, or (gzipped) the record's gzip member, ends before
    // its Content-Length: the page is partial
    return readFailure(id, path, cutShort(records, record.warcContentLength, raw.length));
  }
  // then decoded (chunked, gzip content encoding) from those bytes
  const bytes = await record.readFully(true);
  const value: PageBytes = {
    id,
    source: `${path}#${url ?? n}`,
    url,
    remote: false,
    charset: contentTypeCharset(type),
    bytes,
  };
  if (bodyKind(type) === "xhtml") value.xhtml = true;
  const recordId = record.warcHeader("WARC-Record-ID");
  if (recordId) value.record = { id: recordId, date: record.warcDate ?? null };
  return { ok: true, value };
}

/**
 * Why a record is cut short: the file ends before its Content-Length (`read`: bytes there were, when known).
 */
function cutShort(record: number, declared: number, read?: number): string {
  const count = read === undefined ? "fewer than" : `${read} of more than`;
  return `bad WARC: record ${record} is cut short (${count} ${declared} bytes)`;
}

/**
 * Reads a record's payload to its end without keeping it. warcio's own skip, which its parser
 * runs on a record nobody read, never returns on a record cut short by the end of the file (it
 * retries a read that keeps returning nothing: a truncated crawl hung a batch at 100 % CPU);
 * iterating the payload stops at the end of the file. `cut`: the file (or, gzipped, the
 * record's gzip member) ended before the record's Content-Length.
 */
async function drain(record: WARCRecord): Promise<{ cut: boolean }> {
  const reader = record.reader;
  for await (const chunk of reader) void chunk;
  record.consumed = "skipped";
  return { cut: isCut(reader) };
}

/** Longest HTTP header read (status line and fields); servers refuse far shorter ones (8-64 KiB). */
const MAX_HTTP_HEADER_BYTES = 1024 * 1024;

/**
 * A response record's HTTP header (status line and fields, up to and with the blank line that ends
 * them), read line by line from the record's own block, so never past it; the record's reader is
 * left at the payload, as warcio's parser leaves it. The lines are parsed by warcio's header
 * parser (folded lines, latin-1 values). Null when the block is not an HTTP header (it begins with
 * a blank line, is empty, or runs past MAX_HTTP_HEADER_BYTES without a blank line): the record
 * then has no content type and is not a page.
 */
async function readHttpHeader(record: WARCRecord): Promise<StatusAndHeaders | null> {
  const reader = record.reader;
  if (!(reader instanceof LimitReader)) return null; // warcio's parser gives every record one
  const lines: Uint8Array[] = [];
  let size = 0;
  const next = () => reader.readlineRaw(MAX_HTTP_HEADER_BYTES + 1 - size); // a line never runs past the cap
  for (let line = await next(); line; line = await next()) {
    lines.push(line);
    size += line.length;
    if (isBlankLine(line)) break;
    if (size > MAX_HTTP_HEADER_BYTES) return null; // no HTTP header: the block is something else
  }
  if (lines.length === 0) return null;
  const header = new AsyncIterReader([concatChunks(lines, size)], null);
  return new StatusAndHeadersParser().parse(header, { headersClass: Headers });
}

/** A line holding only its line end (CRLF, or LF as lenient readers accept). */
function isBlankLine(line: Uint8Array): boolean {
  return (
    (line.length === 2 && line[0] === 0x0d && line[1] === 0x0a) || (line.length === 1 && line[0] === 0x0a)
  );
}

/** Whether a record's reader, read to its end, stopped before the record's Content-Length. */
function isCut(reader: WARCRecord["reader"]): boolean {
  return reader instanceof LimitReader && reader.limit > 0;
}

/**
 * Bytes after `offset` that the parser did not read as a record: a WARC cut short (a crawl
 * stopped mid-write, a partial download) ends its parse quietly after the last whole record, so
 * without this check the records it lost went unreported. Trailing whitespace does not count.
 */
async function unreadTail(path: string, offset: number): Promise<number> {
  const file = await open(path);
  try {
    const size = (await file.stat()).size;
    if (offset >= size) return 0;
    const rest = size - offset;
    const probe = Buffer.alloc(Math.min(rest, 65_536));
    const { bytesRead } = await file.read(probe, 0, probe.length, offset);
    const blank = bytesRead === rest && probe.every((b) => BLANK_BYTES.has(b));
    return blank ? 0 : rest;
  } finally {
    await file.close();
  }
}
