/**
 * Writing a file whole or not at all: the data goes to a temporary name in the same directory
 * and is renamed over the target, so a reader (or a resumed batch, or a training run after an
 * interrupted one) never finds a truncated file under the real name. A target that exists and is
 * not a regular file (`--out /dev/null`, a named pipe) is written in place: a rename would put a
 * regular file where the device was.
 */
import { renameSync, rmSync, statSync, writeFileSync, type Stats } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { makeDirs, makeDirsSync } from "./make-dirs.ts";

function tempName(path: string): string {
  return `${path}.${process.pid}.partial`;
}

/** True when `path` exists and is not a regular file (a device, a pipe). */
function special(path: string): boolean {
  return isSpecial(statSync(path, { throwIfNoEntry: false }) ?? null);
}

function isSpecial(s: Stats | null): boolean {
  return s !== null && !s.isFile() && !s.isDirectory();
}

/** Writes `data` to `path` through a temporary file and a rename, creating the directory. */
export async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  if (special(path)) return writeFile(path, data);
  await makeDirs(dirname(path));
  const temp = tempName(path);
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/**
 * writeAtomic for synchronous code. A caller that has looked at the target already passes
 * `known`: its stats (null: there is none), and `dirMade` when its directory exists, so a
 * batch's page file costs a write and a rename, not three stats more.
 */
export function writeAtomicSync(
  path: string,
  data: string | Uint8Array,
  known?: { target: Stats | null; dirMade: boolean },
): void {
  if (known ? isSpecial(known.target) : special(path)) return writeFileSync(path, data);
  if (!known?.dirMade) makeDirsSync(dirname(path));
  const temp = tempName(path);
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}
