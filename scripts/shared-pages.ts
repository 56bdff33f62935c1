/** The page files of the shared labeled sets, the benchmarks' long batches (bench:memory, bench:queue). */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

/** The shared sets: $PITH_DATA, else ../shared/data beside the checkout. */
export const SHARED_DATA = process.env["PITH_DATA"] ?? resolve(import.meta.dirname, "../../shared/data");

/** Every page file of the shared sets, in set and name order. */
export function sharedPages(): string[] {
  if (!existsSync(SHARED_DATA)) throw new Error(`no shared sets at ${SHARED_DATA} (set PITH_DATA)`);
  return readdirSync(SHARED_DATA)
    .filter((set) => existsSync(join(SHARED_DATA, set, "html")))
    .sort()
    .flatMap((set) =>
      readdirSync(join(SHARED_DATA, set, "html"))
        .sort()
        .map((f) => join(SHARED_DATA, set, "html", f)),
    );
}
