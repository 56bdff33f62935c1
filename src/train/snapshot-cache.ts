/**
 * Cache of Chromium renders of dataset pages, for chromium-mode training:
 * <cache>/snapshots/chromium/<key>/<dataset>-<folder hash>/<id>.<html size>-<html content
 * hash>.json.gz (the raw PageSnapshot, gzipped
 * JSON). Raw snapshots, not features: a feature change (a new schema hash) recomputes the
 * feature tables from these files in seconds per set instead of rendering again for minutes.
 *
 * Choices:
 * - <key> hashes the Chromium renderer's code (chromium.ts, its tabs
 *   and policy, in-page.ts, attributes.ts, the
 *   markup repair it shares with the static renderer in repair.ts, the snapshot types) and
 *   the browser's `--version`: a renderer or browser change writes a new folder and stale
 *   renders are never read. Pages are keyed by their set's folder, their id and their HTML
 *   file's size and content hash (fileStamp: a page saved with other bytes is rendered again, the
 *   same bytes copied anew are not). The stale render stays in its folder: `npm run cache:prune`
 *   removes whole folders of other renderer keys, not single files.
 * - Rendering uses pith's own renderer with its defaults (JS off, offline, 15 s per page,
 *   2 tabs), in the main thread, before the feature workers start: one browser for the whole
 *   set instead of one per worker.
 * - A page that fails to render is skipped and counted in a warning. A render error is
 *   remembered in <id>.error.txt (the reason), so later runs skip the page (delete the file to
 *   retry); a timeout is not, since under load it is often transient (a forum page that timed
 *   out at load average 9 rendered at the next run).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { readDatasetPage, type Dataset, type DatasetPage } from "../io/dataset.ts";
import { makeDirsSync } from "../io/make-dirs.ts";
import { writeAtomic } from "../io/write-atomic.ts";
import { findChromium } from "../render/find-browser.ts";
import { createRenderer, mapLimit, renderPage } from "../render/index.ts";
import type { PageSnapshot } from "../types.ts";
import { cacheDir, codeKey, datasetCacheName, fileStamp } from "./cache-dir.ts";

/** The modules that make a chromium snapshot: the cache keys on them and everything they import (codeKey). */
const RENDERER_CODE = ["../render/chromium.ts", "../render/in-page.ts"];

/**
 * Environment variable that pins the key for a whole run: the first thread to compute it sets
 * it, and worker threads inherit it, so a renderer file edited while a training run is going
 * cannot send the feature workers to another folder than the one the main thread rendered into
 * (that happened: every page "had no cached snapshot").
 */
export const SNAPSHOT_KEY_ENV = "PITH_SNAPSHOT_KEY";

/** Renderer-code + browser-version key of the cache folder (computed once per run, see SNAPSHOT_KEY_ENV). */
export function snapshotKey(): string {
  const pinned = process.env[SNAPSHOT_KEY_ENV];
  if (pinned) return pinned;
  const key = codeKey(RENDERER_CODE, browserVersion());
  process.env[SNAPSHOT_KEY_ENV] = key;
  return key;
}

/** `chromium --version`, e.g. "Chromium 156.0.8078.79 built on Debian …". */
function browserVersion(): string {
  const out = execFileSync(findChromium(), ["--version"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    timeout: 30_000,
  });
  return out.trim().split("\n").pop() ?? "";
}

export function snapshotDir(ds: Dataset): string {
  return join(cacheDir(), "snapshots", "chromium", snapshotKey(), datasetCacheName(ds.dir));
}

/**
 * A render's file: named after the page and its HTML file's size and content hash, so a page saved
 * with other bytes is rendered again.
 */
function snapshotPath(ds: Dataset, id: string): string {
  const stamp = fileStamp(join(ds.dir, "html", `${id}.html.gz`));
  return join(snapshotDir(ds), `${encodeURIComponent(id)}.${stamp}.json.gz`);
}

function errorPath(ds: Dataset, id: string): string {
  return join(snapshotDir(ds), `${encodeURIComponent(id)}.error.txt`);
}

/** The cached chromium snapshot of a dataset page, or null when it was not rendered (or failed). */
export async function readCachedSnapshot(ds: Dataset, id: string): Promise<PageSnapshot | null> {
  const path = snapshotPath(ds, id);
  if (!existsSync(path)) return null;
  return JSON.parse(gunzipSync(await readFile(path)).toString("utf8")) as PageSnapshot;
}

export interface EnsureResult {
  /** Pages with a cached snapshot after the call. */
  ok: Set<string>;
  rendered: number;
  /** id → reason, for pages that failed now or before. */
  failed: Map<string, string>;
}

export interface EnsureOptions {
  /** Called after each page rendered now (not for cache hits). */
  onPage?: (done: number, total: number) => void;
}

/** Renders (and caches) every given page without a cached snapshot or a recorded failure. */
export async function ensureSnapshots(
  ds: Dataset,
  pages: readonly DatasetPage[],
  options: EnsureOptions = {},
): Promise<EnsureResult> {
  const dir = snapshotDir(ds);
  makeDirsSync(dir);
  const ok = new Set<string>();
  const failed = new Map<string, string>();
  const missing: DatasetPage[] = [];
  for (const p of pages) {
    if (existsSync(snapshotPath(ds, p.id))) ok.add(p.id);
    else if (existsSync(errorPath(ds, p.id)))
      failed.set(p.id, readFileSync(errorPath(ds, p.id), "utf8").trim());
    else missing.push(p);
  }
  if (!missing.length) return { ok, rendered: 0, failed };
  const renderer = await createRenderer("chromium");
  let done = 0;
  const renderOne = async (p: DatasetPage): Promise<void> => {
    const r = await renderPage(renderer, await readDatasetPage(ds, p));
    if (r.ok) {
      // a render cut short leaves no truncated snapshot
      await writeAtomic(snapshotPath(ds, p.id), gzipSync(JSON.stringify(r.value)));
      ok.add(p.id);
    } else {
      const reason = r.error.reason.startsWith(r.error.stage)
        ? r.error.reason
        : `${r.error.stage}: ${r.error.reason}`;
      if (r.error.stage !== "timeout") await writeFile(errorPath(ds, p.id), reason + "\n");
      failed.set(p.id, reason);
    }
    options.onPage?.(++done, missing.length);
  };
  try {
    const limit = "concurrency" in renderer ? Number(renderer.concurrency) : 2;
    await mapLimit(missing, limit, renderOne, () => {});
  } finally {
    await renderer.close();
  }
  return { ok, rendered: missing.length, failed };
}
