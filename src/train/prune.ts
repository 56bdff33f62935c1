/**
 * Pruning the training caches. Every feature-schema change starts a new
 * data/cache/<schema-hash>/ folder (1-3 GB for the default sets) and every renderer change a new
 * data/cache/snapshots/chromium/<key>/ folder (about 120 MB); old ones are never read again by
 * this code but stay on disk (they add up to many GB). `npm run cache:prune` removes the
 * folders this pith would not read: feature folders of other schema hashes, and snapshot folders
 * of other renderer keys (kept when the key cannot be computed, i.e. no Chromium installed).
 */
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { featureSchema } from "../features/index.ts";
import { cacheDir } from "./cache-dir.ts";
import { snapshotKey } from "./snapshot-cache.ts";

export interface PruneResult {
  /** Folders removed (or that would be, with dryRun), with their sizes in bytes. */
  removed: { path: string; bytes: number }[];
  /** Folders kept because this pith reads them. */
  kept: string[];
}

/** Total size of the files under `dir`, walked without recursion. */
function sizeOf(dir: string): number {
  let total = 0;
  const pending = [dir];
  while (pending.length) {
    const d = pending.pop() as string;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) pending.push(p);
      else if (e.isFile()) total += statSync(p).size;
    }
  }
  return total;
}

function currentSnapshotKey(): string | null {
  try {
    return snapshotKey();
  } catch {
    return null; // no browser: cannot tell which snapshot folder is current, keep them all
  }
}

/** Removes the cache folders other than the current schema's and the current snapshot key's. */
export function pruneCaches(options: { dryRun?: boolean; root?: string } = {}): PruneResult {
  const root = options.root ?? cacheDir();
  const out: PruneResult = { removed: [], kept: [] };
  if (!existsSync(root)) return out;
  const drop = (path: string): void => {
    out.removed.push({ path, bytes: sizeOf(path) });
    if (!options.dryRun) rmSync(path, { recursive: true, force: true });
  };
  const schema = featureSchema().hash;
  for (const e of readdirSync(root, { withFileTypes: true })) {
    if (!e.isDirectory() || e.name === "snapshots") continue;
    if (e.name === schema) out.kept.push(join(root, e.name));
    else drop(join(root, e.name));
  }
  const snapshots = join(root, "snapshots", "chromium");
  const key = existsSync(snapshots) ? currentSnapshotKey() : null;
  if (key !== null) {
    for (const e of readdirSync(snapshots, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      if (e.name === key) out.kept.push(join(snapshots, e.name));
      else drop(join(snapshots, e.name));
    }
  }
  return out;
}
