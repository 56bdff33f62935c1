/** The inputs of a command that reads pages: its positional specs, then those of --input-list. */
import { accessSync, constants, statSync } from "node:fs";
import { inputList, readErrorReason, type InputSpecs } from "../io/inputs.ts";
import { UsageError } from "./command.ts";

export const INPUT_FLAGS = { "input-list": { type: "string" } } as const;

export const INPUT_HELP =
  "  --input-list FILE  more inputs from FILE, one per line (files, directories, URLs, WARCs), read as\n" +
  "                     the batch goes, so a list of millions fits; - reads the list from stdin";

export interface Inputs {
  specs: InputSpecs;
  /** True when the inputs come (also) from a list: how many there are is not known up front. */
  listed: boolean;
}

/**
 * Positional specs followed by the list's; a usage error when there are none, or stdin is asked for twice.
 */
export function commandInputs(
  command: string,
  positionals: readonly string[],
  list: string | undefined,
): Inputs {
  if (!positionals.length && !list)
    throw new UsageError(
      `${command}: give at least one input (file, directory, URL or -), or --input-list FILE`,
    );
  if (list === "-" && positionals.includes("-"))
    throw new UsageError(`${command}: stdin cannot be both a page (-) and the input list (--input-list -)`);
  if (!list) return { specs: positionals, listed: false };
  if (list !== "-") checkReadable(command, list);
  return {
    specs: (async function* () {
      yield* positionals;
      yield* inputList(list);
    })(),
    listed: true,
  };
}

function checkReadable(command: string, file: string): void {
  try {
    if (statSync(file).isDirectory())
      throw new UsageError(`${command}: --input-list ${file} is a directory (give it as an input instead)`);
    accessSync(file, constants.R_OK);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${command}: cannot read --input-list ${file}: ${readErrorReason(e)}`);
  }
}
