/**
 * An interrupted chromium batch (Ctrl-C, a scheduler's TERM, a closed terminal) exits 130 / 143 / 129 and leaves no
 * browser process and no profile directory behind (src/exit-on-signal.ts, src/render/browser-processes.ts); a
 * static run installs no handler, so the signal ends it at once even while it is busy.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { eventually, PITH, tempDir } from "./helpers.ts";

/** Processes whose command line mentions `text`, from /proc. */
function mentioning(text: string): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, "latin1").includes(text) ? [Number(d)] : [];
      } catch {
        return [];
      }
    });
}

for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const) {
  test(
    `${signal} during a chromium batch: exit ${code}, the browser and its profile directory gone`,
    { timeout: 60_000 },
    async () => {
      const root = tempDir("pith-interrupt-");
      const tmp = join(root, "tmp");
      const pages = join(root, "pages");
      mkdirSync(tmp);
      mkdirSync(pages);
      for (let i = 0; i < 300; i++)
        writeFileSync(
          join(pages, `p${i}.html`),
          `<html><body><article><p>Page ${i} has a paragraph of text about rivers and valleys.</p></article></body></html>`,
        );
      try {
        const child = spawn(process.execPath, [PITH, "extract", "--mode", "chromium", pages], {
          env: { ...process.env, TMPDIR: tmp },
          stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        const exited = new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
        // wait for the browser: its profile directory appears under TMPDIR, its processes run
        await eventually(
          () => readdirSync(tmp).some((d) => d.startsWith("pith-browser-")) && mentioning(tmp).length > 0,
          `the browser started: ${stderr}`,
          30_000,
        );
        child.kill(signal);
        assert.equal(await exited, code, stderr);
        // the directory is removed before pith exits; processes killed then may take a moment to be reaped
        assert.deepEqual(
          readdirSync(tmp).filter((d) => d.startsWith("pith-browser-")),
          [],
          "no profile directory left",
        );
        await eventually(() => mentioning(tmp).length === 0, "no browser process left").catch(
          () => undefined,
        );
        assert.deepEqual(mentioning(tmp), [], "no browser process left");
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  );
}

test(
  "a static run installs no signal handler, so Ctrl-C ends it at once even while its thread is busy on a page",
  { timeout: 60_000 },
  async () => {
    // A JavaScript handler (exit 130 through process.exit) runs only when the event loop is free, so a
    // run busy on one huge page would ignore Ctrl-C until the page was done. Without one the signal
    // itself ends the process. Waiting on stdin keeps the run alive whatever the machine's speed.
    const child = spawn(process.execPath, [PITH, "extract", "-"], { stdio: ["pipe", "ignore", "ignore"] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    await new Promise((r) => setTimeout(r, 2000)); // started, reading stdin
    assert.equal(child.exitCode, null, "still running when interrupted");
    child.kill("SIGINT");
    assert.deepEqual(
      await exited,
      { code: null, signal: "SIGINT" },
      "ended by the signal, not by a handler's exit(130)",
    );
    child.stdin.destroy();
  },
);
