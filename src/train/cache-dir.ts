/**
 * Root of pith's on-disk training caches (feature tables, chromium snapshots): $PITH_CACHE,
 * else data/cache/ in the repository (gitignored), and the code hash both caches key on. Its own
 * file so both caches can use it without importing each other.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { PITH_ROOT } from "../paths.ts";

/**
 * First 12 hex characters of the sha256 of the modules `entries` (paths relative to src/train/)
 * and of every module they import, transitively (moduleClosure), followed by `extra`: a cache
 * keyed on it is rebuilt when any code that makes its content changes. The hand-kept list of
 * files this replaced left out most of the feature code under src/features/ and the
 * ownership and dedupe steps: an edit there would have left a cache of older code valid, and
 * `npm run train:default` would have trained on records that extraction no longer computes.
 */
export function codeKey(entries: readonly string[], extra = ""): string {
  const h = createHash("sha256");
  for (const path of moduleClosure(entries.map((f) => resolve(PITH_ROOT, "src/train", f)))) {
    h.update(`${relative(PITH_ROOT, path)}\n`);
    h.update(existsSync(path) ? readFileSync(path) : "(missing)");
  }
  h.update(extra);
  return h.digest("hex").slice(0, 12);
}

/**
 * A file's stamp in the caches' keys: its size and the first 12 hex characters of its content's
 * sha256, "missing" when there is none. Content, not mtime: the same bytes copied again (a data
 * folder provisioned anew, a checkout) keep their caches, and an edit that keeps the size and
 * the mtime still counts. Hashing the default sets' 9,400 files (about 130 MB) takes about 0.4-0.6 s.
 */
export function fileStamp(path: string): string {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return "missing";
  return `${st.size}-${createHash("sha256").update(readFileSync(path)).digest("hex").slice(0, 12)}`;
}

/**
 * A relative module specifier in a source file: `from "../dom/tree.ts"`, `import("../a.ts")`,
 * `new URL("./worker.ts", …)`.
 */
const RELATIVE_MODULE = /["'](\.{1,2}\/[^"'\n]+\.(?:ts|js|mjs))["']/g;
/** A type-only import or re-export (`import type { A } from "./a.ts"`): no code of that module runs. */
const TYPE_ONLY = /^\s*(?:import|export)\s+type\s[^;]*?from\s*["'][^"']+["'];?/gm;
/** A block comment, or a line comment that starts a line or follows a space (not the `//` of a URL). */
const COMMENT = /\/\*[\s\S]*?\*\/|(?:^|(?<=\s))\/\/.*$/gm;

/**
 * The absolute paths of `entries` and of every module they name by a relative path, transitively,
 * sorted. Comments and type-only imports are left out (no code of theirs runs); any other quoted
 * relative module path counts (a worker's `new URL(…)`: a needless rebuild rather than a stale
 * cache). Walked with a stack, each file read once.
 */
export function moduleClosure(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const pending = [...entries];
  while (pending.length) {
    const path = pending.pop() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    if (!existsSync(path)) continue;
    for (const m of readFileSync(path, "utf8")
      .replace(COMMENT, "")
      .replace(TYPE_ONLY, "")
      .matchAll(RELATIVE_MODULE))
      pending.push(resolve(dirname(path), m[1] as string));
  }
  return [...seen].sort();
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
