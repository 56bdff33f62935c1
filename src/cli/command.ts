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

export class UsageError extends Error {
  override name = "UsageError";
}

export interface Command {
  name: string;
  /** Full help text (usage line, options with defaults, examples). */
  help: string;
  run(argv: string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Parse argv with node:util; unknown options are usage errors with the command's name. */
export function parse<T extends Options>(command: string, argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  } catch (e) {
    // node's message is one line, or three for a value starting with "-" (the last says how to give one)
    const lines = (e as Error).message.split("\n");
    const hint = lines.length > 1 ? ` ${lines[lines.length - 1]}` : "";
    throw new UsageError(`${command}: ${lines[0]}${hint} (see \`pith ${command} --help\`)`);
  }
}

export function intOption(command: string, name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`${command}: --${name} expects a number, got "${value}"`);
  return n;
}

export function listOption(value: string | undefined): string[] {
  return value ? value.split(",").map((s) => s.trim()).filter(Boolean) : [];
}

export type Params = Record<string, string | number | boolean>;

/** Repeated `--param K=V` options → a params object ("true"/"false" → booleans, numbers → numbers). */
export function paramsOption(command: string, list: string[] | undefined): Params {
  const params: Params = {};
  for (const kv of list ?? []) {
    const eq = kv.indexOf("=");
    if (eq < 1) throw new UsageError(`${command}: --param expects K=V, got "${kv}"`);
    const v = kv.slice(eq + 1);
    params[kv.slice(0, eq)] = v === "true" ? true : v === "false" ? false : v !== "" && Number.isFinite(Number(v)) ? Number(v) : v;
  }
  return params;
}
