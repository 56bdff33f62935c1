/**
 * Interrupted (Ctrl-C, a job scheduler's TERM, a closed terminal) while this process holds
 * something its `exit` hooks give back (Chromium browsers and their profile directories:
 * src/render/browser-processes.ts, src/batch/pool.ts; a terminal's hidden cursor:
 * src/batch/progress.ts): exit through `process.exit`, so those hooks run, with the shell's usual
 * 128 + signal number. Installed by whatever registers such a hook, not for every run: a
 * JavaScript signal handler runs only when the event loop is free, so a run busy on one huge page
 * in this thread (a static single page) would ignore Ctrl-C until it was done; without a handler
 * the signal ends it at once, and there is nothing to give back.
 */
/** 128 + the signal's number, as shells report a process a signal ended. */
export const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

let installed = false;

export function exitOnSignals(): void {
  if (installed) return;
  installed = true;
  for (const [signal, code] of Object.entries(SIGNAL_EXIT)) process.once(signal, () => process.exit(code));
}
