/**
 * A batch over every kind of bad input completes and reports every page, in both render modes:
 * each page yields a snapshot or one error line naming the page and the reason.
 */
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import test from "node:test";
import { deeplyNested, escapeRegExp, fixturePath, hugePage, pith, tempDir } from "./helpers.ts";

function badPagesDir(): string {
  const dir = tempDir("pith-bad-");
  writeFileSync(join(dir, "empty.html"), "");
  writeFileSync(join(dir, "huge.html"), hugePage(10 * 1024 * 1024));
  writeFileSync(join(dir, "deep.html"), deeplyNested(10_000));
  writeFileSync(
    join(dir, "infinite-loop.html"),
    "<html><body><p>before</p><script>while(true){}</script><p>after</p></body></html>",
  );
  for (const f of ["binary.bin.html", "invalid-utf8.html", "shift-jis.html"])
    copyFileSync(fixturePath(`inputs/${f}`), join(dir, f));
  return dir;
}

/** A server on 127.0.0.1 that accepts connections and never answers. */
async function hangingServer(): Promise<{ server: Server; url: string }> {
  const server = createServer(() => {});
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/never` };
}

/** Pages a renderer may legitimately give up on within the time limit (a timeout error record is fine). */
const SLOW_PAGES = ["huge.html", "deep.html"];

async function runBatch(mode: string, timeoutMs: number): Promise<void> {
  const dir = badPagesDir();
  const { server, url } = await hangingServer();
  try {
    const args = [
      "render",
      "--summary",
      "--mode",
      mode,
      "--timeout",
      String(timeoutMs),
      dir,
      join(dir, "missing.html"),
      "http://127.0.0.1:9/unreachable",
      url,
    ];
    const res = await pith(args);
    const out = res.stdout;
    const err = res.stderr;
    assert.equal(res.status, 1, `exit 1 when some pages fail; stderr:\n${err}`);
    // the folder is one of several inputs, so its pages are named by their whole path (src/io/inputs.ts)
    const id = (page: string) => escapeRegExp(join(dir, page));
    for (const ok of ["empty.html", "invalid-utf8.html", "shift-jis.html"])
      assert.match(out, new RegExp(`^${id(ok)}\\t${mode}\\t`, "m"), `${ok} rendered`);
    for (const slow of SLOW_PAGES) {
      const name = id(slow);
      const rendered = new RegExp(`^${name}\\t${mode}\\t`, "m").test(out);
      const timedOut = new RegExp(`^error\\t${name}\\ttimeout\\t`, "m").test(err);
      assert.ok(rendered || timedOut, `${slow}: a snapshot or a timeout record`);
    }
    assert.match(err, new RegExp(`^error\\t${id("binary.bin.html")}\\tdecode\\tbinary data`, "m"));
    assert.match(err, /^error\t.*missing\.html\tread\tno such file/m);
    assert.match(err, /^error\thttp:\/\/127\.0\.0\.1:9\/unreachable\tfetch\tunreachable/m);
    assert.match(
      err,
      new RegExp(
        `^error\\t${escapeRegExp(url)}\\tfetch\\tunreachable: no answer within ${timeoutMs} ms`,
        "m",
      ),
    );
    assert.match(
      out + err,
      /infinite-loop\.html/,
      "the script page is reported (JavaScript is off by default)",
    );
    const counts = /rendered (\d+) page\(s\), (\d+) error\(s\)/.exec(err);
    assert.ok(counts, "a summary line");
    assert.equal(Number(counts[1]) + Number(counts[2]), 10, "every page is reported");
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

test("static mode: a batch of bad inputs completes and reports every page", async () => {
  await runBatch("static", 4000);
});

test("chromium mode: a batch of bad inputs completes and reports every page", async () => {
  await runBatch("chromium", 30_000);
});

test("a parameter value the method cannot use is a usage error (exit 2) before any page is read", async () => {
  const page = fixturePath("pages/article.html");
  const extract = await pith(["extract", page, "--param", "bias=speed"]);
  assert.equal(extract.status, 2);
  assert.match(extract.stderr, /^pith: extract: --param bias must be precision or recall, not "speed"$/m);
  assert.equal(extract.stdout, "");
  const evaluate = await pith([
    "evaluate",
    "--method",
    "ml",
    "--data",
    fixturePath("evaluate/tiny"),
    "--param",
    "refiner=bogus",
  ]);
  assert.equal(evaluate.status, 2);
  assert.match(
    evaluate.stderr,
    /--param refiner must be one of none, lbs, sls, tp, region, records, fill, not "bogus"/,
  );
  const fine = await pith(["extract", page, "--param", "bias=recall"]);
  assert.equal(fine.status, 0, fine.stderr);
});

test("an option value starting with a dash is a usage error that says how to give one (--name=-x), and that form reaches the option's own check", async () => {
  const page = fixturePath("pages/article.html");
  const spaced = await pith(["extract", page, "--timeout", "-5"]);
  assert.equal(spaced.status, 2);
  assert.match(
    spaced.stderr,
    /^pith: extract: --timeout is missing its value \(one that starts with "-" is written --timeout=-value\) \(see `pith extract --help`\)$/m,
  );
  const unknown = await pith(["extract", page, "--bogus"]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /^pith: extract: unknown option --bogus \(see `pith extract --help`\)$/m);
  const joined = await pith(["extract", page, "--timeout=-5"]);
  assert.equal(joined.status, 2);
  assert.match(joined.stderr, /^pith: extract: --timeout must be at least 1 ms, got -5$/m);
});

test("a truncated .html.gz is extracted from what arrived, with a warning on stderr and in its JSON record", async () => {
  const dir = tempDir("pith-truncated-");
  const paragraphs = Array.from(
    { length: 300 },
    (_, i) => `<p>Paragraph ${i} of the river notes, ${i * 7919} bends.</p>`,
  );
  const whole = gzipSync(
    `<html><body><article><h1>River notes</h1>${paragraphs.join("")}</article></body></html>`,
  );
  writeFileSync(join(dir, "cut.html.gz"), whole.subarray(0, Math.floor(whole.length / 2)));
  const out = tempDir("pith-truncated-out-");
  const r = await pith(["extract", dir, "--format", "json", "--out", out]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stderr,
    /^warning\tcut\.html\.gz\tgzip data is truncated: extracted from the \d+ bytes that arrived$/m,
  );
  const record = JSON.parse(readFileSync(join(out, "cut.json"), "utf8")) as {
    text: string;
    warnings?: string[];
  };
  assert.match(record.text, /^River notes\nParagraph 0 of the river notes/);
  assert.match(record.warnings?.[0] ?? "", /^gzip data is truncated/);
});
