/**
 * Where `--out DIR` puts each page (`pith extract`, `pith render`): one file per page, named
 * after the input without its extension, and never a file that another page of the run wrote.
 *
 * - A file keeps its path: `a/page.html.gz` → `DIR/a/page.txt` (an absolute path loses its
 *   leading `/`; `.` and `..` segments become `_`, so nothing is written outside DIR).
 * - A directory's pages: by their path inside it when it is the run's only input (`pith extract
 *   site` → `DIR/a/page.txt`), else by their whole path, the directory's included (`pith extract
 *   siteA siteB` → `DIR/siteA/index.txt`, `DIR/siteB/index.txt`): the page ids src/io/inputs.ts gives.
 * - A WARC record is `<warc without .warc(.gz)>/<record number>`: `crawl.warc.gz#3` →
 *   `DIR/crawl/3.txt` (the number counts the HTML responses, as the page id does).
 * - A URL keeps host, path and query: `https://x.org/list?page=2` → `DIR/x.org/list_page_2.txt`,
 *   `https://x.org/` (or `https://x.org`) → `DIR/x.org/index.txt`; the fragment is dropped (same
 *   document), percent-escapes are read (`/caf%C3%A9` → `café.txt`).
 * - A path segment longer than MAX_SEGMENT bytes is cut and suffixed with a hash of the whole
 *   segment, so long query strings stay under the file system's 255-byte name limit, and a name
 *   longer than MAX_NAME bytes ends in one such segment for all its deeper segments, so a URL
 *   of many long segments stays under the 4,096-byte path limit.
 *
 * Two inputs can still map to one name (`a.html` and `a.htm`, one URL given twice): the second is
 * an error record for that page (stage "write") instead of overwriting the first's output. A file
 * counts as this run's when it was modified since the run began (a stat per page, so a batch of
 * millions holds no list of names); an older file, from an earlier run, is replaced.
 * Files are written whole or not at all (src/io/write-atomic.ts), so an interrupted batch leaves
 * no truncated output, and `--skip-existing` can trust any output it finds. The output it keeps
 * becomes this run's (its modification time is set to now), so a resumed batch treats the
 * second input with its name as the first run did, an error record, instead of skipping it as if
 * its output were there.
 */
import { createHash } from "node:crypto";
import { statSync, type Stats } from "node:fs";
import { stat, utimes } from "node:fs/promises";
import { dirname, join } from "node:path";
import { firstLine, UsageError } from "../errors.ts";
import { makeDirs, makeDirsSync } from "../io/make-dirs.ts";
import { writeAtomicSync } from "../io/write-atomic.ts";
import { percentDecoded } from "../dom/urls.ts";
import type { PageError } from "../types.ts";

/** Longest path segment kept whole, in UTF-8 bytes (file systems allow 255 per name). */
export const MAX_SEGMENT = 200;
const WARC_RECORD = /^(.*?)\.warc(?:\.gz)?#(\d+)$/i;
const PAGE_EXTENSION = /\.(x?html?|xht)(\.gz)?$/i;
const URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Longest output name (relative to --out) kept whole, in UTF-8 bytes: Linux allows 4,096 for a
 * whole path, --out included. A longer one keeps its first segments and ends in one segment of at
 * most MAX_TAIL bytes: the start of the rest and a hash of all of it.
 */
export const MAX_NAME = 1024;
const MAX_TAIL = 64;

/** The output file name (relative to --out) of the page with this id. */
export function outputName(id: string, extension: string): string {
  return boundedName(nameSegments(id)).join("/") + extension;
}

/** The segments made safe, the ones past MAX_NAME bytes folded into one hashed segment. */
function boundedName(segments: readonly string[]): string[] {
  const out: string[] = [];
  let bytes = 0;
  for (let k = 0; k < segments.length; k++) {
    const safe = safeSegment(segments[k] as string);
    bytes += Buffer.byteLength(safe) + 1;
    if (bytes > MAX_NAME - MAX_TAIL) return [...out, safeSegment(segments.slice(k).join("/"), MAX_TAIL)];
    out.push(safe);
  }
  return out;
}

/** The segments of a page id's output name, before they are made safe (header). */
function nameSegments(id: string): string[] {
  const warc = WARC_RECORD.exec(id);
  if (warc) return pathSegments(`${warc[1]}/${warc[2]}`);
  if (URL.test(id)) return urlSegments(id);
  return pathSegments(id.replace(PAGE_EXTENSION, ""));
}

function pathSegments(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

/**
 * A URL's host, path and query as name segments, its percent-escapes read: `https://x.org` and
 * `https://x.org/` are both `x.org/index`, `https://x.org/list?p=2` is `x.org`, `list_p=2`. Read
 * escapes name a non-ASCII path in its letters (`caf%C3%A9` → `café`), not three bytes of `_C3_A9`
 * each; a segment whose escapes are not UTF-8 stays as written, and an escaped `/` stays in its
 * segment (safeSegment makes it `_`).
 */
function urlSegments(url: string): string[] {
  const [hostAndPath = "", query] = url
    .replace(URL, "")
    .replace(/#.*$/s, "")
    .split(/\?(.*)$/s, 2);
  const path = hostAndPath.includes("/") ? hostAndPath : `${hostAndPath}/`;
  const base = path.replace(PAGE_EXTENSION, "").replace(/\/$/, "/index") + (query ? `_${query}` : "");
  return pathSegments(base).map(percentDecoded);
}

/**
 * A name segment of letters, digits, `.`, `_` and `-`; one longer than
 * `max` bytes is cut and ends in a hash of the whole.
 */
function safeSegment(segment: string, max = MAX_SEGMENT): string {
  const clean = segment.replace(/[^\p{L}\p{N}._-]+/gu, "_");
  if (/^\.+$/.test(clean)) return "_"; // "." and ".." would climb out of --out
  if (Buffer.byteLength(clean) <= max) return clean;
  const hash = createHash("sha1").update(segment).digest("hex").slice(0, 12);
  let cut = clean.slice(0, max - 13);
  while (Buffer.byteLength(cut) > max - 13) cut = cut.slice(0, -1);
  return `${cut}-${hash}`;
}

/** Directories OutputDir remembers as made: a batch of millions of pages in as many folders holds no more. */
const DIRS_KNOWN_MAX = 10_000;

/** stat(path), null when there is nothing there or it cannot be read (the write then says why). */
function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** The --out directory of one run: names each page's file, refuses a name twice, skips done pages. */
export class OutputDir {
  /**
   * When the run began. (On a file system that keeps whole seconds, a file this run wrote in its
   * first second looks older and a clash there is missed: a replaced file, never a false error.)
   */
  private readonly since = Date.now();
  /** Names --skip-existing kept whose time it could not set (a file of another owner): rare, so held here. */
  private readonly keptUntouched = new Set<string>();
  /** The --skip-existing decisions, one after the other in the order they are asked (input order). */
  private decided: Promise<unknown> = Promise.resolve();
  /** Directories of page files made (or found) in this run, up to DIRS_KNOWN_MAX: made once, not per page. */
  private readonly dirsMade = new Set<string>();
  private constructor(
    readonly root: string,
    private readonly extension: string,
  ) {}

  /**
   * The run's --out directory, made now: one that cannot be (a file there, no permission, a
   * read-only or pseudo file system) is one usage error before the batch, not an error record
   * for each of its pages.
   */
  static async open(command: string, root: string, extension: string): Promise<OutputDir> {
    try {
      await makeDirs(root);
    } catch (e) {
      throw new UsageError(`${command}: cannot use --out ${root}: ${firstLine((e as Error).message)}`);
    }
    return new OutputDir(root, extension);
  }

  pathOf(id: string): string {
    return join(this.root, outputName(id, this.extension));
  }

  /**
   * The ReadOptions.skip of `--skip-existing`: true (and `onSkip`) for a page whose output an
   * earlier run wrote, which this run then keeps. Not for one whose output is already this run's
   * (written or kept for another input with its name): that page is extracted and write() refuses
   * the name. Decided in the order asked, one at a time (URLs are asked ahead of their fetch), so
   * the first input with a name keeps it, as the first writes it in a run without the flag.
   */
  skipDone(onSkip: (id: string) => void): (id: string) => Promise<boolean> {
    return (id) => {
      const kept = this.decided.then(() => this.keep(id));
      this.decided = kept.catch(() => {});
      return kept.then((skip) => {
        if (skip) onSkip(id);
        return skip;
      });
    };
  }

  /** Whether an earlier run's output of the page is there; if so it becomes this run's. */
  private async keep(id: string): Promise<boolean> {
    const name = outputName(id, this.extension);
    const path = join(this.root, name);
    const found = await stat(path).catch(() => null);
    if (!found || this.isThisRuns(name, found)) return false;
    await utimes(path, found.atime, new Date()).catch(() => this.keptUntouched.add(name));
    return true;
  }

  private isThisRuns(name: string, file: Stats): boolean {
    return file.mtimeMs >= this.since || this.keptUntouched.has(name);
  }

  /** Writes one page's output; an error record (stage "write") when the name is taken or the write fails. */
  async write(id: string, source: string, data: string | Uint8Array): Promise<PageError | null> {
    const name = outputName(id, this.extension);
    const path = join(this.root, name);
    const existing = statOrNull(path);
    if (existing && this.isThisRuns(name, existing))
      return {
        id,
        source,
        stage: "write",
        reason:
          `output ${name} belongs to another input of this run (two inputs with one name), ` +
          "so this page's output is not written",
      };
    try {
      this.writeFile(path, existing, data);
      return null;
    } catch (e) {
      return { id, source, stage: "write", reason: `cannot write ${name}: ${firstLine(e)}` };
    }
  }

  /**
   * One page file, whole or not at all, synchronously: a page's file is a few kB, and the
   * asynchronous calls (a stat, three more in writeAtomic, open, write, close and rename, each a
   * trip to libuv's thread pool) cost twice the CPU of the synchronous ones, 0.24 against 0.11 ms a
   * file. A directory is made once per run; one removed meanwhile is made again.
   */
  private writeFile(path: string, existing: Stats | null, data: string | Uint8Array): void {
    const dir = dirname(path);
    const dirMade = this.dirsMade.has(dir);
    try {
      writeAtomicSync(path, data, { target: existing, dirMade });
    } catch (e) {
      if (!dirMade || (e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      this.dirsMade.delete(dir);
      writeAtomicSync(path, data, { target: existing, dirMade: false });
    }
    if (this.dirsMade.size >= DIRS_KNOWN_MAX) this.dirsMade.clear();
    this.dirsMade.add(dir);
  }
}
