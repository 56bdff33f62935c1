/**
 * pith's command-line entry: dispatch to one command file per command. The only module with
 * process-level side effects (exit codes, uncaught error reporting).
 */
import { EXIT, UsageError, type Command } from "./command.ts";

interface CommandEntry {
  name: string;
  summary: string;
  /**
   * Imports the command's module: a command loads only what it uses
   * (training code is not parsed to extract a page).
   */
  load: () => Promise<Command>;
}

/** Every command, in the order `pith --help` lists them, with the line it shows for each. */
const COMMANDS: readonly CommandEntry[] = [
  {
    name: "extract",
    summary: "extract the main content of pages (text, markdown, html, json)",
    load: async () => (await import("./extract.ts")).extractCommand,
  },
  {
    name: "predict",
    summary: "score every node with the classifiers, before rules and refiners (JSON lines)",
    load: async () => (await import("./predict.ts")).predictCommand,
  },
  {
    name: "evaluate",
    summary: "score methods and peers on labeled datasets (Markdown tables, JSON)",
    load: async () => (await import("./evaluate.ts")).evaluateCommand,
  },
  {
    name: "render",
    summary: "render pages into page snapshots (JSON)",
    load: async () => (await import("./render.ts")).renderCommand,
  },
  {
    name: "features",
    summary: "write per-node features (and gold labels) as a JSONL/CSV table",
    load: async () => (await import("./features.ts")).featuresCommand,
  },
  {
    name: "train",
    summary: "train the learned pipeline on labeled sets (site-grouped CV report, model JSON)",
    load: async () => (await import("./train.ts")).trainCommand,
  },
  {
    name: "studio",
    summary: "a local web app: see what pith kept and why, label pages by clicking",
    load: async () => (await import("./studio.ts")).studioCommand,
  },
  {
    name: "export",
    summary: "write an installed per-domain model to a file",
    load: async () => (await import("./export.ts")).exportCommand,
  },
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
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    process.stderr.write(`pith: unknown command "${name}"\n\n${mainHelp()}\n`);
    return EXIT.usage;
  }
  const command = await entry.load();
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

// Signals: see src/exit-on-signal.ts (handled only while something must be given back at exit).

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  const err = e as Error;
  process.stderr.write(`pith: ${err.message}\n`);
  if (process.env["PITH_DEBUG"] && err.stack) process.stderr.write(err.stack + "\n");
  process.exitCode = e instanceof UsageError ? EXIT.usage : EXIT.fatal;
}
