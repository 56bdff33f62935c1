/** `pith extract --method site|content-extractor`: site context from a directory, and live over 127.0.0.1. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { fixturePath, RIVERS_TEXT } from "./helpers.ts";

const run = promisify(execFile);
const PITH = new URL("../bin/pith.js", import.meta.url).pathname;
const RIVERS = fixturePath("site/blog/rivers.html");

// Each CLI start costs seconds (the whole registry loads), so one spawn per behaviour; the
// fallback and content-extractor paths are covered in-process in site-level / debnath tests.
test("pages of one directory are one site: site extracts each article", async () => {
  const { stdout } = await run(process.execPath, [
    PITH,
    "extract",
    "--method",
    "site",
    "--format",
    "json",
    fixturePath("site/blog"),
  ]);
  const rows = stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { source: string; text: string });
  assert.equal(rows.length, 5);
  assert.equal(rows.find((r) => r.source.endsWith("rivers.html"))?.text, RIVERS_TEXT);
});

test("a single page without site context: empty, with the reason on stderr", async () => {
  const { stdout, stderr } = await run(process.execPath, [PITH, "extract", "--method", "site", RIVERS]);
  assert.equal(stdout.trim(), "");
  assert.match(stderr, /site needs other pages of the same site/);
});

test("a URL with --param live=true fetches its n-SET from the same host", async () => {
  const server = createServer((req, res) => {
    const m = /^\/posts\/(\w+)\.html$/.exec(req.url ?? "");
    if (m) {
      try {
        const body = readFileSync(fixturePath(`site/blog/${m[1]}.html`));
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(body);
        return;
      } catch {
        /* 404 below */
      }
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/posts/rivers.html`;
    const { stdout } = await run(process.execPath, [
      PITH,
      "extract",
      "--method",
      "site",
      "--param",
      "live=true",
      url,
    ]);
    assert.equal(stdout.trim(), RIVERS_TEXT);
  } finally {
    server.close();
  }
});
