/**
 * Input resolution: a path, directory, URL, WARC file or "-" (stdin) → a stream of PageInput
 * results. Every failure becomes a PageError record for that page; a batch never stops on one.
 * Reading and decoding are two steps: readRawInputs gives each page's bytes as read (PageBytes),
 * decodePage turns them into text, so a batch on worker threads decodes there (src/batch/extract-pool.ts).
 * A URL is fetched by src/io/fetch.ts.
 */
import { createReadStream, readFileSync, statSync, type Stats } from "node:fs";
import { fileURLToPath } from "node:url";
import { readdir, realpath, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { join, relative, resolve } from "node:path";
import { firstLine } from "../errors.ts";
import type { PageError, PageInput, PageResult } from "../types.ts";
import type { PageBytes } from "./page-bytes.ts";
import { DecodeError, decodeHtml, MAX_PAGE_BYTES } from "./decode.ts";
import { FETCH_TIMEOUT_MS, fetchBytes, shownUrl } from "./fetch.ts";
import { readCapped, tooLarge } from "./read-capped.ts";
import { escapeText } from "../dom/escape.ts";

/** File names treated as HTML pages when a directory is walked. */
export const PAGE_FILE = /\.(x?html?|xht)(\.gz)?$/i;
export const WARC_FILE = /\.warc(\.gz)?$/i;

export function isUrl(spec: string): boolean {
  return /^https?:\/\//i.test(spec);
}

/**
 * The file a non-http(s) input names: a path as given, or a `file://` URL's path (lists written
 * by other tools often hold those); another scheme (ftp://, s3://) is an error.
 */
export function localPath(spec: string): string | { error: string } {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(spec)?.[1];
  if (scheme === undefined) return spec;
  if (scheme.toLowerCase() !== "file")
    return {
      error:
        `unsupported URL scheme ${scheme}: pith reads http(s) and file URLs, files, directories, ` +
        "WARCs and - (stdin)",
    };
  try {
    return fileURLToPath(spec);
  } catch (e) {
    return { error: `bad file URL: ${(e as Error).message}` };
  }
}

function fail(id: string, source: string, stage: string, reason: string): { ok: false; error: PageError } {
  return { ok: false, error: { id, source, stage, reason } };
}

/** Why a file could not be read, in a few words ("no such file", "permission denied", …). */
export function readErrorReason(e: unknown): string {
  if (e instanceof DecodeError) return e.message;
  const err = e as NodeJS.ErrnoException;
  // a directory entry whose name is not valid UTF-8 comes back from
  // readdir with U+FFFD in it, and no file has that name
  if (err?.code === "ENOENT")
    return typeof err.path === "string" && err.path.includes("\uFFFD")
      ? "no such file (its name is not valid UTF-8, which pith cannot open: rename it)"
      : "no such file";
  if (err?.code === "EACCES") return "permission denied";
  if (err?.code === "EISDIR") return "is a directory";
  if (err?.code === "ENAMETOOLONG") return "path too long for the operating system";
  return firstLine(e);
}

/** Decodes read bytes into a PageInput (or a "decode" error record). */
export function decodePage(raw: PageBytes): PageResult<PageInput> {
  return pageFromBytes(raw.bytes, raw);
}

/** Decode bytes into a PageInput (or an error record). */
export function pageFromBytes(
  bytes: Uint8Array,
  meta: {
    id: string;
    source: string;
    url: string | null;
    remote: boolean;
    charset?: string | null;
    plainText?: boolean;
    xhtml?: boolean;
  },
): PageResult<PageInput> {
  try {
    const { html: text, encoding, warnings } = decodeHtml(bytes, meta.charset ?? null);
    const html = meta.plainText ? plainTextPage(text) : text;
    const page: PageInput = {
      id: meta.id,
      source: meta.source,
      url: meta.url,
      html,
      encoding,
      remote: meta.remote,
    };
    if (meta.xhtml) page.xhtml = true;
    if (warnings) page.warnings = warnings;
    return { ok: true, value: page };
  } catch (e) {
    return fail(meta.id, meta.source, "decode", readErrorReason(e));
  }
}

/**
 * The start of an HTML document (comments, then a doctype or an <html>
 * tag), which a server may still label text/plain.
 */
const HTML_DOCUMENT_START = /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html[\s>])/i;

/**
 * Plain text as the document a browser makes of it: the text in a <pre>, escaped, its lines and
 * spaces kept (the newline after <pre> is the one the HTML parser drops, so a first blank line
 * stays). Text that starts as an HTML document does is a mislabelled page and stays markup.
 */
export function plainTextPage(text: string): string {
  if (HTML_DOCUMENT_START.test(text)) return text;
  return `<!DOCTYPE html><pre>\n${escapeText(text)}</pre>`;
}

/** The decoded page, or its error record; `decodePage` of `raw` when it was read. */
function decoded(raw: PageResult<PageBytes>): PageResult<PageInput> {
  return raw.ok ? decodePage(raw.value) : raw;
}

export async function readPageFile(
  path: string,
  id = path,
  url: string | null = null,
): Promise<PageResult<PageInput>> {
  return decoded(await readPageBytes(path, id, url));
}

/**
 * A page file's bytes. A regular file is read with synchronous calls: on a local disk they take
 * microseconds, and fs/promises sends each of stat, open, fstat, read and close to the thread
 * pool and back, which cost 3× the CPU (a batch of 500 pages on one core: 47 ms against 15).
 */
async function readPageBytes(path: string, id: string, url: string | null): Promise<PageResult<PageBytes>> {
  try {
    const info = statSync(path);
    let bytes: Uint8Array | null;
    if (info.isFile()) {
      // refused before it is read, not after it fills the memory (a
      // smaller .gz is capped as it is gunzipped: decode.ts)
      bytes = info.size > MAX_PAGE_BYTES ? null : readFileSync(path);
    } else {
      // a pipe (`pith extract <(zcat page.gz)`) or a device has no size
      // to check: read up to the cap (/dev/zero never ends)
      bytes = await readCapped(createReadStream(path));
    }
    if (!bytes) return fail(id, path, "read", tooLarge());
    return { ok: true, value: { id, source: path, url, remote: false, charset: null, bytes } };
  } catch (e) {
    return fail(id, path, "read", readErrorReason(e));
  }
}

export async function fetchPage(url: string, timeoutMs = FETCH_TIMEOUT_MS): Promise<PageResult<PageInput>> {
  return decoded(await fetchBytes(url, timeoutMs));
}

async function readStdin(): Promise<PageResult<PageBytes>> {
  const bytes = await readCapped(process.stdin);
  if (!bytes) return fail("-", "-", "read", tooLarge());
  return { ok: true, value: { id: "-", source: "-", url: null, remote: false, charset: null, bytes } };
}

/** An entry of a directory walk: a page file, or a directory below it that could not be listed. */
export interface PageFile {
  path: string;
  /**
   * Why `path` gives no page, set when it is a directory that could not be listed ("cannot list
   * this directory: permission denied") or a page-named entry that is not a file (a named pipe,
   * a device, a broken link): the batch reports it as an error record.
   */
  unreadable?: string;
}

/** What a symbolic link points to, or null when that cannot be known (broken, a cycle). Synchronous: see readPageBytes. */
function linkTarget(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/**
 * All page files below a directory, sorted by path, walked without recursion. Symbolic links are
 * followed (a folder of links to pages is a common way to pick a sample); a directory reached
 * twice (a link cycle, or two links to one folder) is walked once. A directory that cannot be
 * listed, and a page-named entry that is no file (a broken link; a named pipe, which would block
 * the batch until something writes to it; a device), is an entry of its own (`unreadable`), so a
 * batch reports it as one error record and goes on with the rest of the tree.
 */
export async function listPageFiles(dir: string): Promise<PageFile[]> {
  const out: PageFile[] = [];
  const pending = [dir];
  const walked = new Set<string>();
  while (pending.length) {
    const current = pending.pop() as string;
    let entries;
    try {
      const real = await realpath(current);
      if (walked.has(real)) continue;
      walked.add(real);
      entries = await readdir(current, { withFileTypes: true });
    } catch (e) {
      out.push({ path: current, unreadable: `cannot list this directory: ${readErrorReason(e)}` });
      continue;
    }
    for (const e of entries) {
      const p = join(current, e.name);
      const kind = e.isSymbolicLink() ? linkTarget(p) : e;
      if (kind?.isDirectory()) {
        pending.push(p);
        continue;
      }
      if (!PAGE_FILE.test(e.name) && !WARC_FILE.test(e.name)) continue;
      if (kind?.isFile()) out.push({ path: p });
      else
        out.push({
          path: p,
          unreadable: kind
            ? "not a regular file (a named pipe, a device or a socket): left out"
            : "broken symbolic link: its target does not exist",
        });
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface ReadOptions {
  /** Time limit for fetching one URL (default FETCH_TIMEOUT_MS). */
  fetchTimeoutMs?: number;
  /**
   * URLs fetched at once (default 1): a run of URL inputs is fetched this many ahead, and the
   * pages still come out in input order.
   */
  fetchConcurrency?: number;
  /**
   * Asked with each page's id before the page is read or fetched (a WARC record: before its
   * payload is read); a page for which it answers true is left out of the stream. Not asked for
   * stdin or for inputs that fail before they have a page id.
   */
  skip?: (id: string) => boolean | Promise<boolean>;
}

/**
 * A page file or WARC read from `path` under the page id and source a run of all its inputs gives
 * it (`pith queue` hands a job's share of a directory to a worker so: src/queue/job.ts), or the
 * error record `unreadable` says (a directory entry that is no file, an empty directory).
 */
export interface NamedInput {
  path: string;
  id: string;
  source: string;
  unreadable?: string;
}

/** An input: a spec as a user writes it (path, directory, URL, WARC, -), or a NamedInput. */
export type InputSpec = string | NamedInput;

/** Input specs: a list of them, or an async stream (inputList). */
export type InputSpecs = Iterable<InputSpec> | AsyncIterable<InputSpec>;

/**
 * The input specs of a list file (`-`: stdin), one per line, read lazily so a list of millions
 * of URLs or paths is never held in memory; blank lines and lines starting with # are skipped.
 */
export async function* inputList(file: string): AsyncGenerator<string> {
  if (file === "-") stdinIsList = true;
  const stream = file === "-" ? process.stdin : createReadStream(file);
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    const spec = line.trim();
    if (spec && !spec.startsWith("#")) yield spec;
  }
}

/** Set while stdin is being read as an input list: a "-" line in it names no page (stdin is the list). */
let stdinIsList = false;

/** Expand input specs (files, dirs, URLs, WARCs, "-") into page results, lazily, in order. */
export async function* readInputs(
  specs: InputSpecs,
  options: ReadOptions = {},
): AsyncGenerator<PageResult<PageInput>> {
  for await (const raw of readRawInputs(specs, options)) yield decoded(raw);
}

/** readInputs without the decoding: each page's bytes as read (decodePage decodes them). */
export async function* readRawInputs(
  specs: InputSpecs,
  options: ReadOptions = {},
): AsyncGenerator<PageResult<PageBytes>> {
  for await (const { page } of readInputsBySpec(specs, options)) yield page;
}

/** A page's bytes (or its error record) and the input spec that gave it. */
export interface SpecPage {
  spec: string;
  /** Which input it is, counting from 0 (one spec given twice is two inputs). */
  input: number;
  page: PageResult<PageBytes>;
}

/**
 * readRawInputs with each page's input spec beside it (a batch writing one file per input:
 * src/batch/batch-files.ts); the same pages in the same order.
 */
export async function* readInputsBySpec(
  specs: InputSpecs,
  options: ReadOptions = {},
): AsyncGenerator<SpecPage> {
  const naming: DirectoryNaming = Array.isArray(specs) && specs.length === 1 ? "inside" : "prefixed";
  const ahead = Math.max(1, options.fetchConcurrency ?? 1);
  const timeoutMs = options.fetchTimeoutMs ?? FETCH_TIMEOUT_MS;
  // fetches started in input order, not yet yielded (null: skipped); never more than `ahead`
  const fetching: { spec: string; input: number; page: Promise<PageResult<PageBytes> | null> }[] = [];
  const fetchOrSkip = async (url: string) =>
    (await options.skip?.(shownUrl(url))) ? null : fetchBytes(url, timeoutMs);
  let input = 0;
  for await (const spec of specs) {
    if (typeof spec !== "string") {
      for await (const page of readNamed(spec, options.skip)) yield { spec: spec.path, input, page };
      input++;
      continue;
    }
    const url = isUrl(spec);
    if (url) fetching.push({ spec, input, page: fetchOrSkip(spec) });
    // after a URL, up to ahead − 1 fetches stay pending; a file, a directory or stdin waits for all of them
    while (fetching.length > (url ? ahead - 1 : 0)) {
      const { page, ...from } = fetching.shift() as (typeof fetching)[number];
      const read = await page;
      if (read) yield { ...from, page: read };
    }
    if (!url) for await (const page of readSpec(spec, options.skip, naming)) yield { spec, input, page };
    input++;
  }
  for (const { page, ...from } of fetching) {
    const read = await page;
    if (read) yield { ...from, page: read };
  }
}

/** The pages of one input that is not a URL: stdin, a file, a directory, a WARC. */
async function* readSpec(
  spec: string,
  skip: ReadOptions["skip"],
  naming: DirectoryNaming,
): AsyncGenerator<PageResult<PageBytes>> {
  if (spec === "-")
    yield stdinIsList
      ? fail("-", "-", "read", "stdin is the input list here: a '-' line in it cannot also be a page")
      : await readStdin();
  else {
    const local = localPath(spec);
    if (typeof local === "string") yield* readLocal(local, skip, naming);
    else yield fail(spec, spec, "read", local.error);
  }
}

/**
 * How a walked directory names its pages. The run's only input: by their path inside it
 * (`pith extract site --out o` → `o/a/page.txt`). One of several inputs, or a line of an input
 * list: by the directory's path as given followed by that (`pith extract siteA siteB --out o` →
 * `o/siteA/index.txt`, `o/siteB/index.txt`), as a file input keeps its path, so two folders with
 * an index.html each do not map to one name.
 */
type DirectoryNaming = "inside" | "prefixed";

async function* readLocal(
  spec: string,
  skip: ReadOptions["skip"],
  naming: DirectoryNaming,
): AsyncGenerator<PageResult<PageBytes>> {
  let info;
  try {
    info = await stat(spec);
  } catch (e) {
    yield fail(spec, spec, "read", readErrorReason(e));
    return;
  }
  const files = info.isDirectory() ? await listPageFiles(spec) : [{ path: spec }];
  if (!files.length)
    yield fail(
      spec,
      spec,
      "read",
      `no page files under this directory (names ending in .html, .htm, .xhtml, .xht, .warc, optionally .gz)`,
    );
  for (const { path: file, unreadable } of files) {
    const id =
      info.isDirectory() && naming === "inside" ? relative(resolve(spec), resolve(file)) || spec : file;
    if (unreadable) yield fail(id, file, "read", unreadable);
    else if (WARC_FILE.test(file)) yield* (await warcReader())(file, skip, id);
    else if (!(await skip?.(id))) yield await readPageBytes(file, id, null);
  }
}

/**
 * The WARC reader (warc.ts), imported when a batch meets its first WARC: warcio and its gzip
 * library cost 50 ms of CPU to load, in the main thread and again in each worker, for every
 * batch of page files.
 */
function warcReader(): Promise<typeof import("./warc.ts").readWarc> {
  return import("./warc.ts").then((m) => m.readWarc);
}

/** A NamedInput's page(s), read as readLocal reads a walked directory's entry. */
async function* readNamed(
  input: NamedInput,
  skip: ReadOptions["skip"],
): AsyncGenerator<PageResult<PageBytes>> {
  const { path, id, source, unreadable } = input;
  if (unreadable) yield fail(id, source, "read", unreadable);
  else if (WARC_FILE.test(path)) yield* (await warcReader())(path, skip, id, source);
  else if (!(await skip?.(id))) {
    const read = await readPageBytes(path, id, null);
    yield read.ok
      ? { ok: true, value: { ...read.value, source } }
      : fail(id, source, "read", read.error.reason);
  }
}

export type { PageBytes } from "./page-bytes.ts";
