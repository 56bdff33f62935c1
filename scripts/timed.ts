/**
 * One command run under /usr/bin/time, as the benchmarks measure a user's run: wall time on this
 * process's clock, and, when /usr/bin/time is there, the child's user and system CPU and its peak
 * RSS (max resident set of the process, worker threads included).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const TIME = "/usr/bin/time";
const MARK = "PITH_TIMED";

export interface Timed {
  wallS: number;
  /** null without /usr/bin/time. */
  userS: number | null;
  sysS: number | null;
  rssMb: number | null;
  /** The command's own exit code (null when a signal ended it). */
  exitCode: number | null;
  stderr: string;
}

/** Runs `argv` (stdin and stdout discarded) and measures it. */
export function timedRun(argv: readonly string[]): Timed {
  const withTime = existsSync(TIME);
  const full = withTime ? [TIME, "-f", `${MARK} %e %U %S %M`, ...argv] : [...argv];
  const started = performance.now();
  const r = spawnSync(full[0] as string, full.slice(1), {
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });
  const wallS = (performance.now() - started) / 1000;
  if (r.error) throw r.error;
  const stderr = r.stderr ?? "";
  const m = [...stderr.matchAll(new RegExp(`${MARK} (\\S+) (\\S+) (\\S+) (\\d+)`, "g"))].at(-1);
  // /usr/bin/time reports a non-zero exit as "Command exited with non-zero status N" before its line
  const exited = /Command exited with non-zero status (\d+)/.exec(stderr);
  const killed = /Command terminated by signal/.test(stderr);
  return {
    wallS,
    userS: m ? Number(m[2]) : null,
    sysS: m ? Number(m[3]) : null,
    rssMb: m ? Number(m[4]) / 1024 : null,
    exitCode: killed ? null : exited ? Number(exited[1]) : r.status,
    stderr,
  };
}

/** Builds dist/ when it is older than src/ (scripts/build.mjs), so that bin/pith.js runs the bundle. */
export async function ensureBundle(): Promise<void> {
  if (process.env["PITH_SOURCES"])
    throw new Error("PITH_SOURCES is set: pith would run its sources, not the bundle");
  const buildModule = join(import.meta.dirname, "build.mjs");
  const { bundleIsFresh } = (await import(buildModule)) as { bundleIsFresh(): boolean };
  if (bundleIsFresh()) return;
  process.stderr.write("dist/ is stale: node scripts/build.mjs\n");
  const build = spawnSync("node", [buildModule], { encoding: "utf8" });
  if (build.status !== 0 || !bundleIsFresh())
    throw new Error(`the build failed, pith would run its sources: ${build.stderr}`);
}
