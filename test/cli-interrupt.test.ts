/**
 * An interrupted chromium batch (Ctrl-C, a scheduler's TERM, a closed terminal) exits 130 / 143 / 129 and leaves no
 * browser process and no profile directory behind (src/exit-on-signal.ts, src/render/browser-processes.ts); a
 * static run busy on one page ends at once.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { eventually, PITH } from "./helpers.ts";

/** Processes whose command line mentions `text`, from /proc. */
function mentioning(text: string): number[] {
  return readdirSync("/proc").filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      return readFileSync(`/proc/${d}/cmdline`, "latin1").includes(text) ? [Number(d)] : [];
    } catch {
      return [];
    }
  });
}

for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  test(`${signal} during a chromium batch: exit ${code}, the browser and its profile directory gone`, { timeout: 60_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), "pith-interrupt-"));
    const tmp = join(root, "tmp");
    const pages = join(root, "pages");
    mkdirSync(tmp);
    mkdirSync(pages);
    for (let i = 0; i < 300; i++) writeFileSync(join(pages, `p${i}.html`), `<html><body><article><p>Page ${i} has a paragraph of text about rivers and valleys.</p></article></body></html>`);
    try {
      const child = spawn(process.execPath, [PITH, "extract", "--mode", "chromium", pages], { env: { ...process.env, TMPDIR: tmp }, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
      // wait for the browser: its profile directory appears under TMPDIR, its processes run
      await eventually(() => readdirSync(tmp).some((d) => d.startsWith("pith-browser-")) && mentioning(tmp).length > 0, `the browser started: ${stderr}`, 30_000);
      child.kill(signal);
      assert.equal(await exited, code, stderr);
      // the directory is removed before pith exits; processes killed then may take a moment to be reaped
      assert.deepEqual(readdirSync(tmp).filter((d) => d.startsWith("pith-browser-")), [], "no profile directory left");
      await eventually(() => mentioning(tmp).length === 0, "no browser process left").catch(() => undefined);
      assert.deepEqual(mentioning(tmp), [], "no browser process left");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}

test("Ctrl-C ends a static run busy on one huge page at once (no handler waits for the busy thread)", { timeout: 60_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), "pith-interrupt-busy-"));
  try {
    // 100,000 unclosed formatting elements: htmlparser2 keeps its open-element stack with
    // Array.unshift/shift, so this 1 MB page keeps the parser busy for tens of seconds
    const page = join(root, "unclosed.html");
    writeFileSync(page, `<html><body>${"<p><b><i>x ".repeat(100_000)}</body></html>`);
    const child = spawn(process.execPath, [PITH, "extract", page], { stdio: ["ignore", "ignore", "ignore"] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, at: Date.now() })));
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(child.exitCode, null, "still busy on the page when interrupted");
    const sent = Date.now();
    child.kill("SIGINT");
    const end = await exited;
    assert.ok(end.signal === "SIGINT" || end.code === 130, JSON.stringify(end));
    assert.ok(end.at - sent < 5000, `ended ${end.at - sent} ms after the signal, not when the page was done`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
