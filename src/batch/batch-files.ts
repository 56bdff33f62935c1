/**
 * `--out-format jsonl` and `--out-format warc`: a batch's outputs as one file per input under
 * `--out` instead of one file per page (output-files.ts), for crawls of millions of pages.
 *
 * - `jsonl`: `NAME.jsonl.gz`, one line per page in input order: the page's `--format json`
 *   object, or for a page that failed its error record as
 *   `{"version":2,"id","source","error":{"stage","reason"}}`.
 * - `warc`: `NAME.wet.warc.gz`, a WET-style WARC (warc-out.ts): a `warcinfo` record, then per page
 *   a `conversion` record (or a `metadata` record for a page that failed). `.wet` keeps the file
 *   from ever taking its input's name (`crawl.warc.gz` → `crawl.wet.warc.gz`).
 *
 * NAME is the batch's name when the caller gives one (the queue's job id; `pith extract
 * --input-list FILE`: the list's name), else each input's own (batchName): one file per input
 * (a WARC, a directory, a file, a URL). Names are made safe as page names are (outputName), so no
 * name writes outside `--out`; a second input of the run whose file would take a name already
 * written is refused (an error record per page), as a page file is.
 *
 * A file is written whole or not at all: pages stream (gzip as they come, nothing of the batch
 * held) into `NAME….<pid>.partial` beside it, renamed to its name once the input's last page is
 * in. A run that fails or is interrupted removes its partial file (a SIGKILL leaves it, under its
 * partial name); a rerun, or a retried queue job, replaces the whole file, never adds to it.
 */
import { createWriteStream, rmSync, type WriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { once } from "node:events";
import { basename, dirname, join, resolve } from "node:path";
import { finished, pipeline } from "node:stream/promises";
import type { Writable } from "node:stream";
import { createGzip } from "node:zlib";
import { firstLine } from "../errors.ts";
import { WARC_FILE, type PageBytes, type SpecPage } from "../io/inputs.ts";
import { makeDirs } from "../io/make-dirs.ts";
import type { Format } from "../output/index.ts";
import { JSON_OUTPUT_VERSION } from "../output/json.ts";
import type { PageError, PageResult } from "../types.ts";
import { outputName } from "./output-files.ts";
import type { PageOutput } from "./page-output.ts";
import type { BatchSink } from "./sink.ts";
import {
  conversionRecord,
  errorRecord,
  WARC_CONTENT_TYPE,
  warcinfoRecord,
  WARC_VERSION,
  type PageOrigin,
} from "./warc-out.ts";

/** `--out-format`: one file per page (the default), or one batch file per input. */
export const OUT_FORMATS = ["files", "jsonl", "warc"] as const;
export type OutFormat = (typeof OUT_FORMATS)[number];
export type BatchFormat = Exclude<OutFormat, "files">;

export const BATCH_EXTENSION: Record<BatchFormat, string> = { jsonl: ".jsonl.gz", warc: ".wet.warc.gz" };

/** Why `--format` cannot go in `--out-format` (jsonl holds JSON; a WARC text, Markdown or HTML), or null. */
export function outFormatProblem(outFormat: OutFormat, format: Format): string | null {
  if (outFormat === "jsonl" && format !== "json")
    return `--out-format jsonl holds --format json objects, not ${format}`;
  if (outFormat === "warc" && !WARC_CONTENT_TYPE[format])
    return `--out-format warc holds text, markdown or html, not ${format} (JSON goes to --out-format jsonl)`;
  return null;
}

/**
 * The batch file name (before its extension) of one input: a WARC's path without `.warc(.gz)`,
 * a file's without its extension, a directory's path, a URL's host and path; stdin is `stdin`.
 */
export function batchName(spec: string): string {
  if (spec === "-") return "stdin";
  const name = spec.replace(WARC_FILE, "").replace(/\/+$/, "");
  // `.` or `..` would be named `_`: the directory's own name says more
  return /^[./]*$/.test(name) ? basename(resolve(spec)) || "root" : name;
}

/** Where a batch's files go and what they hold. */
export interface BatchFilesOptions {
  outFormat: BatchFormat;
  /** The --out directory. */
  dir: string;
  /** The pages' --format (jsonl: json; warc: text, markdown or html). */
  format: Format;
  /** The extractor's name, for the WARC's warcinfo record. */
  method: string;
}

/**
 * Partial files open in this process, removed if it exits before they are finished (process.exit,
 * which `pith extract` runs on SIGINT / SIGTERM / SIGHUP: src/exit-on-signal.ts; the signal policy
 * is the program's, so a queue worker can finish its job on SIGTERM instead).
 */
const openPartials = new Set<string>();
let cleanupInstalled = false;

function removePartialsAtExit(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on("exit", () => {
    for (const temp of openPartials) rmSync(temp, { force: true });
  });
}

/** One batch file being written: its partial file, renamed to its name when finished. */
class PartialFile {
  private constructor(
    readonly path: string,
    private readonly temp: string,
    private readonly head: Writable,
    private readonly closed: Promise<void>,
  ) {}

  /** Opens `path`'s partial file; `gzip`: the data written is compressed as one gzip stream. */
  static async open(path: string, gzip: boolean): Promise<PartialFile> {
    await makeDirs(dirname(path));
    const temp = `${path}.${process.pid}.partial`;
    removePartialsAtExit();
    openPartials.add(temp);
    const file: WriteStream = createWriteStream(temp);
    const zip = gzip ? createGzip() : null;
    const closed = zip ? pipeline(zip, file) : finished(file);
    closed.catch(() => {}); // seen by the next write or by finish()
    return new PartialFile(path, temp, zip ?? file, closed);
  }

  /** Appends data; waits while the disk is behind, so a fast batch holds no more than a buffer. */
  async write(data: string | Uint8Array): Promise<void> {
    if (!this.head.write(data)) await Promise.race([once(this.head, "drain"), this.closed]);
  }

  /** Closes the file and gives it its name. */
  async finish(): Promise<void> {
    this.head.end();
    try {
      await this.closed;
      await rename(this.temp, this.path);
    } catch (e) {
      await rm(this.temp, { force: true });
      throw new Error(`cannot write ${this.path}: ${firstLine(e)}`);
    } finally {
      openPartials.delete(this.temp);
    }
  }

  /** Closes and removes the partial file (the batch failed). */
  async discard(): Promise<void> {
    this.head.destroy();
    await this.closed.catch(() => {});
    await rm(this.temp, { force: true });
    openPartials.delete(this.temp);
  }
}

/** The batch files of one run: the one being written, and the names already written. */
export class BatchFiles {
  private current: { key: string; name: string; file: PartialFile | null } | null = null;
  private readonly written = new Set<string>();
  constructor(private readonly o: BatchFilesOptions) {}

  /**
   * Appends one page (or its error record) to the file of `group` (`key`: which input; `name`: its
   * file's), finishing the previous group's file when the group changes. An error record (stage
   * "write") when the file's name belongs to another input of this run; a file that cannot be
   * written fails the batch (its partial file removed).
   */
  async write(
    group: { key: string; name: string },
    origin: PageOrigin,
    r: PageResult<PageOutput>,
  ): Promise<PageError | null> {
    if (this.current?.key !== group.key) await this.switchTo(group);
    const { name, file } = this.current as NonNullable<typeof this.current>;
    if (!file) {
      if (!r.ok) return null; // counted as the error it is
      return { id: r.value.id, source: origin.source, stage: "write", reason: taken(name) };
    }
    try {
      await file.write(await this.encode(origin, r));
    } catch (e) {
      throw new Error(`cannot write ${file.path}: ${firstLine(e)}`);
    }
    return null;
  }

  private async switchTo(group: { key: string; name: string }): Promise<void> {
    await this.close();
    const name = outputName(group.name, BATCH_EXTENSION[this.o.outFormat]);
    if (this.written.has(name)) {
      this.current = { key: group.key, name, file: null };
      return;
    }
    this.written.add(name);
    const path = join(this.o.dir, name);
    const file = await PartialFile.open(path, this.o.outFormat === "jsonl").catch((e: unknown) => {
      throw new Error(`cannot write ${path}: ${firstLine(e)}`);
    });
    this.current = { key: group.key, name, file };
    if (this.o.outFormat === "warc") await file.write(await this.warcinfo(basename(path)));
  }

  /** A page's bytes in the file: a JSON line, or a gzipped WARC record. */
  private async encode(origin: PageOrigin, r: PageResult<PageOutput>): Promise<string | Uint8Array> {
    if (this.o.outFormat === "jsonl") return (r.ok ? r.value.body : errorLine(r.error)) + "\n";
    if (!r.ok) return errorRecord(origin, r.error);
    // the block is the page's file as --out-format files writes it
    return conversionRecord(origin, WARC_CONTENT_TYPE[this.o.format] as string, r.value.body + "\n");
  }

  private warcinfo(filename: string): Promise<Uint8Array> {
    return warcinfoRecord(filename, {
      software: "pith (records written with warcio.js)",
      format: `WARC File Format ${WARC_VERSION.slice(5)}`,
      conversion: `main content extracted by pith --method ${this.o.method} --format ${this.o.format}`,
    });
  }

  /** Finishes the file being written, if any: it gets its name. */
  async close(): Promise<void> {
    const file = this.current?.file;
    this.current = null;
    if (file) await file.finish();
  }

  /** Removes the file being written, if any (the batch failed before its end). */
  async discard(): Promise<void> {
    const file = this.current?.file;
    this.current = null;
    if (file) await file.discard();
  }
}

function taken(name: string): string {
  return `batch file ${name} belongs to another input of this run (two inputs with one name), so this page is not written`;
}

/** A failed page's line in a JSONL file, beside the pages' `--format json` objects. */
function errorLine(error: PageError): string {
  const { id, source, stage, reason } = error;
  return JSON.stringify({ version: JSON_OUTPUT_VERSION, id, source, error: { stage, reason } });
}

/** What a page's records say of where it came from, as it was read. */
function originOf(page: PageResult<PageBytes>): PageOrigin {
  if (!page.ok) return { url: null, source: page.error.source };
  const { url, source, record } = page.value;
  return record ? { url, source, record } : { url, source };
}

/**
 * The sink of a batch with batch files: each page's output goes to its input's file, then to the
 * caller's sink to be counted (BatchSink.count; take for a sink without it). The inputs pass
 * through tap() on their way in, which notes each page's input and origin in order: the batch
 * hands outputs over in input order, one per input, so the notes are taken from the front.
 */
export class BatchFileSink implements BatchSink {
  private readonly notes: { group: { key: string; name: string }; origin: PageOrigin }[] = [];
  private chain: Promise<void> = Promise.resolve();
  constructor(
    private readonly files: BatchFiles,
    private readonly inner: BatchSink,
    /** One file for the whole batch under this name; absent: one per input, named after it. */
    private readonly name?: string,
  ) {}

  /** The pages, each noted with its input and origin as it passes. */
  async *tap(pages: AsyncIterable<SpecPage>): AsyncGenerator<PageResult<PageBytes>> {
    for await (const { spec, input, page } of pages) {
      const group =
        this.name === undefined ? { key: String(input), name: batchName(spec) } : batch(this.name);
      this.notes.push({ group, origin: originOf(page) });
      yield page;
    }
  }

  take(r: PageResult<PageOutput>): Promise<void> {
    this.chain = this.chain.then(async () => {
      const note = this.notes.shift();
      if (!note) throw new Error("a batch output came without its input");
      const failed = await this.files.write(note.group, note.origin, r);
      const out: PageResult<PageOutput> = failed ? { ok: false, error: failed } : r;
      await (this.inner.count ? this.inner.count(out) : this.inner.take(out));
    });
    return this.chain;
  }

  async done(): Promise<void> {
    await this.chain;
    await this.files.close();
    await this.inner.done();
  }

  /** The batch failed: its unfinished file is removed (the files it finished stay). */
  abort(): Promise<void> {
    return this.files.discard();
  }
}

function batch(name: string): { key: string; name: string } {
  return { key: "", name };
}
