/**
 * On-disk cache of PageRecords, one pair of files per dataset and feature schema:
 * data/cache/<schema-hash>/<mode>/<dataset>.json (page metadata) + .bin (typed arrays,
 * concatenated per page). A feature-schema change gets a new folder, so a stale cache is
 * never read; neither is one built by other renderer, structure or label code (fingerprint).
 * Missing pages are computed in worker threads (both cores) and appended.
 *
 * Chromium mode: the set's pages are first rendered into the snapshot cache
 * (snapshot-cache.ts, main thread, one browser), then the workers build the records from those
 * snapshots. The fingerprint then also carries the snapshot cache's key (renderer code and
 * browser version). Pages that failed to render are left out with a counted warning.
 */
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { featureSchema } from "../pipeline/features-adapter.ts";
import { loadDataset, type Dataset } from "../io/dataset.ts";
import { makeDirsSync } from "../io/make-dirs.ts";
import { writeAtomicSync } from "../io/write-atomic.ts";
import type { RenderMode } from "../types.ts";
import type { PageRecord } from "./page-record.ts";
import { runPool } from "./pool.ts";
import { cacheDir, codeKey } from "./cache-dir.ts";
import { ensureSnapshots, snapshotKey } from "./snapshot-cache.ts";

export { cacheDir };
const CACHE_FORMAT = 5;

interface PageMeta {
  dataset: string;
  id: string;
  site: string;
  pageType: string;
  genre: string;
  n: number;
  goldWords: number;
  /** The page's class-token vocabulary (PageRecord.classTokens.vocab); start and ids are in the .bin. */
  classVocab: string[];
  classIds: number;
  /** The same for PageRecord.headingTokens. */
  headingVocab: string[];
  headingIds: number;
}

interface CacheHeader {
  format: number;
  /** Fingerprint of the dataset's index.jsonl (size and mtime): a changed set is recomputed. */
  source: string;
  schemaHash: string;
  nCols: number;
  pages: PageMeta[];
}

type Flat = Omit<PageRecord, "classTokens" | "headingTokens"> & { classStart: Int32Array; classIds: Int32Array; headingStart: Int32Array; headingIds: Int32Array };

/** Typed-array fields in storage order, with their constructors and lengths. */
const FIELDS: readonly (readonly [keyof Flat, { BYTES_PER_ELEMENT: number }, (m: PageMeta, nCols: number) => number])[] = [
  ["nodes", Int32Array, (m) => m.n], ["values", Float32Array, (m, nCols) => m.n * nCols], ["main", Uint8Array, (m) => m.n], ["good", Uint8Array, (m) => m.n],
  ["share", Float32Array, (m) => m.n], ["ownWords", Int32Array, (m) => m.n], ["subtreeWords", Int32Array, (m) => m.n], ["parentRow", Int32Array, (m) => m.n], ["ambiguous", Uint8Array, (m) => m.n],
  ["classStart", Int32Array, (m) => m.n + 1], ["classIds", Int32Array, (m) => m.classIds], ["paths", Uint32Array, (m) => m.n],
  ["headingStart", Int32Array, (m) => m.n + 1], ["headingIds", Int32Array, (m) => m.headingIds],
];

function flat(r: PageRecord): Flat {
  return { ...r, classStart: r.classTokens.start, classIds: r.classTokens.ids, headingStart: r.headingTokens.start, headingIds: r.headingTokens.ids };
}

function paths(dataset: string, mode: RenderMode): { dir: string; json: string; bin: string } {
  const dir = join(cacheDir(), featureSchema().hash, mode);
  return { dir, json: join(dir, `${dataset}.json`), bin: join(dir, `${dataset}.bin`) };
}

/** Code whose output the cache holds besides the features (the schema hash covers those). */
const CODE_FILES = ["../render/static.ts", "../render/attributes.ts", "../render/control-chars.ts", "../render/fast-tokenizer.ts", "../render/repair.ts", "../render/page-meta.ts", "../render/reveal.ts", "../render/escaped-markup.ts", "../dom/text.ts", "../features/structural.ts", "./labels.ts", "./align.ts", "./page-record.ts", "../pipeline/class-lexicon.ts", "../pipeline/heading-lexicon.ts", "../pipeline/path-signature.ts", "../dom/records.ts", "../pipeline/hidden-text.ts"];

let codeHash: string | null = null;

/** Hash of the renderer, structure, label and record code: a change there recomputes the cache. */
function codeFingerprint(): string {
  codeHash ??= codeKey(CODE_FILES);
  return codeHash;
}

function fingerprint(dir: string, mode: RenderMode): string {
  const st = statSync(join(dir, "index.jsonl"));
  return `${st.size}:${Math.round(st.mtimeMs)}:${codeFingerprint()}${mode === "chromium" ? `:${snapshotKey()}` : ""}`;
}

function writeCache(dataset: string, mode: RenderMode, records: readonly PageRecord[], nCols: number, source: string): void {
  const p = paths(dataset, mode);
  makeDirsSync(p.dir);
  const chunks: Buffer[] = [];
  for (const r of records) {
    // a record from other feature code (the source edited while a run's workers were computing) must not be cached under this schema
    if (r.values.length !== r.nodes.length * nCols) throw new Error(`training cache: ${dataset}/${r.id} has ${r.values.length / Math.max(1, r.nodes.length)} feature columns, expected ${nCols} (was pith's source changed during the run?)`);
    const f = flat(r);
    for (const [name] of FIELDS) {
      const a = f[name] as Int32Array | Float32Array | Uint8Array;
      chunks.push(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    }
  }
  const pages = records.map((r) => ({ dataset: r.dataset, id: r.id, site: r.site, pageType: r.pageType, genre: r.genre, n: r.nodes.length, goldWords: r.goldWords, classVocab: r.classTokens.vocab, classIds: r.classTokens.ids.length, headingVocab: r.headingTokens.vocab, headingIds: r.headingTokens.ids.length }));
  // the header goes first and comes back last: a run stopped in between leaves no header, so no stale header over new data
  rmSync(p.json, { force: true });
  writeAtomicSync(p.bin, Buffer.concat(chunks));
  writeAtomicSync(p.json, JSON.stringify({ format: CACHE_FORMAT, source, schemaHash: featureSchema().hash, nCols, pages } satisfies CacheHeader));
}

function readCache(dataset: string, mode: RenderMode, source: string): PageRecord[] | null {
  const p = paths(dataset, mode);
  if (!existsSync(p.json) || !existsSync(p.bin)) return null;
  const header = JSON.parse(readFileSync(p.json, "utf8")) as CacheHeader;
  if (header.format !== CACHE_FORMAT || header.source !== source) return null;
  const bin = readFileSync(p.bin);
  let off = 0;
  const take = <T extends Int32Array | Float32Array | Uint8Array>(C: new (b: ArrayBuffer) => T, count: number, bytes: number): T => {
    const copy = new Uint8Array(count * bytes);
    copy.set(bin.subarray(off, off + count * bytes));
    off += count * bytes;
    return new C(copy.buffer);
  };
  const records = header.pages.map((m) => {
    const { classVocab, classIds: _count, headingVocab, headingIds: _headingCount, ...meta } = m;
    const rec: Record<string, unknown> = { ...meta };
    for (const [f, C, count] of FIELDS) rec[f] = take(C as unknown as new (b: ArrayBuffer) => Int32Array, count(m, header.nCols), C.BYTES_PER_ELEMENT);
    const { classStart, classIds, headingStart, headingIds, ...rest } = rec as unknown as Flat;
    return { ...rest, classTokens: { vocab: classVocab, start: classStart, ids: classIds }, headingTokens: { vocab: headingVocab, start: headingStart, ids: headingIds } };
  });
  // a data file whose size does not match its header (cut short, or from another write) is rebuilt, not read as garbage
  return off === bin.length ? records : null;
}

export interface LoadOptions {
  mode?: RenderMode;
  workers?: number;
  /** Called once per page computed (not for cache hits). */
  onPage?: (done: number, total: number) => void;
  /** Ignore an existing cache. */
  rebuild?: boolean;
}

/** Progress of the chromium renders on stderr: a line every RENDER_REPORT_EVERY pages and at the end. */
const RENDER_REPORT_EVERY = 100;

/** Renders the set's pages with gold into the snapshot cache; returns the ids that have a snapshot. */
async function chromiumSnapshots(ds: Dataset): Promise<Set<string>> {
  const pages = ds.pages.filter((p) => existsSync(join(ds.dir, "gold", `${p.id}.txt`)));
  const started = performance.now();
  const result = await ensureSnapshots(ds, pages, {
    onPage: (done, total) => {
      if (done % RENDER_REPORT_EVERY && done !== total) return;
      const s = (performance.now() - started) / 1000;
      process.stderr.write(`${ds.name}: rendered ${done}/${total} pages with chromium (${(done / s).toFixed(1)} pages/s)\n`);
    },
  });
  if (result.failed.size) {
    const sample = [...result.failed].slice(0, 3).map(([id, why]) => `${id}: ${why}`).join("; ");
    process.stderr.write(`${ds.name}: ${result.failed.size} page(s) skipped, no chromium render (${sample})\n`);
  }
  return result.ok;
}

/** Records of every page with gold in `dataset`, from the cache or computed (and cached). */
export async function loadRecords(dataset: string, options: LoadOptions = {}): Promise<PageRecord[]> {
  const mode = options.mode ?? "static";
  const ds = loadDataset(dataset);
  const rendered = mode === "chromium" ? await chromiumSnapshots(ds) : null;
  const source = fingerprint(ds.dir, mode);
  const cached = options.rebuild ? null : readCache(ds.name, mode, source);
  if (cached) return rendered ? cached.filter((r) => rendered.has(r.id)) : cached;
  const pages = rendered ? ds.pages.filter((p) => rendered.has(p.id)) : ds.pages;
  const out: (PageRecord | null)[] = new Array(pages.length).fill(null);
  let done = 0;
  const failures: string[] = [];
  await runPool(pages.map((p) => ({ task: "record", payload: { dataset: ds.dir, id: p.id, mode } })), (i, v) => {
    if (v instanceof Error) failures.push(`${pages[i]?.id}: ${v.message}`);
    else out[i] = v as PageRecord | null;
    options.onPage?.(++done, pages.length);
  }, options.workers);
  if (failures.length) process.stderr.write(`${ds.name}: ${failures.length} page(s) skipped (${failures.slice(0, 3).join("; ")})\n`);
  const records = out.filter((r): r is PageRecord => r !== null);
  writeCache(ds.name, mode, records, featureSchema().names.length, source);
  return records;
}
