/**
 * On-disk cache of PageRecords, one pair of files per dataset and feature schema:
 * data/cache/<schema-hash>/<mode>/<dataset>-<folder hash>.json (page metadata) + .bin (typed arrays,
 * concatenated per page). A feature-schema change gets a new folder, so a stale cache is
 * never read; neither is one built by other renderer, structure or label code (fingerprint).
 * Missing pages are computed in worker threads (both cores) and appended.
 *
 * Site features (`pith train --site-features`): each page of a site with at least SITE_MIN_PAGES
 * labeled pages in the set is computed with the first SITE_MAX_OTHERS other pages of its site (index
 * order) as its site context, as `pith extract --site-features on` reads a batch; those records are
 * cached apart (<mode>-site/), since their site columns are filled.
 *
 * Chromium mode: the set's pages are first rendered into the snapshot cache
 * (snapshot-cache.ts, main thread, one browser), then the workers build the records from those
 * snapshots. The fingerprint then also carries the snapshot cache's key (renderer code and
 * browser version). Pages that failed to render are left out with a counted warning.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { featureSchema } from "../features/index.ts";
import { hasGold, loadDataset, type Dataset, type DatasetPage } from "../io/dataset.ts";
import { makeDirsSync } from "../io/make-dirs.ts";
import { writeAtomicSync } from "../io/write-atomic.ts";
import type { RenderMode } from "../types.ts";
import type { PageRecord } from "./page-record.ts";
import { runPool } from "./pool.ts";
import { cacheDir, codeKey, datasetCacheName, fileStamp } from "./cache-dir.ts";
import { ensureSnapshots, snapshotKey } from "./snapshot-cache.ts";
import { SITE_MIN_PAGES, siteSiblings } from "../io/site-group.ts";
import { SITE_MAX_OTHERS } from "../features/site.ts";
import { siteOf } from "./sites.ts";

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
  /** Fingerprint of the set's files and the code (fingerprint): a changed set is recomputed. */
  source: string;
  schemaHash: string;
  nCols: number;
  pages: PageMeta[];
  /**
   * Labeled pages that made no record when the cache was built → why
   * (optional: caches written before it have none).
   */
  skipped?: Record<string, string>;
}

type Flat = Omit<PageRecord, "classTokens" | "headingTokens"> & {
  classStart: Int32Array;
  classIds: Int32Array;
  headingStart: Int32Array;
  headingIds: Int32Array;
};

/** Typed-array fields in storage order, with their constructors and lengths. */
const FIELDS: readonly (readonly [
  keyof Flat,
  { BYTES_PER_ELEMENT: number },
  (m: PageMeta, nCols: number) => number,
])[] = [
  ["nodes", Int32Array, (m) => m.n],
  ["values", Float32Array, (m, nCols) => m.n * nCols],
  ["main", Uint8Array, (m) => m.n],
  ["good", Uint8Array, (m) => m.n],
  ["share", Float32Array, (m) => m.n],
  ["ownWords", Int32Array, (m) => m.n],
  ["subtreeWords", Int32Array, (m) => m.n],
  ["parentRow", Int32Array, (m) => m.n],
  ["ambiguous", Uint8Array, (m) => m.n],
  ["classStart", Int32Array, (m) => m.n + 1],
  ["classIds", Int32Array, (m) => m.classIds],
  ["paths", Uint32Array, (m) => m.n],
  ["headingStart", Int32Array, (m) => m.n + 1],
  ["headingIds", Int32Array, (m) => m.headingIds],
];

function flat(r: PageRecord): Flat {
  return {
    ...r,
    classStart: r.classTokens.start,
    classIds: r.classTokens.ids,
    headingStart: r.headingTokens.start,
    headingIds: r.headingTokens.ids,
  };
}

/**
 * The cache files of a set: named after it and its folder (two folders named `small` in
 * different places are two sets, not one cache overwritten by turns).
 */
function paths(ds: Dataset, folder: string): { dir: string; json: string; bin: string } {
  const dir = join(cacheDir(), featureSchema().hash, folder);
  const file = datasetCacheName(ds.dir);
  return { dir, json: join(dir, `${file}.json`), bin: join(dir, `${file}.bin`) };
}

/**
 * The module that computes a page's record (render, features, labels, lexicon tokens): the cache
 * keys on it and on everything it imports (codeKey), so an edit to any of that code rebuilds the
 * records, and an edit elsewhere (the classifiers, the CV) does not.
 */
const RECORD_CODE = ["./page-record.ts"];

let codeHash: string | null = null;

/** Hash of the renderer, structure, label and record code: a change there recomputes the cache. */
function codeFingerprint(): string {
  codeHash ??= codeKey(RECORD_CODE);
  return codeHash;
}

/** The folders whose files make a set's records (gold-html: node-level labels where a set has them). */
const SOURCE_FOLDERS = ["html", "gold", "gold-html"];

/**
 * What the set's records are computed from: its index.jsonl and every file of its html/, gold/
 * and gold-html/ folders (name and fileStamp's size and content hash: a gold text edited or a
 * page saved with other bytes is recomputed, not read stale, and a data folder provisioned anew
 * with the same files keeps its cache), the code, and for chromium the snapshot cache's key.
 */
function fingerprint(dir: string, mode: RenderMode): string {
  const h = createHash("sha256");
  const stamp = (path: string, name: string): void => {
    h.update(`${name}\t${fileStamp(path)}\n`);
  };
  stamp(join(dir, "index.jsonl"), "index.jsonl");
  for (const folder of SOURCE_FOLDERS) {
    const path = join(dir, folder);
    if (!existsSync(path)) continue;
    for (const name of readdirSync(path).sort()) stamp(join(path, name), `${folder}/${name}`);
  }
  return `${h.digest("hex").slice(0, 16)}:${codeFingerprint()}${mode === "chromium" ? `:${snapshotKey()}` : ""}`;
}

function writeCache(
  ds: Dataset,
  folder: string,
  records: readonly PageRecord[],
  nCols: number,
  source: string,
  skipped: Record<string, string>,
): void {
  const p = paths(ds, folder);
  makeDirsSync(p.dir);
  const chunks: Buffer[] = [];
  for (const r of records) {
    // a record from other feature code (the source edited while a run's workers were computing)
    // must not be cached under this schema
    if (r.values.length !== r.nodes.length * nCols)
      throw new Error(
        `training cache: ${ds.name}/${r.id} has ${r.values.length / Math.max(1, r.nodes.length)} ` +
          `feature columns, expected ${nCols} (was pith's source changed during the run?)`,
      );
    const f = flat(r);
    for (const [name] of FIELDS) {
      const a = f[name] as Int32Array | Float32Array | Uint8Array;
      chunks.push(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    }
  }
  const pages = records.map((r) => ({
    dataset: r.dataset,
    id: r.id,
    site: r.site,
    pageType: r.pageType,
    genre: r.genre,
    n: r.nodes.length,
    goldWords: r.goldWords,
    classVocab: r.classTokens.vocab,
    classIds: r.classTokens.ids.length,
    headingVocab: r.headingTokens.vocab,
    headingIds: r.headingTokens.ids.length,
  }));
  // the header goes first and comes back last: a run stopped in between
  // leaves no header, so no stale header over new data
  rmSync(p.json, { force: true });
  writeAtomicSync(p.bin, Buffer.concat(chunks));
  writeAtomicSync(
    p.json,
    JSON.stringify({
      format: CACHE_FORMAT,
      source,
      schemaHash: featureSchema().hash,
      nCols,
      pages,
      skipped,
    } satisfies CacheHeader),
  );
}

function readCache(
  ds: Dataset,
  folder: string,
  source: string,
): { records: PageRecord[]; skipped: Record<string, string> } | null {
  const p = paths(ds, folder);
  if (!existsSync(p.json) || !existsSync(p.bin)) return null;
  const header = JSON.parse(readFileSync(p.json, "utf8")) as CacheHeader;
  if (header.format !== CACHE_FORMAT || header.source !== source) return null;
  const bin = readFileSync(p.bin);
  let off = 0;
  const take = <T extends Int32Array | Float32Array | Uint8Array>(
    C: new (b: ArrayBuffer) => T,
    count: number,
    bytes: number,
  ): T => {
    const copy = new Uint8Array(count * bytes);
    copy.set(bin.subarray(off, off + count * bytes));
    off += count * bytes;
    return new C(copy.buffer);
  };
  const records = header.pages.map((m) => {
    const { classVocab, classIds: _count, headingVocab, headingIds: _headingCount, ...meta } = m;
    const rec: Record<string, unknown> = { ...meta };
    for (const [f, C, count] of FIELDS)
      rec[f] = take(
        C as unknown as new (b: ArrayBuffer) => Int32Array,
        count(m, header.nCols),
        C.BYTES_PER_ELEMENT,
      );
    const { classStart, classIds, headingStart, headingIds, ...rest } = rec as unknown as Flat;
    return {
      ...rest,
      classTokens: { vocab: classVocab, start: classStart, ids: classIds },
      headingTokens: { vocab: headingVocab, start: headingStart, ids: headingIds },
    };
  });
  // a data file whose size does not match its header (cut short, or
  // from another write) is rebuilt, not read as garbage
  return off === bin.length ? { records, skipped: header.skipped ?? {} } : null;
}

export interface LoadOptions {
  mode?: RenderMode;
  workers?: number;
  /** Called once per page computed (not for cache hits). */
  onPage?: (done: number, total: number) => void;
  /** Ignore an existing cache. */
  rebuild?: boolean;
  /** Fill the site features from other pages of each page's site (see the header). */
  site?: boolean;
  /**
   * Called for every labeled page that has no record (its HTML missing or unreadable, no chromium
   * render), whether the records were computed now or read from the cache, so a run from the
   * cache reports the same pages as the run that built it.
   */
  onSkip?: (id: string, reason: string) => void;
}

/** Progress of the chromium renders on stderr: a line every RENDER_REPORT_EVERY pages and at the end. */
const RENDER_REPORT_EVERY = 100;

/**
 * Renders the set's pages with gold into the snapshot cache; returns the ids that have a snapshot
 * and, for the others, why not.
 */
async function chromiumSnapshots(
  ds: Dataset,
  pages: readonly DatasetPage[],
): Promise<{ ok: Set<string>; failed: Map<string, string> }> {
  const started = performance.now();
  const result = await ensureSnapshots(ds, pages, {
    onPage: (done, total) => {
      if (done % RENDER_REPORT_EVERY && done !== total) return;
      const s = (performance.now() - started) / 1000;
      process.stderr.write(
        `${ds.name}: rendered ${done}/${total} pages with chromium (${(done / s).toFixed(1)} pages/s)\n`,
      );
    },
  });
  if (result.failed.size) {
    const sample = [...result.failed]
      .slice(0, 3)
      .map(([id, why]) => `${id}: ${why}`)
      .join("; ");
    process.stderr.write(
      `${ds.name}: ${result.failed.size} page(s) skipped, no chromium render (${sample})\n`,
    );
  }
  return { ok: result.ok, failed: result.failed };
}

/** Why the page has no chromium render, when it has none. */
function noRender(failed: Map<string, string> | undefined, id: string): string | undefined {
  const why = failed?.get(id);
  return why === undefined ? undefined : `no chromium render: ${why}`;
}

/** Why a labeled page has no record when the cache that left it out does not say (written before it did). */
const SKIPPED_UNKNOWN = "no record in the training cache (skipped when the cache was built)";

/** Names on stderr the pages of `ds` left out for lack of a gold file. */
function warnWithoutGold(ds: Dataset): void {
  const missing = ds.pages.filter((p) => !hasGold(ds, p)).map((p) => p.id);
  process.stderr.write(
    `${ds.name}: ${missing.length} page(s) left out, no gold file ` +
      `(${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", …" : ""})\n`,
  );
}

/**
 * Page id → the ids of the first SITE_MAX_OTHERS other pages of its site (index order), for the
 * pages of sites with at least SITE_MIN_PAGES of `pages`.
 */
function siblingIds(pages: readonly DatasetPage[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [p, { others }] of siteSiblings(pages, siteOf, SITE_MIN_PAGES))
    out.set(
      p.id,
      others.slice(0, SITE_MAX_OTHERS).map((q) => q.id),
    );
  return out;
}

/** Records of every page with gold in `dataset`, from the cache or computed (and cached). */
export async function loadRecords(dataset: string, options: LoadOptions = {}): Promise<PageRecord[]> {
  const mode = options.mode ?? "static";
  const ds = loadDataset(dataset);
  const labeled = ds.pages.filter((p) => hasGold(ds, p));
  if (labeled.length < ds.pages.length) warnWithoutGold(ds);
  const chromium = mode === "chromium" ? await chromiumSnapshots(ds, labeled) : null;
  const rendered = chromium?.ok ?? null;
  const site = options.site === true;
  // which siblings a page gets is decided here, outside the record code the fingerprint hashes
  const source = fingerprint(ds.dir, mode) + (site ? `:site-${SITE_MIN_PAGES}-${SITE_MAX_OTHERS}` : "");
  const folder = site ? `${mode}-site` : mode;
  const cached = options.rebuild ? null : readCache(ds, folder, source);
  if (cached) {
    const records = rendered ? cached.records.filter((r) => rendered.has(r.id)) : cached.records;
    const have = new Set(records.map((r) => r.id));
    // render failures were reported above
    const skipped = labeled.filter((p) => !have.has(p.id) && !chromium?.failed.has(p.id));
    if (skipped.length)
      process.stderr.write(
        `${ds.name}: ${skipped.length} page(s) skipped, as when the training cache was built (${skipped
          .slice(0, 3)
          .map((p) => `${p.id}: ${cached.skipped[p.id] ?? SKIPPED_UNKNOWN}`)
          .join("; ")})\n`,
      );
    for (const p of labeled)
      if (!have.has(p.id))
        options.onSkip?.(p.id, noRender(chromium?.failed, p.id) ?? cached.skipped[p.id] ?? SKIPPED_UNKNOWN);
    return records;
  }
  const pages = rendered ? labeled.filter((p) => rendered.has(p.id)) : labeled;
  const { records, failures } = await computeRecords(ds, pages, mode, site, options);
  writeCache(ds, folder, records, featureSchema().names.length, source, failures);
  const have = new Set(records.map((r) => r.id));
  for (const p of labeled)
    if (!have.has(p.id))
      options.onSkip?.(p.id, noRender(chromium?.failed, p.id) ?? failures[p.id] ?? SKIPPED_UNKNOWN);
  return records;
}

/** Pages a and b grouped by site: sites by key, pages of one site in index order. */
function siteRank(pages: readonly DatasetPage[], a: number, b: number): number {
  const sa = siteOf(pages[a] as DatasetPage);
  const sb = siteOf(pages[b] as DatasetPage);
  return sa === sb ? a - b : sa < sb ? -1 : 1;
}

/** The records of `pages`, computed on worker threads, and why the others failed. */
async function computeRecords(
  ds: Dataset,
  pages: readonly DatasetPage[],
  mode: RenderMode,
  site: boolean,
  options: LoadOptions,
): Promise<{ records: PageRecord[]; failures: Record<string, string> }> {
  const out: (PageRecord | null)[] = new Array(pages.length).fill(null);
  let done = 0;
  const failures: Record<string, string> = {};
  const siblings = site ? siblingIds(pages) : new Map<string, string[]>();
  // with siblings, a site's pages go out one after another, so that a worker renders each sibling
  // once for all of them (page-record.ts keeps the last ones); the records keep the index order
  const order = pages.map((_, i) => i);
  if (site) order.sort((a, b) => siteRank(pages, a, b));
  await runPool(
    order.map((k) => ({
      task: "record",
      payload: {
        dataset: ds.dir,
        id: (pages[k] as DatasetPage).id,
        mode,
        ...(siblings.has((pages[k] as DatasetPage).id)
          ? { siblings: siblings.get((pages[k] as DatasetPage).id) }
          : {}),
      },
    })),
    (j, v) => {
      const i = order[j] as number;
      if (v instanceof Error) failures[pages[i]?.id as string] = v.message.split("\n")[0] as string;
      else out[i] = v as PageRecord | null;
      options.onPage?.(++done, pages.length);
    },
    options.workers,
  );
  const failed = Object.entries(failures);
  if (failed.length)
    process.stderr.write(
      `${ds.name}: ${failed.length} page(s) skipped (${failed
        .slice(0, 3)
        .map(([id, why]) => `${id}: ${why}`)
        .join("; ")})\n`,
    );
  return { records: out.filter((r): r is PageRecord => r !== null), failures };
}
