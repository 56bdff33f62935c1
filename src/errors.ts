/**
 * The one-line reason an error record or message gives: the first line of a thrown value's
 * message (or of the value itself, when something else than an Error was thrown), else
 * `fallback` when that line is empty.
 */
export function firstLine(e: unknown, fallback = ""): string {
  return String((e as Error)?.message ?? e).split("\n")[0] || fallback;
}

/** A request the caller got wrong (a bad flag, an output folder that cannot be written): exit 2 at the CLI. */
export class UsageError extends Error {
  override name = "UsageError";
}
