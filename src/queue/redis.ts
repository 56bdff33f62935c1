/**
 * The Redis connection of `pith queue`: a `redis://[user:password@]host[:port][/db]` URL (or
 * `rediss://` for TLS) read into ioredis options, shown without its password wherever pith prints
 * it, and probed once before a command starts, so that an unreachable server is one line, not an
 * endless reconnect loop. Once a command runs, its connections retry for as long as it takes
 * (BullMQ's workers need `maxRetriesPerRequest: null`: a command waits for the server to come
 * back instead of failing), which is how workers ride out a restarted Redis.
 */
import { Redis } from "ioredis";
import { firstLine, UsageError } from "../errors.ts";

/** How long the first connection may take before the server counts as unreachable. */
export const PROBE_TIMEOUT_MS = 5000;

/** The URL with its password (and user) replaced by `***`: the form every message uses. */
export function shownRedis(url: string): string {
  return url.replace(/^([a-z]+:\/\/)[^@/]*@/i, "$1***@");
}

/** Where and how to connect: ioredis options, which BullMQ's classes take as their `connection`. */
export interface RedisTarget {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db?: number;
  tls?: object;
  /** null: a command waits for the server to come back instead of failing (BullMQ's requirement). */
  maxRetriesPerRequest: null;
}

/** The connection options of `url`. */
export function redisOptions(command: string, url: string): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(
      `${command}: --redis must be a URL such as redis://host:6379, not ${shownRedis(url)}`,
    );
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    throw new UsageError(`${command}: --redis must be a redis:// or rediss:// URL, not ${shownRedis(url)}`);
  const db = parsed.pathname.replace(/^\//, "");
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1",
    port: parsed.port ? Number(parsed.port) : 6379,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(parsed.protocol === "rediss:" ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/** Why a probe failed, in words, without the server's address details ioredis adds. */
function probeReason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.code === "ECONNREFUSED") return "connection refused";
  if (err?.code === "ENOTFOUND" || err?.code === "EAI_AGAIN") return "no such host";
  if (/NOAUTH|WRONGPASS|invalid password|invalid username/i.test(String(err?.message)))
    return "authentication failed (check the URL's user and password)";
  return firstLine(e, "no answer").replace(/\s*\d{1,3}(\.\d{1,3}){3}:\d+/g, "");
}

/**
 * Connects once, without retries, and sends PING: resolves when the server answers, else throws a
 * one-line error naming the URL (without its password).
 */
export async function probeRedis(command: string, url: string, options: RedisTarget): Promise<void> {
  const probe = new Redis({
    ...options,
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  let cause: unknown = null; // the socket's error: connect() itself rejects with "Connection is closed"
  probe.on("error", (e: unknown) => (cause ??= e));
  try {
    await probe.connect();
    await probe.ping();
  } catch (e) {
    const reason = probeReason(cause ?? e);
    throw new RedisUnreachable(`${command}: cannot reach Redis at ${shownRedis(url)}: ${reason}`);
  } finally {
    probe.disconnect();
  }
}

/** Redis could not be reached: a fatal error at the CLI (exit 3), as a missing browser is. */
export class RedisUnreachable extends Error {
  override name = "RedisUnreachable";
}
