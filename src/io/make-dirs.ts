/**
 * `mkdir -p` that always ends. Node 20's `mkdir(path, { recursive: true })` never returns when
 * the file system refuses a directory with ENOENT under a parent that exists (`--out /proc/x`:
 * it creates the parent again, gets EEXIST, retries the child, forever: a `pith extract` batch
 * spun at 100 % CPU). Here the missing directories are found by walking up to the first one that
 * exists, then made one at a time from the top, each without `recursive`, so any refusal is an
 * error that names the directory. Another process making one of them first (EEXIST on a
 * directory) is fine.
 */
import { mkdirSync, statSync, type Stats } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/** The directories to create, outermost first. */
function missing(path: string): string[] {
  const out: string[] = [];
  for (let p = resolve(path); ; p = dirname(p)) {
    const s = statOrNull(p);
    if (s) {
      if (!s.isDirectory())
        throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${p}'`), {
          code: "ENOTDIR",
          path: p,
        });
      return out.reverse();
    }
    out.push(p);
    if (dirname(p) === p) return out.reverse();
  }
}

function statOrNull(p: string): Stats | null {
  try {
    return statSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** Another process made `p` between our stat and our mkdir. */
function madeMeanwhile(e: unknown, p: string): boolean {
  return (e as NodeJS.ErrnoException).code === "EEXIST" && statOrNull(p)?.isDirectory() === true;
}

/** Creates `path` and its missing parents (synchronously). */
export function makeDirsSync(path: string): void {
  for (const p of missing(path)) {
    try {
      mkdirSync(p);
    } catch (e) {
      if (!madeMeanwhile(e, p)) throw e;
    }
  }
}

/** Creates `path` and its missing parents (the stat calls are synchronous: a few per path). */
export async function makeDirs(path: string): Promise<void> {
  for (const p of missing(path)) {
    try {
      await mkdir(p);
    } catch (e) {
      if (!madeMeanwhile(e, p)) throw e;
    }
  }
}
