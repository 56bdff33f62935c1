/**
 * pith's command-line entry: dispatch to one command file per command. The only module with
 * process-level side effects (exit codes, uncaught error reporting).
 */
import { EXIT, UsageError, type Command } from "./command.ts";
import { evaluateCommand } from "./evaluate.ts";
import { exportCommand } from "./export.ts";
import { extractCommand } from "./extract.ts";
import { featuresCommand } from "./features.ts";
import { renderCommand } from "./render.ts";
import { trainCommand } from "./train.ts";

/** Every command, in the order `pith --help` lists them. */
const COMMANDS: Command[] = [
  extractCommand,
  evaluateCommand,
  renderCommand,
  featuresCommand,
  trainCommand,
  exportCommand,
];

const VERSION = "0.1.0";

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "pith — find the main content of web pages with machine learning",
    "",
    "Usage: pith <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Run `pith <command> --help` for a command's options.",
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(mainHelp() + "\n");
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === "--version" || name === "-v") {
    process.stdout.write(VERSION + "\n");
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`pith: unknown command "${name}"\n\n${mainHelp()}\n`);
    return EXIT.usage;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(command.help.trimEnd() + "\n");
    return EXIT.ok;
  }
  return command.run(rest);
}

// The reader of our stdout went away (`pith extract dir | head`): stop quietly, as Unix tools do.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
  process.exit(EXIT.ok);
});

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  const err = e as Error;
  process.stderr.write(`pith: ${err.message}\n`);
  if (process.env["PITH_DEBUG"] && err.stack) process.stderr.write(err.stack + "\n");
  process.exitCode = e instanceof UsageError ? EXIT.usage : EXIT.fatal;
}
