/**
 * The studio's labeling flow timed from the machine's side: a Puppeteer "user" labels --pages pages
 * of one site that has no labels yet, the way docs/studio.md describes it: open the first page
 * from the Pages table, Label, then on every page "Accept pith's choice", fix 3 blocks by clicks
 * (the largest blocks pith dropped become main), "Save & next" (Save on the last). A person's time
 * to look and decide is not measured (nobody looks here); what is: the wall time from the click
 * that opens a page to its outlines on screen, the page's analysis and frame requests, the save's
 * round trip, the time from a block click to its new tint, and the clicks each page takes.
 *
 *   npm run bench:studio -- [--data DIR] [--host HOST] [--pages 20] [--mode static|chromium]
 */
import { spawn, type ChildProcess } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import puppeteer, { type ElementHandle, type Frame, type Page } from "puppeteer-core";
import { findChromium } from "../src/render/find-browser.ts";
import { intOption, scriptArgs, usageError } from "./args.ts";
import { median } from "./stats.ts";

const USAGE = `Usage: npm run bench:studio -- [--data DIR] [--host HOST] [--pages 20] [--mode static|chromium]

Labels --pages pages of HOST (default blogs.nfl.com of $PITH_DATA/dragnet, without their gold) in
pith studio through real Chromium, as a user clicking: Accept, 3 fixes, Save & next. Prints per page
the UI's latencies (open, analysis, frame, save round trip, click to tint) and the clicks.`;

const ROOT = resolve(import.meta.dirname, "..");
/** Blocks fixed by clicks on every page. */
const FIXES = 3;

const values = scriptArgs(USAGE, {
  data: { type: "string" },
  host: { type: "string" },
  pages: { type: "string" },
  mode: { type: "string" },
});
const data = values.data ?? join(process.env["PITH_DATA"] ?? join(ROOT, "..", "shared", "data"), "dragnet");
const host = values.host ?? "blogs.nfl.com";
const count = intOption(USAGE, "pages", values.pages, 20);
const mode = values.mode ?? "static";
if (mode !== "static" && mode !== "chromium") usageError(USAGE, `--mode must be static or chromium`);

/** A dataset folder of the host's first `count` pages (by id) with their HTML and index rows, no gold. */
function unlabeledSite(): string {
  const rows = readFileSync(join(data, "index.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; domain?: string; page_type?: string; genre?: string })
    .filter((r) => r.domain === host)
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .slice(0, count);
  if (rows.length < count) usageError(USAGE, `${host} has ${rows.length} pages in ${data}, not ${count}`);
  const dir = mkdtempSync(join(tmpdir(), "pith-bench-studio-"));
  mkdirSync(join(dir, "html"));
  for (const r of rows)
    copyFileSync(join(data, "html", `${r.id}.html.gz`), join(dir, "html", `${r.id}.html.gz`));
  const unlabeled = rows.map(({ page_type: _t, genre: _g, ...r }) => JSON.stringify(r));
  writeFileSync(join(dir, "index.jsonl"), unlabeled.join("\n") + "\n");
  return dir;
}

function startStudio(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const args = [join(ROOT, "bin", "pith.js"), "studio", dir, "--port", "0", "--mode", mode];
  const child = spawn("node", args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((res, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /open (http:\/\/\S+)/.exec(out);
      if (m) res({ child, url: m[1] as string });
    });
    child.on("exit", (code) => reject(new Error(`the studio exited with ${code}`)));
  });
}

interface PageTimes {
  id: string;
  openMs: number;
  analysisMs: number;
  frameMs: number;
  saveMs: number;
  clickMs: number[];
  clicks: number;
}

/** Every block's label in the frame (read from the studio's page), as one string (changes when a click's tint is painted). */
const LABELS = `[...document.querySelector("#page-frame").contentDocument.querySelectorAll("[data-pith-b]")].map((el) => el.getAttribute("data-pith-l")).join()`;

const frameOf = (page: Page): Frame => page.frames().find((f) => f.url().includes("/frame/")) as Frame;

/** Waits for the page view of a page other than `previous` to show its outlines; returns its key. */
async function outlinesShown(page: Page, previous: string): Promise<string> {
  await page.waitForFunction(
    (prev) => {
      const key = decodeURIComponent(location.hash.replace(/^#\/page\//, "").replace(/\/label$/, ""));
      const doc = (document.querySelector("#page-frame") as HTMLIFrameElement | null)?.contentDocument;
      return (
        key !== prev &&
        doc?.readyState === "complete" &&
        doc.URL.endsWith(`/frame/${encodeURIComponent(key)}`) &&
        doc.querySelector("[data-pith-b]") !== null
      );
    },
    { timeout: 120_000 },
    previous,
  );
  return page.evaluate(() =>
    decodeURIComponent(location.hash.replace(/^#\/page\//, "").replace(/\/label$/, "")),
  );
}

/** Resource timing of the last request whose URL ends with `suffix` (ms; NaN when none). */
function requestMs(page: Page, suffix: string): Promise<number> {
  return page.evaluate((s) => {
    const all = performance.getEntriesByType("resource").filter((e) => e.name.split("?")[0]!.endsWith(s));
    return all.length ? all[all.length - 1]!.duration : Number.NaN;
  }, suffix);
}

/** Clicks the `FIXES` largest blocks pith dropped that have a box on screen; returns each click's time to the new tint (ms). */
async function fixBlocks(page: Page): Promise<number[]> {
  const frame = frameOf(page);
  const handles = await frame.$$('[data-pith-s="d"]');
  const sized = await Promise.all(
    handles.map(async (h) => ({
      h,
      n: await h.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 4 && box.height > 4 ? (el.textContent ?? "").length : 0;
      }),
    })),
  );
  const chosen = sized
    .filter((b) => b.n > 0)
    .sort((a, b) => b.n - a.n)
    .slice(0, FIXES);
  const out: number[] = [];
  for (const { h } of chosen) {
    const before = await page.evaluate(LABELS);
    const t0 = performance.now();
    await (h as ElementHandle<Element>).click(); // lands on the block or on a block inside it
    await page.waitForFunction(`${LABELS} !== ${JSON.stringify(before)}`);
    out.push(performance.now() - t0);
  }
  return out;
}

/**
 * One page: Accept, the fixes, then Save & next (Save on the last page); each fix's click-to-tint
 * time and when the save was clicked.
 */
async function labelOne(page: Page, last: boolean): Promise<{ clickMs: number[]; savedAt: number }> {
  await page.click("#accept");
  const clickMs = await fixBlocks(page);
  const savedAt = performance.now();
  await page.click(last ? "#save" : "#save-next");
  if (last) await page.waitForSelector("#save-ok");
  return { clickMs, savedAt };
}

/** The flow over every page (see the header); the first page opens from the table, the others by Save & next. */
async function run(page: Page, url: string, dir: string): Promise<{ times: PageTimes[]; surveyMs: number }> {
  const t0 = performance.now();
  await page.goto(url);
  await page.evaluate(() => performance.setResourceTimingBufferSize(10_000));
  await page.waitForFunction(() => /all analysed/.test(document.body.textContent ?? ""), {
    timeout: 600_000,
  });
  const surveyMs = performance.now() - t0;
  const times: PageTimes[] = [];
  let opened = performance.now();
  await page.click("#pages-table tbody tr");
  let key = await outlinesShown(page, "");
  await page.click("#mode-label");
  for (let i = 0; i < count; i++) {
    const openMs = performance.now() - opened;
    const analysisMs = await requestMs(page, `/api/page/${encodeURIComponent(key)}`);
    const frameMs = await requestMs(page, `/frame/${encodeURIComponent(key)}`);
    const id = await page.$eval(".inspect .summary b", (el) => el.textContent ?? "");
    const last = i === count - 1;
    const { clickMs, savedAt } = await labelOne(page, last);
    const next = last ? key : await outlinesShown(page, key);
    const saveMs = await requestMs(page, `/api/page/${encodeURIComponent(key)}/labels`);
    if (!existsSync(join(dir, "gold", `${id}.txt`))) throw new Error(`no gold written for ${id}`);
    // clicks: Accept, the fixes, Save & next; the first page also its table row and Label
    times.push({ id, openMs, analysisMs, frameMs, saveMs, clickMs, clicks: FIXES + 2 + (i ? 0 : 2) });
    opened = savedAt;
    key = next;
  }
  return { times, surveyMs };
}

function report(times: PageTimes[], surveyMs: number): void {
  const f = (x: number): string => (Number.isNaN(x) ? "–" : x.toFixed(0));
  process.stdout.write(
    `${count} pages of ${host} (${mode} mode); background analysis of every page before the first open: ` +
      `${(surveyMs / 1000).toFixed(1)} s\n\n` +
      "| page | open → outlines (ms) | GET analysis (ms) | GET frame (ms) | save POST (ms) | click → tint (ms, each) | clicks |\n" +
      "|---|---:|---:|---:|---:|---|---:|\n",
  );
  for (const t of times)
    process.stdout.write(
      `| ${t.id} | ${f(t.openMs)} | ${f(t.analysisMs)} | ${f(t.frameMs)} | ${f(t.saveMs)} | ` +
        `${t.clickMs.map(f).join(", ")} | ${t.clicks} |\n`,
    );
  const col = (g: (t: PageTimes) => number): string => {
    const xs = times.map(g).filter((x) => !Number.isNaN(x));
    return `${f(median(xs))} (max ${f(Math.max(...xs))})`;
  };
  const clicks = times.reduce((a, t) => a + t.clicks, 0);
  process.stdout.write(
    `| median | ${col((t) => t.openMs)} | ${col((t) => t.analysisMs)} | ${col((t) => t.frameMs)} | ` +
      `${col((t) => t.saveMs)} | ${col((t) => median(t.clickMs))} | ${clicks} in all |\n`,
  );
}

const dir = unlabeledSite();
const { child, url } = await startStudio(dir);
const browser = await puppeteer.launch({ executablePath: findChromium(), args: ["--no-sandbox"] });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  const { times, surveyMs } = await run(page, url, dir);
  report(times, surveyMs);
} finally {
  await browser.close();
  child.kill();
  rmSync(dir, { recursive: true, force: true });
}
