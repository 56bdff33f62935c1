/**
 * How `pith queue submit` cuts its inputs into jobs, and how a worker reads a job back.
 *
 * A job is a WARC file, or a chunk of up to `--job-size` page files or URLs (DEFAULT_JOB_SIZE):
 * about two seconds of work for two worker threads, small enough that a job redone after a worker
 * died costs little, large enough that the queue's own cost per job (a few Redis round trips, the
 * job's record) stays small beside it. Every page keeps the id, and so the output file name and the
 * JSON `source`, that `pith extract` gives it for the same inputs (src/io/inputs.ts): a file its
 * path as given, a directory's pages their path inside it when it is the only input, else their
 * whole path, a WARC's pages `<name>#<n>`. A job holds those relative paths and the directory they
 * resolve against (`cwd`), so a chunk of 200 pages costs about 60 bytes of Redis per page.
 *
 * A worker reads only what its job names, and only below the run's submitted inputs (checkRoots):
 * a job that names another file (a forged or corrupted payload) is refused as a whole.
 */
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import type { Redis } from "ioredis";
import { UsageError } from "../errors.ts";
import {
  isUrl,
  listPageFiles,
  localPath,
  readErrorReason,
  WARC_FILE,
  type InputSpec,
  type InputSpecs,
} from "../io/inputs.ts";
import { runKeys } from "./run.ts";

/** Pages or URLs per job when --job-size is not given. */
export const DEFAULT_JOB_SIZE = 200;

/** An input of a job: a page file's or WARC's id (its path relative to `from` or `cwd`), a URL, or an error record. */
export type JobItem = string | { id: string; source: string; unreadable: string };

/** A job's payload in BullMQ. */
export interface JobData {
  run: string;
  /** The absolute directory the items' paths resolve against (where submit ran). */
  cwd: string;
  /** The directory, as given, whose pages are named by their path inside it; absent: items are paths as given. */
  from?: string;
  items: JobItem[];
}

/** A job as planned, before it has a run. */
export type PlannedJob = Omit<JobData, "run">;

/** The job id: its run's id and a hash of what it reads, so the same inputs give the same id. */
export function jobId(run: string, job: PlannedJob): string {
  const hash = createHash("sha1").update(JSON.stringify([job.cwd, job.from ?? null, job.items]));
  return `${run}-${hash.digest("hex").slice(0, 16)}`;
}

/** Where the planner is: the chunks being filled, one per naming (`from`), and the roots seen. */
interface Planner {
  cwd: string;
  size: number;
  inside: boolean;
  chunks: Map<string, JobItem[]>;
  roots: Set<string>;
}

/**
 * The jobs of `specs` (positional inputs, then an --input-list's), in input order, and every
 * local input's absolute path in `roots`. `inside`: a directory's pages are named by their path
 * inside it (the run's only input, as `pith extract` names them).
 */
export async function* planJobs(
  specs: InputSpecs,
  o: { cwd: string; size: number; inside: boolean; roots: Set<string> },
): AsyncGenerator<PlannedJob> {
  const p: Planner = { ...o, chunks: new Map() };
  for await (const spec of specs) {
    if (typeof spec !== "string") throw new Error("planJobs takes specs as written");
    if (spec === "-")
      throw new UsageError(
        "queue submit: stdin (-) cannot be queued (a worker elsewhere cannot read it): save it to a file",
      );
    if (isUrl(spec)) yield* add(p, "", spec);
    else yield* planLocal(p, spec);
  }
  for (const [from, items] of p.chunks) if (items.length) yield chunkJob(p, from, items);
}

function chunkJob(p: Planner, from: string, items: JobItem[]): PlannedJob {
  return { cwd: p.cwd, ...(from ? { from } : {}), items };
}

/** Adds one item to its chunk; yields the chunk once full. */
function* add(p: Planner, from: string, item: JobItem): Generator<PlannedJob> {
  const chunk = p.chunks.get(from) ?? [];
  p.chunks.set(from, chunk);
  chunk.push(item);
  if (chunk.length >= p.size) {
    p.chunks.set(from, []);
    yield chunkJob(p, from, chunk);
  }
}

/** A path, a directory or a file:// URL: its pages as items, each WARC a job of its own. */
async function* planLocal(p: Planner, spec: string): AsyncGenerator<PlannedJob> {
  const local = localPath(spec);
  if (typeof local !== "string")
    return yield* add(p, "", { id: spec, source: spec, unreadable: local.error });
  const info = await stat(resolve(p.cwd, local)).catch((e: unknown) => readErrorReason(e));
  if (typeof info === "string") return yield* add(p, "", { id: local, source: local, unreadable: info });
  p.roots.add(resolve(p.cwd, local));
  if (!info.isDirectory()) {
    if (WARC_FILE.test(local)) yield { cwd: p.cwd, items: [local] };
    else yield* add(p, "", local);
    return;
  }
  const files = await listPageFiles(local);
  if (!files.length)
    yield* add(p, "", {
      id: local,
      source: local,
      unreadable:
        "no page files under this directory (names ending in .html, .htm, .xhtml, .xht, .warc, optionally .gz)",
    });
  const from = p.inside ? local : "";
  for (const { path: file, unreadable } of files) {
    const id = p.inside ? relative(resolve(local), resolve(file)) || local : file;
    if (unreadable) yield* add(p, from, { id, source: file, unreadable });
    else if (WARC_FILE.test(file)) yield { cwd: p.cwd, ...(from ? { from } : {}), items: [id] };
    else yield* add(p, from, id);
  }
}

/** The path of a job item as `pith extract` shows it (its source), and its absolute path. */
function itemPaths(job: JobData, id: string): { source: string; path: string } {
  const source = job.from === undefined ? id : join(job.from, id);
  return { source, path: resolve(job.cwd, source) };
}

/** A job's inputs as the batch reader takes them (src/io/inputs.ts NamedInput; URLs as they are). */
export function jobInputs(job: JobData): InputSpec[] {
  return job.items.map((item) => {
    if (typeof item !== "string")
      return { path: "", id: item.id, source: item.source, unreadable: item.unreadable };
    if (isUrl(item)) return item;
    return { id: item, ...itemPaths(job, item) };
  });
}

/** A job that names a file outside its run's inputs: refused, never retried. */
export class RefusedJob extends Error {
  override name = "RefusedJob";
}

/**
 * Throws RefusedJob unless every file the job reads is one of its run's submitted inputs or
 * below one of them (one Redis round trip: each path's ancestors are looked up at once).
 */
export async function checkRoots(redis: Redis, job: JobData): Promise<void> {
  if (typeof job.cwd !== "string" || !Array.isArray(job.items))
    throw new RefusedJob("refused: the job's payload is not a pith job (no cwd and items)");
  if (!job.cwd.startsWith("/"))
    throw new RefusedJob(`refused: the job's directory ${job.cwd} is not absolute`);
  const paths = [
    ...new Set(jobInputs(job).flatMap((i) => (typeof i === "string" || i.unreadable ? [] : [i.path]))),
  ];
  const lookups = redis.pipeline();
  for (const path of paths) lookups.smismember(runKeys(job.run).roots, ...ancestors(path));
  const found = (await lookups.exec()) ?? [];
  paths.forEach((path, k) => {
    const [error, hits] = found[k] ?? [new Error("no answer"), null];
    if (error) throw error;
    if (!(hits as number[]).includes(1))
      throw new RefusedJob(`refused: ${path} is not among the run's submitted inputs nor below one of them`);
  });
}

/** A path and every directory above it, up to /. */
function ancestors(path: string): string[] {
  const out = [path];
  for (let dir = dirname(path); dir !== out.at(-1); dir = dirname(dir)) out.push(dir);
  return out;
}
