/**
 * The shape of a pith command and the small helpers every command shares: argument parsing
 * (node:util parseArgs, no framework), help text, exit codes, and a progress bar on stderr.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/**
 * Exit codes: 0 all pages fine, 1 some pages failed (batch finished), 2 usage error, 3 fatal;
 * 129 / 130 / 143 ended by SIGHUP / SIGINT / SIGTERM (128 + the signal's number, as shells report
 * it: src/exit-on-signal.ts SIGNAL_EXIT).
 */
export const EXIT = { ok: 0, pageErrors: 1, usage: 2, fatal: 3 } as const;

import { UsageError } from "../errors.ts";

export { UsageError };

export interface Command {
  name: string;
  /** Full help text (usage line, options with defaults, examples). */
  help: string;
  /** The help of the subcommand `argv` names, for a command that has subcommands (`pith queue submit --help`). */
  helpFor?: (argv: string[]) => string;
  run(argv: string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Parse argv with node:util; unknown options are usage errors with the command's name. */
export function parse<T extends Options>(command: string, argv: string[], options: T) {
  try {
    return parseArgs({
      args: argv,
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new UsageError(
      `${command}: ${parseProblem(e as Error & { code?: string })} (see \`pith ${command} --help\`)`,
    );
  }
}

/**
 * node's parseArgs message, in one line of our own words where node's is long or garbled (its
 * unknown-option hint quotes unevenly; a negative number reads as "ambiguous").
 */
function parseProblem(e: Error & { code?: string }): string {
  const lines = e.message.split("\n");
  const option = /'(--?[^' ]+)/.exec(lines[0] ?? "")?.[1];
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option) return `unknown option ${option}`;
  if (/ambiguous/.test(lines[0] ?? "") && option)
    return `${option} is missing its value (one that starts with "-" is written ${option}=-value)`;
  return lines.join(" ").replace(/\s+/g, " ").trim();
}

export function intOption(
  command: string,
  name: string,
  value: string | undefined,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`${command}: --${name} expects a number, got "${value}"`);
  return n;
}

export function listOption(value: string | undefined): string[] {
  return value
    ? value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

export type Params = Record<string, string | number | boolean>;

/** Repeated `--param K=V` options → a params object ("true"/"false" → booleans, numbers → numbers). */
export function paramsOption(command: string, list: string[] | undefined): Params {
  const params: Params = {};
  for (const kv of list ?? []) {
    const eq = kv.indexOf("=");
    if (eq < 1) throw new UsageError(`${command}: --param expects K=V, got "${kv}"`);
    const v = kv.slice(eq + 1);
    params[kv.slice(0, eq)] =
      v === "true" ? true : v === "false" ? false : v !== "" && Number.isFinite(Number(v)) ? Number(v) : v;
  }
  return params;
}
