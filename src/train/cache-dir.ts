/**
 * Root of pith's on-disk training caches (feature tables, chromium snapshots): $PITH_CACHE,
 * else data/cache/ in the repository (gitignored), and the code hash both caches key on. Its own
 * file so both caches can use it without importing each other.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { PITH_ROOT } from "../paths.ts";

/**
 * First 12 hex characters of the sha256 of `files` (paths relative to src/train/; a missing file
 * hashes its name) followed by `extra`: a cache keyed on it is rebuilt when that code changes.
 */
export function codeKey(files: readonly string[], extra = ""): string {
  const h = createHash("sha256");
  for (const f of files) {
    const path = resolve(PITH_ROOT, "src/train", f);
    h.update(existsSync(path) ? readFileSync(path) : f);
  }
  h.update(extra);
  return h.digest("hex").slice(0, 12);
}

/**
 * A dataset's name in the caches: its folder's name and a hash of its absolute path, so two
 * folders of one name in different places (`--data small,x/small`) are two caches, not one
 * overwritten by turns.
 */
export function datasetCacheName(dir: string): string {
  const base = resolve(dir).split("/").pop() ?? "dataset";
  return `${base}-${createHash("sha256").update(resolve(dir)).digest("hex").slice(0, 8)}`;
}

export function cacheDir(): string {
  return process.env["PITH_CACHE"] ? resolve(process.env["PITH_CACHE"]) : resolve(PITH_ROOT, "data/cache");
}
