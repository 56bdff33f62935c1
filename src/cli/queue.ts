/**
 * `pith queue`: `pith extract` over many machines, on BullMQ and Redis (src/queue/). `submit`
 * cuts inputs into jobs, `worker` runs them (src/cli/queue-worker.ts), `status` watches a run
 * (src/cli/queue-status.ts), `retry` and `clean` act on one.
 */
import { resolve } from "node:path";
import { OutputDir } from "../batch/output-files.ts";
import { FORMAT_EXTENSION } from "../output/index.ts";
import { planJobs, DEFAULT_JOB_SIZE } from "../queue/jobs.ts";
import { runId } from "../queue/run.ts";
import { cleanRun, retryRun } from "../queue/status.ts";
import { submitJobs } from "../queue/submit.ts";
import { EXIT, UsageError, intOption, parse, type Command } from "./command.ts";
import { EXTRACT_FLAGS, extractPlan, type ExtractValues } from "./extract.ts";
import { commandInputs, INPUT_HELP } from "./input-flags.ts";
import { connect, namedRun, REDIS_FLAG, REDIS_HELP, type Subcommand } from "./queue-connection.ts";
import { statusCommand } from "./queue-status.ts";
import { workerCommand } from "./queue-worker.ts";

const SUBMIT_FLAGS = (() => {
  const { workers: _w, "skip-existing": _s, ...extract } = EXTRACT_FLAGS;
  return { ...extract, ...REDIS_FLAG, "job-size": { type: "string" }, attempts: { type: "string" } } as const;
})();

/** Extract's flags of a run, as the workers re-read them: paths absolute, other values as given. */
function extractArgv(values: ExtractValues): string[] {
  const argv: string[] = [];
  const skip = new Set(["out", "input-list", "workers", "skip-existing"]);
  for (const name of Object.keys(EXTRACT_FLAGS)) {
    const value = (values as Record<string, string | boolean | string[] | undefined>)[name];
    if (value === undefined || value === false || skip.has(name)) continue;
    const path = name === "model" || name === "model-dir";
    for (const v of Array.isArray(value) ? value : [value])
      argv.push(`--${name}`, ...(v === true ? [] : [path ? resolve(String(v)) : String(v)]));
  }
  return argv;
}

function positiveInt(command: string, name: string, value: string | undefined, fallback: number): number {
  const n = intOption(command, name, value, fallback);
  if (n < 1 || !Number.isInteger(n))
    throw new UsageError(`${command}: --${name} must be a whole number, 1 or more`);
  return n;
}

const SUBMIT_HELP = `Usage: pith queue submit <input...> --out DIR [options] [extract options]
       pith queue submit --input-list FILE --out DIR [options] [extract options]

Cut inputs into jobs on the queue: each WARC file is a job, other pages and URLs go in chunks of
--job-size. Prints the run's id and its job count. The run is --out with the extract options:
submitting the same inputs to it again skips the jobs already done (job ids are hashes of the run
and the inputs), and workers write each page under --out with the name \`pith extract --out\` gives it.
Paths must name the same files on every worker machine (a shared or synced folder).

Options:
${INPUT_HELP}
  --out DIR          the run's output folder (required): one file per page, as pith extract --out
${REDIS_HELP}
  --job-size N       pages or URLs per job (default ${DEFAULT_JOB_SIZE}); a WARC is always one job
  --attempts N       tries of a job that fails before it is marked failed (default 3)
  extract options    --method, --format, --no-images, --model, --model-dir, --param, --mode, --timeout,
                     --concurrency, --network, --js, --resources: as pith extract (see its --help)
  -h, --help         this help

Exit codes: 0 submitted, 2 usage error (no inputs, an --out that cannot be made), 3 Redis unreachable.`;

const submitCommand: Subcommand = {
  help: SUBMIT_HELP,
  async run(argv) {
    const { values, positionals } = parse("queue submit", argv, SUBMIT_FLAGS);
    const inputs = commandInputs("queue submit", positionals, values["input-list"]);
    const plan = extractPlan("queue submit", values);
    if (!values.out) throw new UsageError("queue submit: give --out DIR (the folder every worker writes to)");
    const out = resolve(values.out);
    await OutputDir.open("queue submit", out, FORMAT_EXTENSION[plan.format]);
    const size = positiveInt("queue submit", "job-size", values["job-size"], DEFAULT_JOB_SIZE);
    const attempts = positiveInt("queue submit", "attempts", values.attempts, 3);
    const flags = extractArgv(values);
    const c = await connect("queue submit", values.redis);
    try {
      const run = { id: runId(out, flags), out, argv: flags, created: Date.now() };
      const roots = new Set<string>();
      const inside = !inputs.listed && positionals.length === 1;
      const jobs = planJobs(inputs.specs, { cwd: process.cwd(), size, inside, roots });
      const s = await submitJobs({ redis: c.redis, queue: c.queue, run, attempts }, jobs, roots);
      if (!s.jobs) throw new UsageError("queue submit: the inputs gave no jobs (an empty --input-list?)");
      process.stdout.write(
        `${run.id}\t${s.jobs} job(s): ${s.added} added, ${s.done} already done, ${s.queued} already in the queue\n`,
      );
      return EXIT.ok;
    } finally {
      await c.close();
    }
  },
};

const RUN_HELP = (verb: string, what: string) => `Usage: pith queue ${verb} RUN [--redis URL]

${what}

Options:
${REDIS_HELP}
  -h, --help         this help`;

const retryCommand: Subcommand = {
  help: RUN_HELP("retry", "Put the run's failed jobs back in the queue, with fresh attempts."),
  async run(argv) {
    const { values, positionals } = parse("queue retry", argv, REDIS_FLAG);
    const c = await connect("queue retry", values.redis);
    try {
      const run = await namedRun("queue retry", c, positionals[0]);
      const n = await retryRun(c.queue, run.id);
      process.stdout.write(`${run.id}\t${n} failed job(s) back in the queue\n`);
      return EXIT.ok;
    } finally {
      await c.close();
    }
  },
};

const cleanCommand: Subcommand = {
  help: RUN_HELP(
    "clean",
    "Remove the run's jobs and keys from Redis (its output files stay). Refused while workers run\n" +
      "some of its jobs (exit 1): stop them, or wait.",
  ),
  async run(argv) {
    const { values, positionals } = parse("queue clean", argv, REDIS_FLAG);
    const c = await connect("queue clean", values.redis);
    try {
      const run = await namedRun("queue clean", c, positionals[0]);
      const { removed, active } = await cleanRun(c.redis, c.queue, run.id);
      if (active) {
        process.stderr.write(
          `pith: queue clean: ${active} job(s) of run ${run.id} are running: stop their workers or wait\n`,
        );
        return EXIT.pageErrors;
      }
      process.stdout.write(`${run.id}\tremoved (${removed} queued job(s)); outputs kept in ${run.out}\n`);
      return EXIT.ok;
    } finally {
      await c.close();
    }
  },
};

const SUBCOMMANDS: Record<string, Subcommand> = {
  submit: submitCommand,
  worker: workerCommand,
  status: statusCommand,
  retry: retryCommand,
  clean: cleanCommand,
};

const HELP = `Usage: pith queue <submit|worker|status|retry|clean> [options]

pith extract over many machines: one Redis server (BullMQ), any number of workers.

  pith queue submit INPUT... --out DIR --redis URL [extract options]   jobs for a run; prints its id
  pith queue worker --redis URL [--workers N] [--concurrency N]        take and run jobs, on any machine
  pith queue status [RUN] --redis URL [--wait] [--json]                a run's jobs, pages, pages/s, ETA
  pith queue retry RUN --redis URL                                     failed jobs back in the queue
  pith queue clean RUN --redis URL                                     remove a run's keys

\`pith queue <subcommand> --help\` for each one's options; docs/distributed.md for a setup on
several machines.`;

export const queueCommand: Command = {
  name: "queue",
  help: HELP,
  helpFor: (argv) => SUBCOMMANDS[argv[0] ?? ""]?.help ?? HELP,
  async run(argv) {
    const [name, ...rest] = argv;
    const sub = SUBCOMMANDS[name ?? ""];
    if (!sub)
      throw new UsageError(
        `queue: ${name ? `unknown subcommand "${name}"` : "give a subcommand"}: submit, worker, status, retry or clean`,
      );
    return sub.run(rest);
  },
};
