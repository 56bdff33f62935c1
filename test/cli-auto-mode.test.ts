/** `pith extract --mode auto`: static first, real Chromium only for the pages the static pass lost. */
import assert from "node:assert/strict";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import { AUTO_MAX_KEPT_SHARE, autoDecision } from "../src/batch/auto-mode.ts";
import { fixturePath, pith, tempDir } from "./helpers.ts";

const ARTICLE = fixturePath("pages/article.html");
const WORDS =
  "The river festival drew thousands of visitors to the old harbour on Sunday, where boats were decorated with lanterns.";
/** An application shell: its text is built by a script. */
const SHELL = `<html><head><title>App</title></head><body><div id="root"></div>
<script>document.getElementById("root").innerHTML = "<article><h1>Festival</h1><p>${WORDS}</p><p>${WORDS}</p></article>";</script></body></html>`;

interface JsonPage {
  id: string;
  mode: string;
  text: string;
  model: string | null;
  warnings?: string[];
  trace: { step: string; reason: string }[];
}

function jsonLines(stdout: string): JsonPage[] {
  return stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as JsonPage);
}

test("--mode auto: an application shell is rendered in Chromium with --js and gets its text; without --js it is not", async () => {
  const dir = tempDir("pith-auto-");
  const shell = join(dir, "app.html");
  writeFileSync(shell, SHELL);
  // in this thread (one page) and sent back by a worker thread
  for (const workers of ["0", "1"]) {
    const run = await pith([
      "extract",
      shell,
      "--mode",
      "auto",
      "--js",
      "--format",
      "json",
      "--workers",
      workers,
    ]);
    assert.equal(run.status, 0, run.stderr);
    const [page] = jsonLines(run.stdout);
    assert.equal(page?.mode, "chromium");
    assert.match(page?.text ?? "", /river festival drew thousands/);
    assert.match(page?.model ?? "", /^default-chromium /);
    assert.equal(page?.trace[0]?.step, "auto-mode");
    assert.match(
      page?.trace[0]?.reason ?? "",
      /no visible word, 1 script\(s\): rendered in Chromium with --js/,
    );
  }

  const still = await pith(["extract", shell, "--mode", "auto", "--format", "json"]);
  assert.equal(still.status, 0, still.stderr);
  const [plain] = jsonLines(still.stdout);
  assert.equal(plain?.mode, "static", "without --js Chromium would show the same empty page");
  assert.equal(plain?.text, "");
  assert.match(plain?.trace[0]?.reason ?? "", /1 script\(s\) that --js would run: not rendered/);
});

test("--mode auto: a page whose static extraction keeps its text starts no browser, on worker threads too", async () => {
  const dir = tempDir("pith-auto-dir-");
  // a browser that cannot start: a page that stayed static cannot have needed it
  const env = { PUPPETEER_EXECUTABLE_PATH: join(dir, "no-browser") };
  for (const workers of ["0", "1"]) {
    const run = await pith(
      ["extract", ARTICLE, "--mode", "auto", "--js", "--format", "json", "--workers", workers],
      undefined,
      undefined,
      env,
    );
    assert.equal(run.status, 0, run.stderr);
    const [page] = jsonLines(run.stdout);
    assert.equal(page?.mode, "static");
    assert.match(page?.text ?? "", /^Why rivers meander/);
    assert.equal(page?.trace[0]?.step, "auto-mode");
    assert.match(
      page?.trace[0]?.reason ?? "",
      /^static extraction kept \d+ of \d+ visible words: not rendered$/,
    );
    assert.equal(page?.warnings, undefined);
  }
});

test("--mode auto: when Chromium fails, the page's static result is written with a warning", async () => {
  const dir = tempDir("pith-auto-fail-");
  writeFileSync(join(dir, "app.html"), SHELL);
  copyFileSync(ARTICLE, join(dir, "article.html"));
  const env = { PUPPETEER_EXECUTABLE_PATH: join(dir, "no-browser") };
  const run = await pith(
    ["extract", dir, "--mode", "auto", "--js", "--format", "json"],
    undefined,
    undefined,
    env,
  );
  assert.equal(run.status, 0, run.stderr);
  const pages = new Map(jsonLines(run.stdout).map((p) => [p.id, p]));
  assert.deepEqual([...pages.keys()].sort(), ["app.html", "article.html"]);
  const fell = pages.get("app.html");
  assert.equal(fell?.mode, "static");
  assert.equal(fell?.text, "");
  assert.match(fell?.warnings?.[0] ?? "", /^Chromium failed \(render: .*\); the static result is written$/);
  assert.match(fell?.trace[0]?.reason ?? "", /rendered in Chromium with --js; Chromium failed/);
  assert.equal(pages.get("article.html")?.mode, "static");
  assert.equal(pages.get("article.html")?.warnings, undefined);
  assert.match(run.stderr, /^warning\tapp\.html\tChromium failed/m);
});

test("--mode auto's decision: a static extraction that kept a small share of the visible words is rendered", () => {
  const visible = 1000;
  const below = Math.ceil(AUTO_MAX_KEPT_SHARE * visible) - 1;
  assert.equal(autoDecision({ keptWords: below, visibleWords: visible, scripts: 0 }, false).render, true);
  assert.equal(
    autoDecision({ keptWords: below + 1, visibleWords: visible, scripts: 0 }, false).render,
    false,
  );
  assert.equal(autoDecision({ keptWords: 0, visibleWords: 12, scripts: 0 }, false).render, true);
  assert.equal(autoDecision({ keptWords: 0, visibleWords: 0, scripts: 2 }, false).render, false);
  assert.equal(autoDecision({ keptWords: 0, visibleWords: 0, scripts: 2 }, true).render, true);
  assert.equal(autoDecision({ keptWords: 0, visibleWords: 0, scripts: 0 }, true).render, false);
});

test("--mode auto: usage errors for a model of one mode and for site-level methods", async () => {
  const model = await pith(["extract", ARTICLE, "--mode", "auto", "--model", "models/default-static.json"]);
  assert.equal(model.status, 2);
  assert.match(model.stderr, /--model FILE is trained for one render mode/);
  const site = await pith(["extract", ARTICLE, "--mode", "auto", "--method", "site"]);
  assert.equal(site.status, 2);
  assert.match(site.stderr, /--mode auto reads pages one at a time/);
  const bad = await pith(["extract", ARTICLE, "--mode", "fast"]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--mode must be static, chromium or auto/);
});
