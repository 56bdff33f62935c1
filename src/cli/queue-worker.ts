/**
 * `pith queue worker`: takes jobs of every run on the queue and extracts them as `pith extract`
 * does (src/queue/worker.ts), until SIGTERM or SIGINT: then it takes no new job, lets running
 * ones finish for --grace seconds, gives the rest back to the queue, and exits 0.
 */
import { availableParallelism, hostname } from "node:os";
import { QueueWorker } from "../queue/worker.ts";
import { shownRedis } from "../queue/redis.ts";
import { EXIT, UsageError, intOption, parse } from "./command.ts";
import { EXTRACT_FLAGS, extractPlan, workersOption } from "./extract.ts";
import { connect, REDIS_FLAG, REDIS_HELP, type Subcommand } from "./queue-connection.ts";

/** Default job lock (BullMQ's lockDuration): a dead worker's job goes back to the queue after about this. */
const DEFAULT_LOCK_MS = 30_000;
/** Default time running jobs get to finish after SIGTERM before they go back to the queue. */
const DEFAULT_GRACE_S = 30;
/** At most one line per this many ms about a lost Redis connection. */
const REDIS_NOTE_MS = 10_000;

const WORKER_FLAGS = {
  ...REDIS_FLAG,
  workers: { type: "string" },
  concurrency: { type: "string" },
  lock: { type: "string" },
  grace: { type: "string" },
} as const;

const HELP = `Usage: pith queue worker --redis URL [--workers N] [--concurrency N]

Take jobs from the queue (of every run submitted to this Redis) and extract their pages exactly as
pith extract does, writing each run's pages under its --out. Run one per machine, as many machines
as you like. Logs one line per job (started, done with its pages and error records, released,
failed) and each page's error record, on stderr. SIGTERM or SIGINT: no new job; running jobs get
--grace seconds to finish, then go back to the queue for another worker; exit 0.

Options:
${REDIS_HELP}
  --workers N        worker threads that extract pages (default: one per core, ${availableParallelism()} here)
  --concurrency N    jobs run at once, sharing the threads (default 2: the next job's files are read
                     while the last pages of one are extracted)
  --lock MS          how long a job stays locked to this worker without a renewal (default ${DEFAULT_LOCK_MS}):
                     when a worker dies, its job goes back to the queue after about this long
  --grace S          seconds running jobs get to finish after SIGTERM (default ${DEFAULT_GRACE_S})
  -h, --help         this help

Exit codes: 0 stopped by SIGTERM or SIGINT, 2 usage error or an --out this machine cannot write
(its job goes back to the queue), 3 Redis unreachable at start.`;

/** The batch options of a run's extract flags, read as pith extract reads them. */
function planOf(argv: string[]) {
  const { values } = parse("queue worker", argv, EXTRACT_FLAGS);
  return extractPlan("queue worker", values);
}

function numberFlag(name: string, value: string | undefined, fallback: number, min: number): number {
  const n = intOption("queue worker", name, value, fallback);
  if (n < min) throw new UsageError(`queue worker: --${name} must be at least ${min}`);
  return n;
}

/** A logger that prints a lost connection's errors at most once per REDIS_NOTE_MS. */
function redisNotes(log: (line: string) => void): (e: Error) => void {
  let last = 0;
  return (e) => {
    if (Date.now() - last < REDIS_NOTE_MS) return;
    last = Date.now();
    log(`redis\t${e.message.split("\n")[0]} (retrying)`);
  };
}

export const workerCommand: Subcommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parse("queue worker", argv, WORKER_FLAGS);
    if (positionals.length) throw new UsageError(`queue worker: takes no inputs (got ${positionals[0]})`);
    const workers = workersOption("queue worker", values.workers, availableParallelism());
    if (workers < 1) throw new UsageError("queue worker: --workers must be at least 1");
    const concurrency = numberFlag("concurrency", values.concurrency, 2, 1);
    const lockMs = numberFlag("lock", values.lock, DEFAULT_LOCK_MS, 100);
    const graceMs = numberFlag("grace", values.grace, DEFAULT_GRACE_S, 0) * 1000;
    const c = await connect("queue worker", values.redis);
    await c.close(); // the worker opens its own connections
    const log = (line: string) => void process.stderr.write(line + "\n");
    const worker = new QueueWorker({ redis: c.options, workers, concurrency, lockMs, plan: planOf, log });
    worker.events.on("error", redisNotes(log));
    worker.events.on("failed", (job, e) => {
      if (!job || e.name === "WaitingError") return;
      const attempts = `attempt ${job.attemptsMade} of ${job.opts.attempts ?? 1}`;
      log(`job\t${job.id}\tfailed\t${e.message} (${attempts})`);
    });
    const stop = (signal: string) => {
      log(`worker\tstopping (${signal}): running jobs get ${graceMs / 1000} s, then go back to the queue`);
      void worker.close(graceMs);
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
    log(
      `worker\t${hostname()}:${process.pid} on ${shownRedis(c.url)}: ${workers} thread(s), ${concurrency} job(s) at once`,
    );
    await worker.run();
    await worker.close(graceMs);
    if (worker.fatal) {
      process.stderr.write(`pith: ${worker.fatal.message}\n`);
      return EXIT.usage;
    }
    return EXIT.ok;
  },
};
