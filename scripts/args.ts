/**
 * Command-line options of the npm scripts (bench:*, train:default, cache:prune): `--help` / `-h`
 * prints the script's usage and exits 0; an unknown option, a missing value or a number that is
 * not one prints a one-line error and the usage, and exits 2 (EXIT.usage, as `pith` does), instead
 * of node:util's stack trace or a run that silently uses NaN.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { EXIT } from "../src/cli/command.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O }>>["values"];

/** Parses process.argv for a script whose usage text is `usage` (first line "Usage: ..."). */
export function scriptArgs<const O extends Options>(usage: string, options: O): Values<O> {
  try {
    const { values } = parseArgs({
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: false,
    });
    if ((values as { help?: boolean }).help) {
      process.stdout.write(`${usage.trim()}\n`);
      process.exit(EXIT.ok);
    }
    return values as Values<O>;
  } catch (err) {
    return usageError(usage, (err as Error).message);
  }
}

/** A whole number ≥ `min` from option `name`'s value, `fallback` when the option is absent. */
export function intOption(
  usage: string,
  name: string,
  raw: string | undefined,
  fallback: number,
  min = 1,
): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min
    ? n
    : usageError(usage, `--${name} must be a whole number ≥ ${min}, not "${raw}"`);
}

/** Prints `message` and the usage on stderr and exits 2. */
export function usageError(usage: string, message: string): never {
  process.stderr.write(`error: ${message}\n\n${usage.trim()}\n`);
  process.exit(EXIT.usage);
}
