/**
 * Teach measures a host's held-out F1 on the pages as the studio's render mode sees them: in
 * chromium mode on the snapshot cache's chromium renders (a stylesheet-hidden block is not page
 * text), in static mode on static renders (where it is), and installs the model of that mode.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createRenderer } from "../src/render/index.ts";
import { Studio } from "../src/studio/studio.ts";
import type { TeachResult } from "../src/studio/teach.ts";
import { openWorkspace } from "../src/studio/workspace.ts";
import type { RenderMode } from "../src/types.ts";
import { eventually, tempDir } from "./helpers.ts";

const HOST = "stories.example";
const WORDS = "river stone bread winter garden harbor lantern meadow orchard candle village market".split(
  " ",
);

/** A paragraph of `n` words, the same for the same seed. */
function paragraph(seed: number, n: number): string {
  const words = Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * i * 3 + i) % WORDS.length]);
  return words.join(" ") + ".";
}

/** Three pages of one host: an article whose second half a stylesheet hides; the gold is the first half. */
function hiddenHalfSet(): string {
  const dir = tempDir("pith-studio-teach-");
  mkdirSync(join(dir, "html"));
  mkdirSync(join(dir, "gold"));
  const rows: string[] = [];
  for (let i = 0; i < 3; i++) {
    const title = `Story number ${i} of the site`;
    const shown = [0, 1, 2, 3].map((k) => paragraph(i * 10 + k, 40));
    const hidden = [4, 5, 6, 7].map((k) => paragraph(i * 10 + k, 40));
    writeFileSync(
      join(dir, "html", `s${i}.html`),
      `<!DOCTYPE html><html><head><title>${title}</title><style>.later{display:none}</style></head><body>` +
        `<nav><a href="/">Home</a> <a href="/news">News</a></nav><article><h1>${title}</h1>` +
        shown.map((p) => `<p>${p}</p>`).join("") +
        `<div class="later">${hidden.map((p) => `<p>${p}</p>`).join("")}</div></article>` +
        `<footer>Copyright the site.</footer></body></html>`,
    );
    writeFileSync(join(dir, "gold", `s${i}.txt`), [title, ...shown].join("\n") + "\n");
    rows.push(JSON.stringify({ id: `s${i}`, url: `https://${HOST}/s${i}`, domain: HOST }));
  }
  writeFileSync(join(dir, "index.jsonl"), rows.join("\n") + "\n");
  return dir;
}

let cache: string;
let saved: string | undefined;

before(() => {
  saved = process.env["PITH_CACHE"];
  cache = tempDir("pith-studio-teach-cache-");
  process.env["PITH_CACHE"] = cache;
});

after(() => {
  if (saved === undefined) delete process.env["PITH_CACHE"];
  else process.env["PITH_CACHE"] = saved;
  rmSync(cache, { recursive: true, force: true });
});

/** A studio of `mode` over the set runs Teach on the host (its worker thread) and returns the result. */
async function teachIn(mode: RenderMode, dir: string, modelDir: string): Promise<TeachResult> {
  const renderer = await createRenderer(mode);
  try {
    const studio = new Studio(await openWorkspace([dir]), { mode, modelDir }, renderer);
    await studio.survey();
    const status = studio.teach(HOST);
    assert.ok(status);
    await eventually(() => status.state !== "running", "the Teach run to end", 120_000);
    assert.equal(status.state, "done", status.error ?? "");
    return status.result!;
  } finally {
    await renderer.close();
  }
}

test("Teach in chromium mode measures on chromium renders and installs a chromium model", async () => {
  const dir = hiddenHalfSet();
  const modelDir = tempDir("pith-studio-teach-models-");
  const chromium = await teachIn("chromium", dir, modelDir);
  const staticRun = await teachIn("static", dir, modelDir);
  assert.equal(chromium.mode, "chromium");
  assert.equal(basename(chromium.file), `${HOST}.chromium.json`);
  assert.equal(basename(staticRun.file), `${HOST}.json`);
  assert.ok(existsSync(chromium.file) && existsSync(staticRun.file));
  // the held-out pages came from the snapshot cache: one render per page
  const renders = readdirSync(join(cache, "snapshots", "chromium"), { recursive: true }).filter((f) =>
    String(f).endsWith(".json.gz"),
  );
  assert.equal(renders.length, 3);
  // static renders keep the stylesheet-hidden half (precision about one half), chromium's do not
  assert.ok(chromium.before > 0.95, `chromium before ${chromium.before}`);
  assert.ok(staticRun.before < 0.8, `static before ${staticRun.before}`);
});
