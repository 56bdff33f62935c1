/**
 * A file a command writes when it is done (`evaluate --json`, `features --out`), checked before
 * the work starts: a typo in its folder, a directory in its place or a folder without write
 * permission is one usage error up front, not a failure after an hour of evaluation that loses
 * the report. The parent folders are made (src/io/make-dirs.ts).
 */
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { firstLine } from "../errors.ts";
import { makeDirs } from "../io/make-dirs.ts";
import { UsageError } from "./command.ts";

export async function checkOutputFile(command: string, flag: string, path: string): Promise<void> {
  try {
    await makeDirs(dirname(path));
    const s = await stat(path).catch(() => null);
    if (s?.isDirectory()) throw new Error("it is a directory");
    // a device or pipe (/dev/stdout) is written in place; a file goes
    // through a temporary beside it (write-atomic.ts)
    await access(s && !s.isFile() ? path : dirname(path), constants.W_OK);
  } catch (e) {
    throw new UsageError(`${command}: cannot write ${flag} ${path}: ${firstLine((e as Error).message)}`);
  }
}
