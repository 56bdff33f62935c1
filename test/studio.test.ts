/**
 * `pith studio` in real Chromium (puppeteer-core): the Pages table, Inspect outlines, a hostile
 * page that must reach nothing, labeling by clicks saved to disk, a save that fails and keeps the
 * labels, and the server's refusals (no token, a path in a route, a port already taken).
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { findChromium } from "../src/render/find-browser.ts";
import { PITH, pith, tempDir } from "./helpers.ts";

const SAMPLE = new URL("../data/sample/", import.meta.url).pathname;
const PAGES = ["wx-0368", "wx-4180", "hv-0030"];

let dir: string;
let modelDir: string;
let studio: ChildProcess;
let url: string;
let origin: string;
let browser: Browser;
let page: Page;
let decoy: Server;
let decoyHits: string[] = [];

function hostilePage(port: number): string {
  const at = `http://127.0.0.1:${port}`;
  return `<!DOCTYPE html><html><head><title>Hostile</title>
<meta http-equiv="refresh" content="1;url=${at}/refresh"><link rel="stylesheet" href="${at}/link">
<style>@import url(${at}/import);</style><style>body{background:url(${at}/bg)}</style>
<script>fetch("${at}/fetch");document.cookie="stolen=1";top.location="${at}/top";</script></head>
<body><article><h1>A hostile headline here</h1>
<p style="background-image:url(${at}/inline)">The first paragraph of the hostile page has enough words to be main content, about rivers and bees and bread and stars.</p>
<img src="${at}/img" alt=""><p onclick="fetch('${at}/click')">A second paragraph follows with more plain words about tides, winds and the long quiet evenings by the sea.</p>
<a href="javascript:fetch('${at}/js')">a scripted link</a><iframe src="${at}/frame"></iframe>
<svg><image href="${at}/svg"></image></svg></article></body></html>`;
}

function makeSet(port: number): string {
  const d = tempDir("pith-studio-");
  mkdirSync(join(d, "html"));
  mkdirSync(join(d, "gold"));
  const index = readFileSync(join(SAMPLE, "index.jsonl"), "utf8").split("\n").filter(Boolean);
  const rows = index.filter((l) => PAGES.includes((JSON.parse(l) as { id: string }).id));
  for (const id of PAGES) {
    copyFileSync(join(SAMPLE, "html", `${id}.html.gz`), join(d, "html", `${id}.html.gz`));
    copyFileSync(join(SAMPLE, "gold", `${id}.txt`), join(d, "gold", `${id}.txt`));
  }
  writeFileSync(join(d, "html", "hostile.html"), hostilePage(port));
  rows.push(
    JSON.stringify({ id: "hostile", url: "https://hostile.example/page", domain: "hostile.example" }),
  );
  writeFileSync(join(d, "index.jsonl"), rows.join("\n") + "\n");
  return d;
}

function startStudio(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn("node", [PITH, "studio", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /open (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] as string });
    });
    child.on("exit", (code) => reject(new Error(`studio exited with ${code}`)));
  });
}

before(async () => {
  decoy = createServer((req, res) => {
    decoyHits.push(req.url ?? "");
    res.end("x");
  });
  await new Promise<void>((r) => decoy.listen(0, "127.0.0.1", r));
  dir = makeSet((decoy.address() as AddressInfo).port);
  modelDir = tempDir("pith-studio-models-");
  ({ child: studio, url } = await startStudio([dir, "--port", "0", "--model-dir", modelDir]));
  origin = new URL(url).origin;
  browser = await puppeteer.launch({ executablePath: findChromium(), args: ["--no-sandbox"] });
  page = await browser.newPage();
  await page.setViewport({ width: 1300, height: 900 });
});

after(async () => {
  await browser?.close();
  studio?.kill();
  decoy?.close();
});

test("a request without the token is refused; a path in a route is not found", async () => {
  assert.equal((await fetch(`${origin}/api/pages`)).status, 403);
  assert.equal((await fetch(`${origin}/api/pages?t=wrong`)).status, 403);
  const t = new URL(url).searchParams.get("t");
  assert.equal((await fetch(`${origin}/api/pages?t=${t}`)).status, 200);
  for (const path of [
    "/page/..%2f..%2fetc%2fpasswd",
    "/api/page/..%2f..%2fetc%2fpasswd",
    "/frame/../../etc/passwd",
  ])
    assert.equal((await fetch(`${origin}${path}?t=${t}`)).status, 404, path);
});

test("the Pages table lists every page, scored against its gold", async () => {
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll("#pages-table tbody tr").length === 4);
  await page.waitForFunction(() => /all analysed/.test(document.body.textContent ?? ""), { timeout: 20_000 });
  const rows = await page.$$eval("#pages-table tbody tr", (trs) => trs.map((tr) => tr.textContent ?? ""));
  assert.ok(rows.some((r) => r.startsWith("wx-0368") && /health\.ucdavis\.edu/.test(r)));
  assert.match(rows.find((r) => r.startsWith("hv-0030")) ?? "", /0\.\d{3}|1\.000/);
});

async function openPage(id: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector("#pages-table tbody tr");
  await page.$$eval(
    "#pages-table tbody tr",
    (trs, id) => (trs.find((tr) => tr.firstElementChild?.textContent === id) as HTMLElement).click(),
    id,
  );
  await page.waitForFunction(() => {
    const doc = (document.querySelector("#page-frame") as HTMLIFrameElement | null)?.contentDocument;
    return (
      doc?.readyState === "complete" && doc.URL.includes("/frame/") && doc.querySelector("[data-pith-b]")
    );
  });
}

function frameDoc(): string {
  return `(document.querySelector("#page-frame").contentDocument)`;
}

test("Inspect outlines kept and dropped blocks and shows P(main) on hover", async () => {
  await openPage("wx-0368");
  const outlines = await page.evaluate(`(() => {
    const doc = ${frameDoc()};
    const style = (s) => { const el = doc.querySelector('[data-pith-s="' + s + '"]'); return getComputedStyle(el).outlineColor; };
    return { kept: doc.querySelectorAll('[data-pith-s="k"]').length, dropped: doc.querySelectorAll('[data-pith-s="d"]').length,
      keptColour: style("k"), droppedColour: style("d") };
  })()`);
  const o = outlines as { kept: number; dropped: number; keptColour: string; droppedColour: string };
  assert.ok(o.kept > 5 && o.dropped > 5, JSON.stringify(o));
  assert.equal(o.keptColour, "rgb(26, 127, 55)");
  assert.equal(o.droppedColour, "rgb(209, 36, 47)");
  const frame = page.frames().find((f) => f.url().includes("/frame/"))!;
  await frame.hover('[data-pith-s="k"]');
  await page.waitForSelector("#tooltip");
  assert.match(
    await page.$eval("#tooltip", (el) => el.textContent ?? ""),
    /kept · P\(main\) \d\.\d{3}.*content-classifier/,
  );
  assert.match(await page.$eval("#diff", (el) => el.textContent ?? ""), /weight loss/);
  await page.click("#tab-markdown");
  assert.match(await page.$eval("#markdown", (el) => el.textContent ?? ""), /^# 7 weight loss tips/m);
});

/** Distinct 3-byte samples of a PNG's inflated scanlines: a handful for a blank image, many for a page. */
function pngVariety(png: Uint8Array): number {
  const buf = Buffer.from(png);
  const data: Buffer[] = [];
  for (let at = 8; at < buf.length;) {
    const length = buf.readUInt32BE(at);
    if (buf.toString("latin1", at + 4, at + 8) === "IDAT") data.push(buf.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const seen = new Set<number>();
  for (let i = 0; i + 2 < raw.length; i += 31) seen.add((raw[i]! << 16) | (raw[i + 1]! << 8) | raw[i + 2]!);
  return seen.size;
}

test("a screenshot of Inspect is not blank", async () => {
  await openPage("wx-4180");
  const shot = await page.screenshot({ type: "png" });
  writeFileSync(join(dir, "inspect.png"), shot);
  assert.ok(pngVariety(shot) > 200, `only ${pngVariety(shot)} distinct samples`);
  const blank = await browser.newPage();
  await blank.setViewport({ width: 1300, height: 900 });
  assert.ok(pngVariety(await blank.screenshot({ type: "png" })) < 50, "the check tells a blank page apart");
  await blank.close();
});

test("a hostile page's markup runs nothing and reaches nothing", async () => {
  const outside: string[] = [];
  const onResponse = (r: { url(): string }): void => {
    if (!r.url().startsWith(origin) && !r.url().startsWith("data:")) outside.push(r.url());
  };
  page.on("response", onResponse);
  decoyHits = [];
  await openPage("hostile");
  const frame = page.frames().find((f) => f.url().includes("/frame/"))!;
  await frame.click("a");
  await frame.click("p");
  await new Promise((r) => setTimeout(r, 1500)); // the meta refresh's second
  page.off("response", onResponse);
  assert.deepEqual(decoyHits, []);
  assert.deepEqual(outside, []);
  assert.ok(page.url().startsWith(origin));
  assert.equal(
    await page.evaluate(`${frameDoc()}.querySelectorAll("script, iframe, link, meta[http-equiv]").length`),
    0,
  );
  assert.doesNotMatch(await page.evaluate(() => document.cookie), /stolen/);
});

async function clickBlock(text: string): Promise<void> {
  const frame = page.frames().find((f) => f.url().includes("/frame/"))!;
  const handle = await frame.evaluateHandle(
    (t) => Array.from(document.querySelectorAll("[data-pith-b]")).find((el) => el.textContent?.startsWith(t)),
    text,
  );
  await (handle as import("puppeteer-core").ElementHandle<Element>).click();
}

test("labels by clicks are saved as gold text, node labels and an index row", async () => {
  await openPage("hostile");
  await page.click("#mode-label");
  await page.click("#accept");
  await clickBlock("A hostile headline"); // main → noise
  await clickBlock("A second paragraph"); // main → noise
  await page.click("#undo"); // the second paragraph is main again
  await page.select("#page-type", "article");
  await page.click("#save");
  await page.waitForSelector("#save-ok");
  const gold = readFileSync(join(dir, "gold", "hostile.txt"), "utf8");
  assert.match(gold, /^The first paragraph .* stars\.\nA second paragraph .* sea\.\n/);
  assert.doesNotMatch(gold, /headline/);
  assert.ok(existsSync(join(dir, "gold-html", "hostile.html.gz")));
  const rows = readFileSync(join(dir, "index.jsonl"), "utf8").trim().split("\n");
  assert.equal(rows.length, 4);
  assert.deepEqual(JSON.parse(rows[3] as string), {
    id: "hostile",
    url: "https://hostile.example/page",
    domain: "hostile.example",
    page_type: "article",
  });
  // opened again, the page shows the saved labels
  await openPage("hostile");
  await page.click("#mode-label");
  await page.waitForFunction(`${frameDoc()}.querySelector("[data-pith-l]")`);
  const labels = await page.evaluate(
    `[...${frameDoc()}.querySelectorAll("[data-pith-b]")].map((el) => el.getAttribute("data-pith-l") + ":" + el.textContent.slice(0, 8))`,
  );
  assert.deepEqual(labels, ["n:A hostil", "m:The firs", "m:A second", "n:a script"]);
  // shift-click: the clicked block's toggle applies to every block of its parent (the <article>)
  await page.keyboard.down("Shift");
  await clickBlock("The first paragraph");
  await page.keyboard.up("Shift");
  const region = `[...${frameDoc()}.querySelectorAll("[data-pith-b]")].map((el) => el.getAttribute("data-pith-l")).join("")`;
  await page.waitForFunction(`${region} === "nnnn"`); // the labels are painted once the view has re-rendered
  await page.click("#undo");
  await page.waitForFunction(`${region} === "nmmn"`);
});

test("a failed save says so and keeps the unsaved labels", async () => {
  await openPage("hv-0030");
  await page.click("#mode-label");
  rmSync(join(dir, "gold-html"), { recursive: true, force: true });
  writeFileSync(join(dir, "gold-html"), "a file where the folder should be");
  await page.click("#accept");
  await page.click("#save");
  await page.waitForSelector("#save-error");
  assert.match(await page.$eval("#save-error", (el) => el.textContent ?? ""), /not saved/);
  assert.match(await page.$eval("#save", (el) => el.textContent ?? ""), /\*/);
  rmSync(join(dir, "gold-html"));
  await page.click("#save");
  await page.waitForSelector("#save-ok");
  assert.ok(existsSync(join(dir, "gold-html", "hv-0030.html.gz")));
});

test("Save & next saves the page and opens the table's next page in Label mode", async () => {
  await openPage("hostile");
  const hostileKey = await page.evaluate(() => decodeURIComponent(location.hash.slice("#/page/".length)));
  await page.click("#mode-label");
  await page.waitForFunction(`${frameDoc()}.querySelector("[data-pith-l]")`);
  await clickBlock("A hostile headline"); // noise → main
  await page.click("#save-next");
  await page.waitForFunction(
    (k) => /^#\/page\/[^/]+\/label$/.test(location.hash) && !location.hash.includes(k),
    {},
    hostileKey,
  );
  await page.waitForSelector("#accept"); // the next page opens in Label mode
  assert.match(readFileSync(join(dir, "gold", "hostile.txt"), "utf8"), /^A hostile headline here\n/);
});

test("Evaluate plots P/R per page under a CSP without eval; a click on a point opens that page", async () => {
  const csp = (await fetch(url)).headers.get("content-security-policy") ?? "";
  assert.match(csp, /script-src 'self';/);
  assert.doesNotMatch(csp, /unsafe-eval/);
  const refused: string[] = [];
  const onConsole = (m: { text(): string }): void => {
    if (/Content Security Policy|unsafe-eval/.test(m.text())) refused.push(m.text());
  };
  page.on("console", onConsole);
  await page.goto(url + "#/evaluate");
  await page.waitForSelector("#chart-scatter .mark-symbol.role-mark path");
  assert.equal(
    await page.$$eval("#chart-scatter .mark-symbol.role-mark path", (els) => els.length),
    readdirSync(join(dir, "gold")).length,
  );
  assert.ok((await page.$$eval("#chart-importance .mark-rect.role-mark path", (els) => els.length)) > 5);
  await page.click("#compare");
  await page.waitForSelector("#chart-compare .mark-rect.role-mark path", { timeout: 60_000 });
  const legend = await page.$$eval("#chart-compare .role-legend-label text", (els) =>
    els.map((e) => e.textContent),
  );
  assert.deepEqual(legend.sort(), ["defuddle", "ml", "readability"]);
  page.off("console", onConsole);
  assert.deepEqual(refused, []);
  await page.click("#chart-scatter .mark-symbol.role-mark path");
  await page.waitForSelector("#page-frame");
  assert.match(await page.evaluate(() => location.hash), /^#\/page\/0\.\d$/);
});

test("Teach trains a site model, shows held-out F1 before and after, and installs it for pith extract", async () => {
  await page.goto(url);
  await page.waitForSelector('button.teach-host[data-host="health.ucdavis.edu"]');
  await page.click('button.teach-host[data-host="health.ucdavis.edu"]');
  await page.waitForSelector("#teach-result, #teach-error", { timeout: 60_000 });
  const result = await page.$eval("#teach-result, #teach-error", (el) => el.textContent ?? "");
  assert.match(
    result,
    /over 2 labeled pages \(2 folds, leave-pages-out, static renders\) before \d\.\d{3} → after \d\.\d{3}/,
  );
  const file = join(modelDir, "domains", "health.ucdavis.edu.json");
  assert.ok(existsSync(file));
  const html = join(dir, "html", "wx-0368.html.gz");
  const out = await pith(["extract", html, "--model-dir", modelDir, "--format", "json"]); // its canonical URL names the host
  assert.match(JSON.parse(out.stdout).model, /domain:health\.ucdavis\.edu/);
});

test("a second studio on a taken port fails with a clear message", async () => {
  const port = new URL(url).port;
  const second = await pith(["studio", dir, "--port", port]);
  assert.equal(second.status, 1);
  assert.match(second.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is taken`));
  assert.doesNotMatch(second.stderr, /\n\s+at /);
});
