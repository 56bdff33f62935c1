/**
 * Root of pith's on-disk training caches (feature tables, chromium snapshots): $PITH_CACHE,
 * else data/cache/ in the repository (gitignored). Its own file so both caches can use it
 * without importing each other.
 */
import { resolve } from "node:path";

export function cacheDir(): string {
  return process.env["PITH_CACHE"] ? resolve(process.env["PITH_CACHE"]) : resolve(import.meta.dirname, "../../data/cache");
}
