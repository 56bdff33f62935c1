/**
 * Where a batch's outputs go, in input order: stdout (a "==> id <==" line before each page of a
 * batch, JSON one object per line) or one file per page (output-files.ts), with the counts the
 * summary line reports and a note per empty or failed page.
 */
import { once } from "node:events";
import type { Format } from "../output/index.ts";
import type { PageError, PageResult } from "../types.ts";
import type { OutputDir } from "./output-files.ts";
import type { PageOutput } from "./page-output.ts";
import type { Progress } from "./progress.ts";

/** Pages by outcome. */
export interface Emitted {
  ok: number;
  empty: number;
  /** Pages that failed (each reported on stderr as it came: a batch of millions keeps no list). */
  errors: number;
  /** Pages left out by --skip-existing. */
  skipped: number;
}

/** What a batch hands its outputs to: one call per page in input order, then done() once. */
export interface BatchSink {
  /** Takes one page's output or error record; the promise settles when it is written. */
  take(r: PageResult<PageOutput>): Promise<void>;
  /**
   * Takes one page whose output went elsewhere (a batch file of `--out-format jsonl|warc`:
   * batch-files.ts), to count it and report it; a sink without it is handed take() instead.
   */
  count?(r: PageResult<PageOutput>): Promise<void>;
  /** Settles when every output taken is written. */
  done(): Promise<void>;
}

/** Writes outputs in input order, to stdout or one file per page, and counts results. */
export class Sink implements BatchSink {
  readonly counts: Emitted = { ok: 0, empty: 0, errors: 0, skipped: 0 };
  /**
   * Pages per model of the learned pipeline (a per-domain model beside the default says so in the summary).
   */
  readonly models = new Map<string, number>();
  private chain: Promise<void> = Promise.resolve();
  private first = true;
  constructor(
    private readonly format: Format,
    private readonly files: OutputDir | null,
    private readonly many: boolean,
    /** Where progress and per-page notes go (src/batch/progress.ts; a terminal bar at the CLI). */
    readonly bar: Progress,
  ) {}

  /** A page --skip-existing left out: counted, and the bar moves on. */
  skipped(id: string): void {
    this.counts.skipped++;
    this.bar.tick(id);
  }

  /**
   * Queues one page's output after the earlier ones; the promise
   * settles when it is written (mapLimit waits on it).
   */
  take(r: PageResult<PageOutput>): Promise<void> {
    return this.record(r, true);
  }

  /** A page a batch file holds (BatchSink.count): counted and noted, as take() does, not written. */
  count(r: PageResult<PageOutput>): Promise<void> {
    return this.record(r, false);
  }

  private record(r: PageResult<PageOutput>, write: boolean): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (!r.ok) return this.error(r.error);
      const failed = write ? await this.write(r.value) : null;
      if (failed) return this.error(failed);
      this.counts.ok++;
      if (r.value.empty) this.counts.empty++;
      if (r.value.model) this.models.set(r.value.model, (this.models.get(r.value.model) ?? 0) + 1);
      for (const w of r.value.warnings ?? []) this.bar.note(`warning\t${r.value.id}\t${w}`);
      if (r.value.emptyReason) this.bar.note(`empty\t${r.value.id}\t${r.value.emptyReason}`);
      this.bar.tick(r.value.id);
    });
    return this.chain;
  }

  private error(err: PageError): void {
    this.counts.errors++;
    this.bar.note(`error\t${err.id}\t${err.stage}\t${err.reason}`);
    this.bar.tick(err.id);
  }

  /** Writes one page's output; the error record when its file cannot be written. */
  private async write({ id, body }: PageOutput): Promise<PageError | null> {
    if (this.files) return this.files.write(id, id, body + "\n");
    const header = this.many && this.format !== "json" ? `${this.first ? "" : "\n"}==> ${id} <==\n` : "";
    this.first = false;
    // a slow reader (a pipe into another program) holds the writes back instead of our memory
    if (!process.stdout.write(header + body + "\n")) await once(process.stdout, "drain");
    return null;
  }

  async done(): Promise<void> {
    await this.chain;
    this.bar.stop();
  }
}
