/**
 * `pith extract --out-format jsonl|warc` (src/batch/batch-files.ts, warc-out.ts): one gzipped
 * JSONL or WET-style WARC per input, its pages exactly as `--format json` / `--out` files give
 * them, read back with warcio's parser; written whole or not at all; bad usage refused.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { gunzipSync } from "node:zlib";
import { WARCParser, type WARCRecord } from "warcio";
import "../src/methods.ts";
import { extractBatch } from "../src/batch/extract.ts";
import { progress } from "../src/batch/progress.ts";
import { Sink } from "../src/batch/sink.ts";
import { getExtractor } from "../src/extractors.ts";
import { DEFAULT_OUTPUT } from "../src/output/index.ts";
import { fixturePath, PITH, pith, tempDir, warcResponse } from "./helpers.ts";

const SAMPLE = new URL("../data/sample/html", import.meta.url).pathname;
const BINARY = fixturePath("inputs/binary.bin.html");

/** The sample's first `n` pages (sorted by name), as HTML text. */
function samplePages(n: number): { name: string; html: string }[] {
  return readdirSync(SAMPLE)
    .sort()
    .slice(0, n)
    .map((name) => ({ name, html: gunzipSync(readFileSync(join(SAMPLE, name))).toString("utf8") }));
}

/** A WARC in `dir`: an HTML response per page, an image between them, and a response of binary bytes as HTML. */
async function buildCrawl(dir: string, pages: { name: string; html: string }[]): Promise<string> {
  const records: Uint8Array[] = [];
  for (const { name, html } of pages) {
    records.push(await warcResponse(`https://sample.test/${name}`, html, "text/html; charset=utf-8"));
    records.push(await warcResponse(`https://sample.test/${name}.png`, "PNG", "image/png"));
  }
  records.push(
    await warcResponse("https://sample.test/binary", "\u0000\u0001\u0002".repeat(400), "text/html"),
  );
  writeFileSync(join(dir, "crawl.warc.gz"), Buffer.concat(records));
  return "crawl.warc.gz";
}

/** Every record of a WARC file with its block, and the gzip member it was read from. */
async function readWarc(path: string): Promise<{ record: WARCRecord; block: string; member: Buffer }[]> {
  const bytes = readFileSync(path);
  const parser = new WARCParser([bytes]);
  const out = [];
  for await (const record of parser) {
    const block = new TextDecoder().decode(await record.readFully());
    const member = bytes.subarray(parser.offset, parser.offset + parser.recordLength);
    out.push({ record, block, member });
  }
  return out;
}

/** The lines of a gzipped JSONL file. */
function jsonLines(path: string): string[] {
  return gunzipSync(readFileSync(path)).toString("utf8").split("\n").slice(0, -1);
}

test("--out-format jsonl: one .jsonl.gz per input, each line the page's --format json object, a failed page its error record", async () => {
  const out = tempDir("pith-jsonl-");
  const res = await pith(["extract", SAMPLE, BINARY, "--out", out, "--out-format", "jsonl"]);
  assert.equal(res.status, 1, res.stderr); // the binary page failed
  const json = await pith(["extract", SAMPLE, BINARY, "--format", "json"]);
  const expected = json.stdout.split("\n").slice(0, -1);
  assert.equal(expected.length, 21);

  const pages = jsonLines(join(out, SAMPLE.slice(1) + ".jsonl.gz"));
  assert.deepEqual(pages, expected, "the directory's file holds its 21 pages, as --format json writes them");
  const [failed, ...rest] = jsonLines(join(out, BINARY.slice(1).replace(/\.html$/, ".jsonl.gz")));
  assert.equal(rest.length, 0);
  assert.deepEqual(JSON.parse(failed as string), {
    version: 2,
    id: BINARY,
    source: BINARY,
    error: { stage: "decode", reason: "binary data, not an HTML page" },
  });
  assert.match(res.stderr, /extracted 21 page\(s\) with ml, 1 error\(s\)/);
  assert.deepEqual(
    readdirSync(out, { recursive: true }).filter((f) => String(f).includes(".partial")),
    [],
    "no partial file left",
  );
});

test("--out-format warc: a WET-style WARC per input WARC, one conversion record per page read back by warcio, the same text as --format text", async () => {
  const dir = tempDir("pith-warc-out-");
  const crawl = await buildCrawl(dir, samplePages(5));
  const res = await pith(
    ["extract", crawl, "--out", "wet", "--out-format", "warc", "--workers", "0"],
    "",
    dir,
  );
  assert.equal(res.status, 1, res.stderr);
  assert.match(res.stderr, /extracted 5 page\(s\) with ml, 1 error\(s\)/);
  const files = await pith(["extract", crawl, "--out", "files"], "", dir);
  assert.equal(files.status, 1, files.stderr);

  const sources = new Map<string, string>(); // target URI → the source record's id
  for (const { record } of await readWarc(join(dir, crawl)))
    sources.set(record.warcTargetURI as string, record.warcHeader("WARC-Record-ID") as string);

  const [info, ...records] = await readWarc(join(dir, "wet/crawl.wet.warc.gz"));
  assert.equal(info?.record.warcType, "warcinfo");
  assert.match(info?.block ?? "", /^software: pith/);
  assert.equal(info?.record.warcHeader("WARC-Filename"), "crawl.wet.warc.gz");
  const conversions = records.filter((r) => r.record.warcType === "conversion");
  assert.equal(conversions.length, 5, "one conversion record per page");
  for (const [k, { record, block, member }] of conversions.entries()) {
    const uri = record.warcTargetURI as string;
    assert.equal(uri, `https://sample.test/${samplePages(5)[k]?.name}`, "in input order");
    assert.equal(record.warcHeader("WARC-Refers-To"), sources.get(uri), "refers to its source record");
    assert.equal(record.warcContentType, "text/plain");
    assert.equal(record.warcHeaders.protocol, "WARC/1.0");
    assert.match(record.warcDate ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(record.warcHeader("WARC-Record-ID") ?? "", /^<urn:uuid:[0-9a-f-]{36}>$/);
    assert.equal(Number(record.warcContentLength), Buffer.byteLength(block));
    const sha1 = createHash("sha1").update(block).digest();
    assert.equal(record.warcBlockDigest, `sha1:${base32(sha1)}`);
    assert.equal(
      block,
      readFileSync(join(dir, `files/crawl/${k + 1}.txt`), "utf8"),
      "the --format text output",
    );
    assert.ok(
      gunzipSync(member).toString("latin1").startsWith("WARC/1.0\r\nWARC-Type: conversion"),
      "own member",
    );
  }
  const failed = records.filter((r) => r.record.warcType === "metadata");
  assert.equal(failed.length, 1, "the binary page is a metadata record, not a conversion");
  assert.equal(failed[0]?.record.warcTargetURI, "https://sample.test/binary");
  assert.match(
    failed[0]?.block ?? "",
    /^page: crawl\.warc\.gz#6\r\nerror-stage: decode\r\nerror-reason: binary/,
  );
  assert.equal(records.length, 6);
});

test("--out-format warc --format markdown: text/markdown records, the Markdown a page's --out file holds; an input list is one file named after it", async () => {
  const dir = tempDir("pith-warc-md-");
  const crawl = await buildCrawl(dir, samplePages(2));
  writeFileSync(join(dir, "pages.txt"), `${crawl}\n${join(SAMPLE, "hv-0029.html.gz")}\n`);
  const args = ["--input-list", "pages.txt", "--format", "markdown", "--out"];
  const res = await pith(["extract", ...args, "wet", "--out-format", "warc"], "", dir);
  assert.equal(res.status, 1, res.stderr);
  assert.equal((await pith(["extract", ...args, "files"], "", dir)).status, 1);
  const records = (await readWarc(join(dir, "wet/pages.wet.warc.gz"))).slice(1);
  assert.deepEqual(
    records.map((r) => r.record.warcType),
    ["conversion", "conversion", "metadata", "conversion"],
  );
  for (const r of records.filter((r) => r.record.warcType === "conversion"))
    assert.equal(r.record.warcContentType, "text/markdown");
  assert.equal(records[0]?.block, readFileSync(join(dir, "files/crawl/1.md"), "utf8"));
  assert.equal(records[3]?.block, readFileSync(join(dir, "files", SAMPLE.slice(1), "hv-0029.md"), "utf8"));
  assert.equal(records[3]?.record.warcHeader("WARC-Refers-To"), null, "a file has no source record");
  assert.equal(records[3]?.record.warcTargetURI, `file://${join(SAMPLE, "hv-0029.html.gz")}`);
});

test("extractBatch with a batch name (the queue's job id): one file for the whole batch, its lines as pith extract writes them", async () => {
  const dir = tempDir("pith-batch-name-");
  const crawl = join(dir, await buildCrawl(dir, samplePages(2)));
  const specs = [crawl, join(SAMPLE, "hv-0029.html.gz")];
  const sink = new Sink("json", null, true, progress("extract", 0));
  await extractBatch({
    extractor: getExtractor("cnr"),
    setup: {
      method: "cnr",
      context: { mode: "static", params: {}, trace: true },
      format: "json",
      output: DEFAULT_OUTPUT,
      render: {
        javascript: false,
        network: false,
        loadResources: false,
        timeoutMs: 15_000,
        declaredMeta: true,
      },
    },
    mode: "static",
    workers: 1,
    concurrency: 2,
    specs,
    read: {},
    sink,
    outFormat: "jsonl",
    outDir: join(dir, "out"),
    batchName: "job-42",
  });
  assert.deepEqual(sink.counts, { ok: 3, empty: 0, errors: 1, skipped: 0 });
  const lines = jsonLines(join(dir, "out/job-42.jsonl.gz"));
  const cli = await pith(["extract", ...specs, "--method", "cnr", "--format", "json"]);
  const ok = lines.filter((l) => !l.includes('"error":{'));
  assert.deepEqual(ok, cli.stdout.split("\n").slice(0, -1));
  assert.equal(lines.length, 4);
  assert.equal(readdirSync(join(dir, "out")).join(), "job-42.jsonl.gz", "no other file");
});

/** The kill test's method: no model to load. */
const CNR = ["--method", "cnr"];

/**
 * Starts `pith extract big.warc.gz` into `out` as jsonl and ends it with `signal` once it has a
 * partial file (one not in `before`); the partial files there after it ended.
 */
async function interrupt(
  cwd: string,
  signal: NodeJS.Signals,
  before: string[] = [],
): Promise<{ status: number | null; partials: string[] }> {
  const args = [
    PITH,
    "extract",
    "big.warc.gz",
    "--out",
    "out",
    "--out-format",
    "jsonl",
    "--workers",
    "1",
    ...CNR,
  ];
  const child = spawn("node", args, { cwd, stdio: "ignore" });
  const closed = new Promise<number | null>((done) =>
    child.on("close", (code, sig) => done(code ?? (sig ? -1 : null))),
  );
  const out = join(cwd, "out");
  const partials = () => (existsSync(out) ? readdirSync(out) : []).filter((f) => f.endsWith(".partial"));
  while (child.exitCode === null && partials().every((f) => before.includes(f))) await sleep(20);
  child.kill(signal);
  return { status: await closed, partials: partials() };
}

test("a killed run leaves no file under its final name (SIGKILL: a .partial; SIGTERM: nothing); a rerun writes every page once", async () => {
  const dir = tempDir("pith-batch-kill-");
  const PAGES = 150; // a second or more of work after the first page is out, on one worker
  const pages = samplePages(21);
  const records: Uint8Array[] = [];
  for (let k = 0; k < PAGES; k++) {
    const page = pages[k % pages.length] as { html: string };
    records.push(await warcResponse(`https://big.test/${k}`, page.html, "text/html"));
  }
  writeFileSync(join(dir, "big.warc.gz"), Buffer.concat(records));
  const final = join(dir, "out/big.jsonl.gz");

  const killed = await interrupt(dir, "SIGKILL");
  assert.equal(killed.status, -1, "ended by the signal, before the batch finished");
  assert.equal(existsSync(final), false, "nothing under the final name");
  assert.equal(killed.partials.length, 1, "its partial file stays, under its partial name");

  const termed = await interrupt(dir, "SIGTERM", killed.partials);
  assert.equal(termed.status, 143);
  assert.equal(existsSync(final), false);
  assert.deepEqual(termed.partials, killed.partials, "SIGTERM removed its own partial file at exit");

  for (let run = 0; run < 2; run++) {
    const res = await pith(
      ["extract", "big.warc.gz", "--out", "out", "--out-format", "jsonl", ...CNR],
      "",
      dir,
    );
    assert.equal(res.status, 0, res.stderr);
    const ids = jsonLines(final).map((l) => (JSON.parse(l) as { id: string }).id);
    assert.equal(ids.length, PAGES, `run ${run}: every page once`);
    assert.equal(new Set(ids).size, PAGES);
  }
});

test("a run that fails leaves no batch file and no partial file: a directory in the way of its name", async () => {
  const dir = tempDir("pith-batch-fail-");
  const crawl = await buildCrawl(dir, samplePages(3));
  mkdirSync(join(dir, "out/crawl.jsonl.gz/taken"), { recursive: true });
  const res = await pith(["extract", crawl, "--out", "out", "--out-format", "jsonl"], "", dir);
  assert.equal(res.status, 3, res.stderr);
  assert.match(res.stderr, /^pith: cannot write out\/crawl\.jsonl\.gz: EISDIR: .*\n$/m); // after the binary page's error line
  assert.deepEqual(readdirSync(join(dir, "out"), { recursive: true }).sort(), [
    "crawl.jsonl.gz",
    "crawl.jsonl.gz/taken",
  ]);
});

test("two inputs whose batch files would share a name: the second's pages are error records, the first's file stands", async () => {
  const dir = tempDir("pith-batch-clash-");
  const [page] = samplePages(1);
  writeFileSync(
    join(dir, "crawl.warc.gz"),
    await warcResponse("https://a.test/", page?.html ?? "", "text/html"),
  );
  writeFileSync(
    join(dir, "crawl.warc"),
    await warcResponse("https://b.test/", page?.html ?? "", "text/html", false),
  );
  const res = await pith(
    ["extract", "crawl.warc.gz", "crawl.warc", "--out", "out", "--out-format", "jsonl", ...CNR],
    "",
    dir,
  );
  assert.equal(res.status, 1, res.stderr);
  assert.match(
    res.stderr,
    /^error\tcrawl\.warc#1\twrite\tbatch file crawl\.jsonl\.gz belongs to another input of this run/m,
  );
  const lines = jsonLines(join(dir, "out/crawl.jsonl.gz")).map((l) => JSON.parse(l) as { url: string });
  assert.deepEqual(
    lines.map((l) => l.url),
    ["https://a.test/"],
  );
});

test("--out-format bad usage: one-line error, exit 2", async () => {
  const cases: [string[], RegExp][] = [
    [["--out-format", "warc"], /^pith: extract: --out-format warc needs --out DIR\n$/],
    [
      ["--out-format", "zip", "--out", "o"],
      /^pith: extract: --out-format must be one of files, jsonl, warc, not zip\n$/,
    ],
    [
      ["--out-format", "jsonl", "--format", "text", "--out", "o"],
      /^pith: extract: --out-format jsonl holds --format json objects, not text\n$/,
    ],
    [
      ["--out-format", "warc", "--format", "json", "--out", "o"],
      /^pith: extract: --out-format warc holds text, markdown or html/,
    ],
    [
      ["--out-format", "jsonl", "--skip-existing", "--out", "o"],
      /^pith: extract: --skip-existing applies to --out-format files/,
    ],
  ];
  const cwd = tempDir("pith-out-format-usage-");
  for (const [flags, message] of cases) {
    const res = await pith(["extract", join(SAMPLE, "hv-0029.html.gz"), ...flags], "", cwd);
    assert.equal(res.status, 2, `${flags.join(" ")}: ${res.stderr}`);
    assert.match(res.stderr, message);
    assert.equal(res.stderr.split("\n").length, 2, "one line");
    assert.equal(existsSync(join(cwd, "o")), false, "nothing written");
  }
});

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 of a 20-byte digest, bit by bit (the test's own, not the code's). */
function base32(bytes: Buffer): string {
  const bits = [...bytes].map((b) => b.toString(2).padStart(8, "0")).join("");
  return (bits.match(/.{1,5}/g) ?? []).map((c) => BASE32[parseInt(c.padEnd(5, "0"), 2)]).join("");
}
