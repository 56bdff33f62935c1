/** What every `pith queue` subcommand shares: the --redis flag, the connection, a run named by its id. */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { probeRedis, redisOptions, shownRedis, type RedisTarget } from "../queue/redis.ts";
import { loadRun, PREFIX, QUEUE_NAME, type RunMeta } from "../queue/run.ts";
import { UsageError } from "./command.ts";

export const REDIS_FLAG = { redis: { type: "string" } } as const;
export const REDIS_HELP =
  "  --redis URL        the Redis server: redis://[user:password@]host[:port][/db] (rediss:// for TLS);\n" +
  "                     default $PITH_REDIS, which keeps a password out of the process list";

/** A subcommand: its help and its run. */
export interface Subcommand {
  help: string;
  run(argv: string[]): Promise<number>;
}

/** An open connection to the queue: a Redis client for the run's keys and BullMQ's Queue. */
export interface QueueConnection {
  url: string;
  options: RedisTarget;
  redis: Redis;
  queue: Queue;
  close(): Promise<void>;
}

/** Connects to --redis (or $PITH_REDIS) after one probe: an unreachable server is one line and exit 3. */
export async function connect(command: string, flag: string | undefined): Promise<QueueConnection> {
  const url = flag ?? process.env["PITH_REDIS"];
  if (!url) throw new UsageError(`${command}: give --redis URL (or set PITH_REDIS)`);
  const options = redisOptions(command, url);
  await probeRedis(command, url, options);
  const redis = new Redis(options);
  const queue = new Queue(QUEUE_NAME, { connection: options, prefix: PREFIX });
  redis.on("error", () => {}); // commands wait for the server to come back (redis.ts)
  queue.on("error", () => {});
  return {
    url,
    options,
    redis,
    queue,
    close: async () => {
      await queue.close();
      redis.disconnect();
    },
  };
}

/** The run named on the command line; a usage error when Redis has no such run. */
export async function namedRun(
  command: string,
  c: QueueConnection,
  id: string | undefined,
): Promise<RunMeta> {
  if (!id) throw new UsageError(`${command}: name the run (the id \`pith queue submit\` printed)`);
  const run = await loadRun(c.redis, id);
  if (!run) throw new UsageError(`${command}: no run ${id} in Redis at ${shownRedis(c.url)}`);
  return run;
}
