/**
 * Ending a headless Chromium from the outside: its process tree from /proc, and the processes
 * whose command line names its unique profile directory (a pid alone may have been recycled;
 * the directory, made by mkdtemp, cannot be). ChromiumRenderer uses it after closing a browser;
 * a worker pool uses it for a browser whose worker thread was terminated before it could close
 * it (src/batch/pool.ts `release`), and this thread ends its browsers still running when
 * the process exits (an interrupted batch: the CLI turns SIGINT, SIGTERM and SIGHUP into an exit).
 * Linux /proc; elsewhere only the directory is removed.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { exitOnSignals } from "../exit-on-signal.ts";

/** Profile directories of the browsers this thread launched and has not released yet. */
const LIVE_DIRS = new Set<string>();
let exitHook = false;

/** Remembers a launched browser's directory, to end it at process exit if nothing else did. */
export function trackBrowser(dir: string): void {
  LIVE_DIRS.add(dir);
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const d of LIVE_DIRS) releaseBrowser(d);
  });
  exitOnSignals();
}

/**
 * Ends a browser and removes its profile directory `dir`: every Chromium process of `tree` (its
 * process tree, when the caller has it) and of the trees of the processes naming `dir`.
 */
export function releaseBrowser(dir: string, tree: readonly number[] = []): void {
  LIVE_DIRS.delete(dir);
  killChromium([...tree, ...processTree(...processesMentioning(dir))]);
  removeDir(dir);
  // A browser still starting may have forked a process after the scan, which then writes its
  // profile again: look again a few times, a short synchronous pause apart (this may run in a
  // process's exit handler, where nothing asynchronous runs).
  for (let round = 0; round < RELEASE_ROUNDS; round++) {
    const left = processesMentioning(dir);
    if (!left.length && !existsSync(dir)) return;
    Atomics.wait(PAUSE, 0, 0, RELEASE_PAUSE_MS);
    killChromium(processTree(...left));
    removeDir(dir);
  }
}

/** Extra looks for a browser's processes and directory after the first kill, and the pause between. */
const RELEASE_ROUNDS = 5;
const RELEASE_PAUSE_MS = 20;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

function removeDir(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // a temp dir left behind is not worth failing a batch for
  }
}

/** Process ids listed in /proc (empty where /proc is missing). */
function procPids(): string[] {
  try {
    return readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
}

/**
 * The processes `roots` and all their descendants, from one scan of /proc (just `roots` where
 * /proc is missing).
 */
export function processTree(...roots: number[]): number[] {
  if (!roots.length) return [];
  const children = new Map<number, number[]>();
  for (const entry of procPids()) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the ")" that closes the command name: state, ppid, …
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // the process exited while we looked
    }
  }
  const out = new Set<number>();
  const stack = [...roots];
  while (stack.length > 0) {
    const p = stack.pop() as number;
    if (out.has(p)) continue;
    out.add(p);
    stack.push(...(children.get(p) ?? []));
  }
  return [...out];
}

/** Processes whose command line contains `text` (our unique temp dir), from /proc. */
function processesMentioning(text: string): number[] {
  const out: number[] = [];
  for (const entry of procPids()) {
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "latin1").includes(text)) out.push(Number(entry));
    } catch {
      // exited
    }
  }
  return out;
}

/**
 * True when `pid` runs a Chromium binary (its program name, not its arguments; guards against recycled pids).
 */
function isChromiumProcess(pid: number): boolean {
  try {
    const program = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0")[0] ?? "";
    return /chrom/i.test(program.slice(program.lastIndexOf("/") + 1));
  } catch {
    return false;
  }
}

/** SIGKILL to those of `pids` that run a Chromium binary. */
export function killChromium(pids: readonly number[]): void {
  for (const p of pids) {
    if (!isChromiumProcess(p)) continue;
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
