import assert from "node:assert/strict";
import { createServer, type RequestListener } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import test from "node:test";
import { gunzipSync, gzipSync } from "node:zlib";
import { MAX_PAGE_BYTES } from "../src/io/decode.ts";
import { inputList, readInputs } from "../src/io/inputs.ts";
import { parseRefresh } from "../src/io/refresh.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { PageInput, PageResult } from "../src/types.ts";
import { WARCRecord, WARCSerializer } from "warcio";
import { PITH, pith, warcResponse, tempDir } from "./helpers.ts";

async function collect(specs: string[]): Promise<PageResult<PageInput>[]> {
  const out: PageResult<PageInput>[] = [];
  for await (const r of readInputs(specs)) out.push(r);
  return out;
}

/** A local HTTP server for one test: its base URL, and close(), which also drops the connections still open. */
async function serve(handler: RequestListener): Promise<{ base: string; close: () => void }> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

/** Each input's outcome in a line: "ok <page url>" or "<stage>: <reason>". */
async function outcomes(specs: string[], timeoutMs = 5_000): Promise<string[]> {
  const out: string[] = [];
  for await (const r of readInputs(specs, { fetchTimeoutMs: timeoutMs }))
    out.push(r.ok ? `ok ${r.value.url}` : `${r.error.stage}: ${r.error.reason}`);
  return out;
}

test("a directory is walked recursively; .html and .html.gz pages, other files ignored, ids are relative paths", async () => {
  const dir = tempDir("pith-in-");
  mkdirSync(join(dir, "a"));
  writeFileSync(join(dir, "a", "one.html"), "<p>one</p>");
  writeFileSync(join(dir, "two.html.gz"), gzipSync("<p>two</p>"));
  writeFileSync(join(dir, "notes.txt"), "not a page");
  const pages = await collect([dir]);
  assert.deepEqual(
    pages.map((p) => (p.ok ? [p.value.id, p.value.html] : null)),
    [
      ["a/one.html", "<p>one</p>"],
      ["two.html.gz", "<p>two</p>"],
    ],
  );
});

test("a WARC file yields its HTML responses with their URLs and skips other records", async () => {
  const dir = tempDir("pith-warc-");
  const parts = [
    await warcResponse(
      "https://example.org/a",
      "<html><body><p>page a</p></body></html>",
      "text/html; charset=utf-8",
    ),
    await warcResponse("https://example.org/logo.png", "PNG", "image/png"),
    await warcResponse("https://example.org/b", "<p>caf\u00e9</p>", "text/html"),
  ];
  writeFileSync(join(dir, "crawl.warc.gz"), Buffer.concat(parts));
  const pages = await collect([join(dir, "crawl.warc.gz")]);
  assert.equal(pages.length, 2);
  const ok = pages.map((p) => (p.ok ? p.value : null));
  assert.equal(ok[0]?.url, "https://example.org/a");
  assert.match(ok[0]?.html ?? "", /page a/);
  assert.equal(ok[1]?.url, "https://example.org/b");
  assert.match(ok[1]?.html ?? "", /café/);
  assert.deepEqual(
    ok.map((p) => p?.id),
    [`${join(dir, "crawl.warc.gz")}#1`, `${join(dir, "crawl.warc.gz")}#2`],
  );
  const walked = await collect([dir]);
  assert.deepEqual(
    walked.map((p) => (p.ok ? p.value.id : p.error.id)),
    ["crawl.warc.gz#1", "crawl.warc.gz#2"],
    "found by walking a directory: ids relative to it, as page files'",
  );
});

test("a WARC's HTML resource records are pages too (a page stored without its HTTP exchange); a WARC without any HTML page says so", async () => {
  const dir = tempDir("pith-warc-res-");
  const resource = (url: string, type: string, body: string) =>
    WARCSerializer.serialize(
      WARCRecord.create(
        { url, type: "resource", warcVersion: "WARC/1.1", warcHeaders: { "Content-Type": type } },
        (async function* () {
          yield new TextEncoder().encode(body);
        })(),
      ),
      { gzip: true },
    );
  const info = WARCSerializer.serialize(
    WARCRecord.createWARCInfo({ filename: "x.warc.gz", warcVersion: "WARC/1.1" }, { software: "test" }),
    { gzip: true },
  );
  const feeds = [
    await resource("https://example.org/feed", "application/rss+xml", "<rss></rss>"),
    await resource("https://example.org/sitemap.xml", "application/xml", "<urlset></urlset>"),
  ];
  const xhtml = await resource(
    "https://example.org/x",
    "application/xhtml+xml",
    "<html xmlns='http://www.w3.org/1999/xhtml'><body><p>xhtml</p></body></html>",
  );
  writeFileSync(
    join(dir, "res.warc.gz"),
    Buffer.concat([
      await info,
      await resource("https://example.org/logo.png", "image/png", "PNG"),
      ...feeds,
      await resource("https://example.org/saved", "text/html; charset=utf-8", "<p>a saved page</p>"),
      xhtml,
    ]),
  );
  const pages = await collect([join(dir, "res.warc.gz")]);
  assert.deepEqual(
    pages.map((p) => (p.ok ? [p.value.url, p.value.html.slice(0, 20)] : p.error.reason)),
    [
      ["https://example.org/saved", "<p>a saved page</p>"],
      ["https://example.org/x", "<html xmlns='http://"],
    ],
    "a crawl's feeds and sitemaps are not pages",
  );
  writeFileSync(
    join(dir, "none.warc.gz"),
    Buffer.concat([await info, await resource("https://example.org/logo.png", "image/png", "PNG")]),
  );
  const none = await collect([join(dir, "none.warc.gz")]);
  assert.deepEqual(
    none.map((p) => (p.ok ? "ok" : `${p.error.stage}: ${p.error.reason}`)),
    [
      "read: no HTML pages in this WARC: none of its 2 record(s) is a response or resource with an HTML content type",
    ],
  );
});

test("a corrupt WARC gives one error record, not a crash", async () => {
  const dir = tempDir("pith-warc-");
  writeFileSync(join(dir, "bad.warc.gz"), gzipSync("this is not a warc file\r\n\r\n"));
  const pages = await collect([join(dir, "bad.warc.gz")]);
  assert.equal(pages.length, 1);
  assert.ok(pages.every((p) => !p.ok && p.error.stage === "read" && /bad WARC/.test(p.error.reason)));
});

test("a WARC record whose HTTP header has no fields (a revisit's 'HTTP/1.1 200 OK' and blank line, a 204 response) or is no header (2 MB without a line end) does not eat the next record, gzipped per record or not", async () => {
  const dir = tempDir("pith-warc-fieldless-");
  /** A record written by hand: a block that is only an HTTP status line and the blank line, and no Content-Type WARC header. */
  const fieldless = (type: string, url: string, block: string, gzip: boolean) => {
    const head =
      `WARC/1.1\r\nWARC-Type: ${type}\r\nWARC-Target-URI: ${url}\r\nWARC-Record-ID: <urn:uuid:${type}-1>\r\nWARC-Date: 2024-01-02T03:04:05Z\r\n` +
      (type === "revisit"
        ? "WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\nWARC-Refers-To-Target-URI: https://example.org/a\r\n"
        : "") +
      `Content-Length: ${Buffer.byteLength(block)}\r\n\r\n`;
    const record = Buffer.from(`${head}${block}\r\n\r\n`);
    return gzip ? gzipSync(record) : record;
  };
  for (const gzip of [true, false]) {
    const name = join(dir, gzip ? "revisit.warc.gz" : "revisit.warc");
    writeFileSync(
      name,
      Buffer.concat([
        await warcResponse("https://example.org/a", "<p>page a</p>", "text/html", gzip),
        fieldless("revisit", "https://example.org/a", "HTTP/1.1 200 OK\r\n\r\n", gzip),
        fieldless("response", "https://example.org/empty", "HTTP/1.1 204 No Content\r\n\r\n", gzip),
        fieldless("response", "https://example.org/no-header", "x".repeat(2 * 1024 * 1024), gzip), // no line end: read up to the header cap, not a page
        await warcResponse("https://example.org/b", "<p>page b</p>", "text/html", gzip),
      ]),
    );
    const got = (await collect([name])).map((p) =>
      p.ok ? `ok ${p.value.id.split("#")[1]} ${p.value.url} ${p.value.html}` : `error: ${p.error.reason}`,
    );
    assert.deepEqual(
      got,
      ["ok 1 https://example.org/a <p>page a</p>", "ok 2 https://example.org/b <p>page b</p>"],
      `gzip: ${gzip}`,
    );
  }
});

test("a WARC cut short reports what it lost: an error record after its last whole record, gzipped or not; trailing newlines are fine", async () => {
  const dir = tempDir("pith-warc-cut-");
  const body = `<html><body>${"<p>a paragraph of the second page</p>".repeat(40)}</body></html>`;
  const outcome = async (name: string, bytes: Uint8Array) => {
    writeFileSync(join(dir, name), bytes);
    return (await collect([join(dir, name)])).map((p) =>
      p.ok ? `ok ${p.value.id.split("#")[1]}` : `error ${p.error.id.split("#")[1]}: ${p.error.reason}`,
    );
  };
  for (const gzip of [true, false]) {
    const parts = [
      await warcResponse("https://example.org/a", "<p>page a</p>", "text/html", gzip),
      await warcResponse("https://example.org/logo.png", "PNG", "image/png", gzip),
      await warcResponse("https://example.org/b", body, "text/html", gzip),
    ];
    const whole = Buffer.concat(parts);
    const cut = whole.subarray(0, whole.length - Math.floor((parts[2] as Uint8Array).length / 2));
    const got = await outcome(gzip ? "cut.warc.gz" : "cut.warc", cut);
    assert.equal(got.length, 2, got.join("\n"));
    assert.equal(got[0], "ok 1");
    assert.match(
      got[1] ?? "",
      gzip
        ? /^error 2: bad WARC: truncated or corrupt after record 2: \d+ byte\(s\)/
        : /^error 2: bad WARC: record 3 is cut short/,
    );
    assert.deepEqual(await outcome(gzip ? "whole.warc.gz" : "whole.warc", whole), ["ok 1", "ok 2"]);
  }
  const plain = Buffer.concat([
    await warcResponse("https://example.org/a", "<p>page a</p>", "text/html", false),
    Buffer.from("\r\n\r\n\n"),
  ]);
  assert.deepEqual(await outcome("trailing.warc", plain), ["ok 1"]);
});

test("a gzipped WARC record shorter than its Content-Length inside a whole gzip member (a writer bug, not a cut file) is an error record, not a partial page", async () => {
  const dir = tempDir("pith-warc-member-");
  const body = `<html><body>${"<p>a paragraph of the second page</p>".repeat(40)}</body></html>`;
  const plain = Buffer.from(await warcResponse("https://example.org/b", body, "text/html", false));
  const path = join(dir, "member.warc.gz");
  writeFileSync(
    path,
    Buffer.concat([
      await warcResponse("https://example.org/a", "<p>page a</p>", "text/html"),
      gzipSync(plain.subarray(0, plain.length - 700)),
    ]),
  );
  const got = (await collect([path])).map((p) =>
    p.ok ? `ok ${p.value.id.split("#")[1]}` : `error ${p.error.id.split("#")[1]}: ${p.error.reason}`,
  );
  assert.equal(got.length, 2, got.join("\n"));
  assert.equal(got[0], "ok 1");
  assert.match(got[1] ?? "", /^error 2: bad WARC: record 2 is cut short \(\d+ of more than \d+ bytes\)$/);
});

test("a WARC whose last record is one pith skips (an image) cut short: an error record, and the run ends (warcio's own skip never returned)", async () => {
  const dir = tempDir("pith-warc-skip-cut-");
  for (const gzip of [false, true]) {
    const parts = [
      await warcResponse("https://example.org/a", "<p>page a has some words</p>", "text/html", gzip),
      await warcResponse("https://example.org/logo.png", "PNG".repeat(400), "image/png", gzip),
    ];
    const whole = Buffer.concat(parts);
    // a plain WARC cut inside the image; a gzipped one whose last member says more bytes than it holds
    const bytes = gzip
      ? Buffer.concat([parts[0] as Uint8Array, gzipSync(gunzipSync(parts[1] as Uint8Array).subarray(0, 600))])
      : whole.subarray(0, whole.length - 500);
    const file = join(dir, gzip ? "cut.warc.gz" : "cut.warc");
    writeFileSync(file, bytes);
    // in a child process with a time limit: the old code spun at 100 % CPU forever, starving the test runner's timers
    const r = spawnSync(process.execPath, [PITH, "extract", file], { encoding: "utf8", timeout: 60_000 });
    assert.equal(r.signal, null, `${file}: killed after 60 s`);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /page a has some words/);
    assert.match(r.stderr, /\tread\tbad WARC: record 2 is cut short \(fewer than \d+ bytes\)$/m);
  }
});

test(
  "a WARC record over the page size limit is an error record, not read into memory, and the next record still comes",
  { timeout: 60_000 },
  async () => {
    const dir = tempDir("pith-warc-big-");
    const http = Buffer.from("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n");
    const payload = Buffer.concat([http, Buffer.alloc(MAX_PAGE_BYTES + 1, 0x20)]);
    const header = Buffer.from(
      `WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.org/huge\r\nWARC-Record-ID: <urn:uuid:1>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    const next = await warcResponse("https://example.org/small", "<p>small page</p>", "text/html", false);
    writeFileSync(join(dir, "big.warc"), Buffer.concat([header, payload, Buffer.from("\r\n\r\n"), next]));
    const pages = await collect([join(dir, "big.warc")]);
    assert.equal(pages.length, 2);
    const [big, small] = pages;
    assert.ok(
      big && !big.ok && /page is larger than \d+ bytes \(a \d+-byte WARC record\)/.test(big.error.reason),
      JSON.stringify(big),
    );
    assert.ok(small?.ok && small.value.url === "https://example.org/small");
  },
);

test("a file whose name is not valid UTF-8 is an error record that says so, and the batch goes on", async () => {
  const dir = tempDir("pith-names-");
  writeFileSync(
    Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0xff, 0xfe]), Buffer.from("bad.html")]),
    "<p>latin-1 named page</p>",
  );
  writeFileSync(join(dir, "good.html"), "<p>a page</p>");
  const pages = await collect([dir]);
  assert.equal(pages.length, 2);
  assert.ok(pages.some((p) => p.ok && p.value.id === "good.html"));
  assert.ok(
    pages.some((p) => !p.ok && /its name is not valid UTF-8/.test(p.error.reason)),
    JSON.stringify(pages),
  );
});

test("a directory of symbolic links is followed: linked pages and folders count, a link cycle is walked once, a dangling link is an error record", async () => {
  const src = tempDir("pith-src-");
  writeFileSync(join(src, "one.html"), "<p>one</p>");
  mkdirSync(join(src, "sub"));
  writeFileSync(join(src, "sub", "two.html"), "<p>two</p>");
  const dir = tempDir("pith-links-");
  symlinkSync(join(src, "one.html"), join(dir, "linked.html"));
  symlinkSync(join(src, "sub"), join(dir, "folder"));
  symlinkSync(dir, join(dir, "loop")); // a cycle back to the walked folder
  symlinkSync(join(src, "gone.html"), join(dir, "dangling.html"));
  const pages = await collect([dir]);
  assert.deepEqual(
    pages.map((p) => (p.ok ? [p.value.id, p.value.html] : [p.error.id, p.error.reason])),
    [
      ["dangling.html", "broken symbolic link: its target does not exist"],
      ["folder/two.html", "<p>two</p>"],
      ["linked.html", "<p>one</p>"],
    ],
  );
});

test("inputs that are not regular files: a named pipe in a directory is an error record (reading it would block the batch); one named on the command line is read, as process substitution gives; a device is read up to the size cap", async () => {
  const dir = tempDir("pith-fifo-");
  writeFileSync(join(dir, "page.html"), "<p>page</p>");
  assert.equal(spawnSync("mkfifo", [join(dir, "pipe.html")]).status, 0);
  const pages = await collect([dir]);
  assert.deepEqual(
    pages.map((p) => (p.ok ? [p.value.id, p.value.html] : [p.error.id, p.error.reason])),
    [
      ["page.html", "<p>page</p>"],
      ["pipe.html", "not a regular file (a named pipe, a device or a socket): left out"],
    ],
  );
  const writer = spawn("bash", ["-c", `printf '<p>piped</p>' > "$1"`, "bash", join(dir, "pipe.html")]);
  const written = new Promise((done) => writer.on("close", done));
  const piped = await collect([join(dir, "pipe.html")]);
  await written;
  assert.deepEqual(
    piped.map((p) => (p.ok ? p.value.html : p.error.reason)),
    ["<p>piped</p>"],
  );
  const zero = await collect(["/dev/zero"]);
  assert.deepEqual(
    zero.map((p) => (p.ok ? "ok" : p.error.reason)),
    [`page is larger than ${MAX_PAGE_BYTES} bytes`],
    "/dev/zero never ends: it was read forever",
  );
});

test("a file:// URL names a local file or folder (percent-escapes decoded); another scheme is an error record that says what pith reads", async () => {
  const dir = tempDir("pith file url-");
  writeFileSync(join(dir, "a page.html"), "<p>local</p>");
  const got = await collect([
    pathToFileURL(join(dir, "a page.html")).href,
    pathToFileURL(dir).href,
    "ftp://example.org/a.html",
  ]);
  assert.deepEqual(
    got.map((p) => (p.ok ? [p.value.id, p.value.html] : [p.error.id, p.error.reason])),
    [
      [join(dir, "a page.html"), "<p>local</p>"],
      [join(dir, "a page.html"), "<p>local</p>"], // the folder, one of several inputs, keeps its path in its pages' ids
      [
        "ftp://example.org/a.html",
        "unsupported URL scheme ftp: pith reads http(s) and file URLs, files, directories, WARCs and - (stdin)",
      ],
    ],
  );
});

test("a directory without page files gives one error record that says so", async () => {
  const dir = tempDir("pith-empty-");
  writeFileSync(join(dir, "notes.txt"), "not a page");
  const pages = await collect([dir]);
  assert.equal(pages.length, 1);
  const only = pages[0] as PageResult<PageInput>;
  assert.ok(!only.ok);
  assert.match(only.error.reason, /no page files under this directory/);
});

test("a directory that cannot be listed is one error record, and the rest of the tree is read", async () => {
  // a tree deeper than the OS allows a path to be (PATH_MAX 4,096 bytes): made by walking down with
  // relative paths, as a crawler writing nested folders could; the walk cannot name the deepest folders
  const dir = tempDir("pith-deep-");
  writeFileSync(join(dir, "top.html"), "<p>top</p>");
  const name = "d".repeat(250);
  const made = spawnSync("bash", [
    "-c",
    `cd "$1" && for i in $(seq 20); do mkdir ${name} && cd ${name}; done && echo '<p>deep</p>' > deep.html`,
    "bash",
    dir,
  ]);
  assert.equal(made.status, 0, String(made.stderr));
  try {
    const pages = await collect([dir]);
    assert.deepEqual(
      pages.flatMap((p) => (p.ok ? [p.value.id] : [])),
      ["top.html"],
    );
    const errors = pages.filter((p) => !p.ok);
    assert.equal(errors.length, 1, JSON.stringify(errors.map((e) => !e.ok && e.error.reason)));
    const e = errors[0] as Extract<PageResult<PageInput>, { ok: false }>;
    assert.equal(e.error.stage, "read");
    assert.equal(e.error.reason, "cannot list this directory: path too long for the operating system");
    assert.ok(
      e.error.id.startsWith(`${name}/`) && !e.error.id.startsWith("/"),
      "the id is the folder's path below the input",
    );
  } finally {
    spawnSync("rm", ["-rf", dir]);
  }
});

test("a subdirectory without read permission: pith extract reports it and extracts the other pages (exit 1)", (t) => {
  // root reads any folder, so as root the CLI runs as an unprivileged user (nobody), which must be able to read pith's checkout
  const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  if (spawnSync(process.execPath, [PITH, "--version"], { cwd: tmpdir(), ...asUser }).status !== 0)
    return t.skip(
      "pith's checkout is not readable by an unprivileged user here (the path-too-long test covers the walk)",
    );
  const dir = tempDir("pith-perm-");
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, "locked"));
  writeFileSync(join(dir, "locked", "hidden.html"), "<p>unreachable</p>");
  writeFileSync(
    join(dir, "open.html"),
    "<html><body><article><p>A page that can be read, with a few words of text in it.</p></article></body></html>",
  );
  chmodSync(join(dir, "locked"), 0o000);
  try {
    const r = spawnSync(process.execPath, [PITH, "extract", dir], {
      encoding: "utf8",
      timeout: 120_000,
      cwd: tmpdir(),
      ...asUser,
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /A page that can be read/);
    assert.match(r.stderr, /^error\tlocked\tread\tcannot list this directory: permission denied$/m);
    assert.match(r.stderr, /extracted 1 page\(s\) with ml, 1 error\(s\)/);
  } finally {
    chmodSync(join(dir, "locked"), 0o755);
  }
});

test("a fetch that fails says how: a body whose gzip does not decode, a body still arriving at the time limit, no answer at all", async () => {
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    if (req.url === "/bad-gzip") {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
      return void res.end("these bytes are not gzip");
    }
    if (req.url === "/drip") {
      res.writeHead(200, { "content-type": "text/html" });
      const t = setInterval(() => res.write("<p>one more paragraph</p>"), 100);
      timers.add(t);
      return void req.on("close", () => clearInterval(t));
    }
    // /silent: never answers
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const reasons: string[] = [];
    for await (const r of readInputs([`${base}/bad-gzip`, `${base}/drip`, `${base}/silent`], {
      fetchTimeoutMs: 800,
    }))
      reasons.push(r.ok ? "ok" : `${r.error.stage}: ${r.error.reason}`);
    assert.deepEqual(reasons, [
      "fetch: its gzip body does not decode (Z_DATA_ERROR)",
      "fetch: the page was still arriving after 800 ms (the time limit)",
      "fetch: unreachable: no answer within 800 ms",
    ]);
  } finally {
    for (const t of timers) clearInterval(t);
    server.closeAllConnections();
    server.close();
  }
});

test("URLs are fetched fetchConcurrency at a time and come out in input order, a file between them in its place", async () => {
  let open = 0;
  let most = 0;
  const server = createServer((req, res) => {
    open++;
    most = Math.max(most, open);
    // the first URLs answer last, so an out-of-order stream would show
    const delay = 60 * (6 - Number(req.url?.slice(1)));
    setTimeout(() => {
      open--;
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<p>page ${req.url}</p>`);
    }, delay);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  const dir = tempDir("pith-fetch-");
  writeFileSync(join(dir, "local.html"), "<p>local</p>");
  const urls = [1, 2, 3, 4, 5].map((i) => `http://127.0.0.1:${port}/${i}`);
  try {
    const ids: string[] = [];
    const html: string[] = [];
    for await (const r of readInputs([...urls.slice(0, 3), join(dir, "local.html"), ...urls.slice(3)], {
      fetchConcurrency: 3,
    })) {
      assert.ok(r.ok, r.ok ? "" : r.error.reason);
      ids.push(r.value.id);
      html.push(r.value.html);
    }
    assert.deepEqual(ids, [...urls.slice(0, 3), join(dir, "local.html"), ...urls.slice(3)]);
    assert.match(html[0]!, /page \/1/);
    assert.match(html[4]!, /page \/4/);
    assert.equal(most, 3, "three fetches were in flight at once, never more");
  } finally {
    server.close();
  }
});

test("an input list is read line by line; blank lines and # comments are skipped", async () => {
  const dir = tempDir("pith-list-");
  writeFileSync(join(dir, "a.html"), "<p>a</p>");
  writeFileSync(join(dir, "b.html"), "<p>b</p>");
  writeFileSync(
    join(dir, "list.txt"),
    `# pages to extract\n${join(dir, "a.html")}\n\n  ${join(dir, "b.html")}  \r\n`,
  );
  const specs: string[] = [];
  for await (const s of inputList(join(dir, "list.txt"))) specs.push(s);
  assert.deepEqual(specs, [join(dir, "a.html"), join(dir, "b.html")]);
});

test("pages past MAX_PAGE_BYTES are refused before they are held: a file by its size, a download as it streams; a URL that is not HTML is an error record", async () => {
  const dir = tempDir("pith-big-");
  const sparse = join(dir, "huge.html");
  writeFileSync(sparse, "<p>");
  truncateSync(sparse, MAX_PAGE_BYTES + 1); // a sparse file: large, nothing written
  const chunk = Buffer.alloc(1 << 20, "a");
  const server = createServer((req, res) => {
    if (req.url === "/image") {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(Buffer.alloc(100));
      return;
    }
    if (req.url === "/declared") {
      res.writeHead(200, { "content-type": "text/html", "content-length": String(MAX_PAGE_BYTES + 1) });
      res.end(); // the header alone says too much
      return;
    }
    res.writeHead(200, { "content-type": "text/html" }); // chunked: no length said, the stream outgrows the cap
    let sent = 0;
    const more = (): void => {
      while (sent <= MAX_PAGE_BYTES) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", more);
      }
      res.end();
    };
    res.on("error", () => {});
    more();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  try {
    const results = await collect([
      sparse,
      `http://127.0.0.1:${port}/image`,
      `http://127.0.0.1:${port}/declared`,
      `http://127.0.0.1:${port}/stream`,
    ]);
    assert.deepEqual(
      results.map((r) => (r.ok ? "ok" : `${r.error.stage}: ${r.error.reason}`)),
      [
        `read: page is larger than ${MAX_PAGE_BYTES} bytes`,
        "fetch: not an HTML page (content-type image/png)",
        `fetch: page is larger than ${MAX_PAGE_BYTES} bytes`,
        `fetch: page is larger than ${MAX_PAGE_BYTES} bytes`,
      ],
    );
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test("redirects are followed to the page, whose URL is the last one (the base its links resolve against); a loop, too many, one to another scheme or one without a Location is an error record that says so", async () => {
  const { base, close } = await serve((req, res) => {
    const path = req.url ?? "";
    const redirect = (status: number, location?: string) => {
      res.writeHead(status, location === undefined ? {} : { location });
      res.end();
    };
    const chain = /^\/chain\/(\d+)$/.exec(path);
    if (chain)
      return Number(chain[1]) > 0
        ? redirect(302, `/chain/${Number(chain[1]) - 1}`)
        : void res.end("<p>end of the chain</p>");
    if (path === "/moved") return redirect(301, "/dir/final");
    if (path === "/found") return redirect(302, "dir/final"); // relative to /found: /dir/final
    if (path === "/temporary") return redirect(307, "/dir/final");
    if (path === "/permanent") return redirect(308, `${base}/dir/final`);
    if (path === "/see-other") return redirect(303, "/dir/final");
    if (path === "/accented") return redirect(302, Buffer.from("/dir/caf\u00e9", "utf8").toString("latin1")); // a Location header in raw UTF-8
    if (path === "/loop-a") return redirect(302, "/loop-b");
    if (path === "/loop-b") return redirect(302, "/loop-a");
    if (path === "/to-file") return redirect(302, "file:///etc/passwd");
    if (path === "/to-script") return redirect(302, "javascript:alert(1)");
    if (path === "/nowhere") return redirect(302);
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<p>page at ${path}</p>`);
  });
  try {
    const got = await outcomes(
      [
        "moved",
        "found",
        "temporary",
        "permanent",
        "see-other",
        "accented",
        "chain/20",
        "chain/21",
        "loop-a",
        "to-file",
        "to-script",
        "nowhere",
      ].map((p) => `${base}/${p}`),
    );
    assert.deepEqual(got, [
      ...Array(5).fill(`ok ${base}/dir/final`),
      `ok ${base}/dir/caf%C3%A9`,
      `ok ${base}/chain/0`,
      `fetch: more than 20 redirects (the next was to ${base}/chain/0)`,
      `fetch: redirect loop: ${base}/loop-b redirects back to ${base}/loop-a (a site that sets a cookie and redirects may expect it back: pith keeps no cookies)`,
      "fetch: redirected to a file: URL, which pith does not follow (only http and https)",
      "fetch: redirected to a javascript: URL, which pith does not follow (only http and https)",
      "fetch: HTTP 302 Found without a Location header to go to",
    ]);
  } finally {
    close();
  }
});

test("a URL's user name and password go to its own host as Basic authorization, never to a host a redirect leads to, and are shown nowhere: not in page ids, error records, outputs or --out names", async () => {
  const seen: string[] = [];
  const other = await serve((req, res) => {
    seen.push(`other ${req.url} ${req.headers.authorization ?? "no authorization"}`);
    res.writeHead(200, { "content-type": "text/html" });
    res.end(
      "<html><body><article><p>The page another host serves, with enough words to be its main content.</p></article></body></html>",
    );
  });
  const { base, close } = await serve((req, res) => {
    seen.push(`own ${req.url} ${req.headers.authorization ?? "no authorization"}`);
    if (req.url === "/elsewhere") res.writeHead(302, { location: `${other.base}/landing` });
    else if (req.url === "/missing") res.writeHead(404, { "content-type": "text/html" });
    else res.writeHead(200, { "content-type": "text/html" });
    res.end(
      `<html><body><article><p>The members' page at ${req.url}, with enough words to be its main content.</p></article></body></html>`,
    );
  });
  const withCredentials = (path: string) => base.replace("http://", "http://ann:s%40cret@") + path;
  const pages: string[] = [];
  try {
    for await (const r of readInputs(["/members", "/elsewhere", "/missing"].map(withCredentials)))
      pages.push(
        r.ok
          ? `ok ${r.value.id} ${r.value.source} ${r.value.url}`
          : `${r.error.id} ${r.error.source}: ${r.error.reason}`,
      );
    const dir = tempDir("pith-credentials-");
    const cli = await pith([
      "extract",
      "--format",
      "json",
      "--out",
      dir,
      withCredentials("/members"),
      withCredentials("/missing"),
    ]); // not spawnSync: this process serves the pages
    const written = spawnSync(
      "bash",
      ["-c", `cd "$1" && find . -type f -exec echo {} \\; -exec cat {} \\;`, "bash", dir],
      { encoding: "utf8" },
    ).stdout;
    assert.equal(cli.status, 1, cli.stderr);
    for (const text of [cli.stdout, cli.stderr, written]) assert.doesNotMatch(text, /ann|s%40cret|s@cret/);
    assert.match(written, /members' page at \/members/);
  } finally {
    close();
    other.close();
  }
  const basic = `Basic ${Buffer.from("ann:s@cret").toString("base64")}`;
  assert.deepEqual(pages, [
    `ok ${base}/members ${base}/members ${base}/members`,
    `ok ${base}/elsewhere ${base}/elsewhere ${other.base}/landing`,
    `${base}/missing ${base}/missing: HTTP 404 Not Found`,
  ]);
  assert.deepEqual(seen.slice(0, 4), [
    `own /members ${basic}`,
    `own /elsewhere ${basic}`,
    "other /landing no authorization",
    `own /missing ${basic}`,
  ]);
});

test("a fetch that gets no page says why in words: a connection closed without an answer or in the middle of the body (a gzipped one too), an answer that is not HTTP, a body whose br does not decode, headers too large, a status with no page, a refused connection, a blocked port, a bad URL, an untrusted certificate", async (t) => {
  const { base, close } = await serve((req, res) => {
    const raw = (text: string) => {
      res.socket?.end(text);
    };
    if (req.url === "/hang-up") return void res.socket?.destroy();
    if (req.url === "/cut")
      return raw(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n<p>the first part of a page",
      );
    if (req.url === "/not-http") return raw("SSH-2.0-OpenSSH_9.6\r\n\r\n");
    if (req.url === "/bare-status") return raw("HTTP/1.1 404 \r\nContent-Length: 0\r\n\r\n");
    if (req.url === "/huge-header")
      return raw(
        `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Padding: ${"a".repeat(70_000)}\r\nContent-Length: 0\r\n\r\n`,
      );
    if (req.url === "/reset-gzip") {
      // half a gzip body, then a reset connection: a cut page, not one whose gzip is broken
      const gzip = gzipSync("<p>a long page</p>".repeat(2_000));
      res.socket?.write(
        `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: ${gzip.length}\r\n\r\n`,
      );
      res.socket?.write(gzip.subarray(0, gzip.length >> 1), () =>
        setTimeout(() => res.socket?.resetAndDestroy(), 50),
      );
      return;
    }
    if (req.url === "/bad-br") {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "br" });
      return void res.end("<p>these bytes are not brotli</p>");
    }
    res.writeHead(Number(req.url?.slice(1)), { "content-type": "text/html" });
    res.end(req.url === "/204" ? undefined : "<p>the server's own error page</p>");
  });
  const refused = await serve(() => {});
  refused.close(); // its port now refuses connections
  try {
    const got = await outcomes([
      ...[
        "hang-up",
        "cut",
        "reset-gzip",
        "not-http",
        "bare-status",
        "huge-header",
        "bad-br",
        "204",
        "410",
        "503",
      ].map((p) => `${base}/${p}`),
      `${refused.base}/`,
      "http://127.0.0.1:1/",
      "http://exa mple.org/",
    ]);
    assert.deepEqual(
      got.map((r) => r.replace(/\(ERR_[A-Z_]+\)$/, "(ERR_…)")),
      [
        "fetch: the server closed the connection without an answer (UND_ERR_SOCKET)",
        "fetch: the connection closed before the whole page came (UND_ERR_SOCKET)",
        "fetch: the connection closed before the whole page came (ECONNRESET)",
        "fetch: the server's answer is not HTTP (HPE_INVALID_CONSTANT)",
        "fetch: HTTP 404",
        "fetch: the server's headers are larger than fetch accepts (UND_ERR_HEADERS_OVERFLOW: 16 KB by default, node's --max-http-header-size)",
        "fetch: its br body does not decode (ERR_…)",
        "fetch: HTTP 204 No Content: the server sent no page",
        "fetch: HTTP 410 Gone",
        "fetch: HTTP 503 Service Unavailable",
        "fetch: unreachable: connection refused (ECONNREFUSED)",
        "fetch: unreachable: fetch does not connect to that port (the fetch standard blocks the ports of other protocols)",
        "fetch: not a valid URL",
      ],
    );
  } finally {
    close();
  }
  const dir = tempDir("pith-tls-");
  const made = spawnSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    join(dir, "key.pem"),
    "-out",
    join(dir, "cert.pem"),
    "-subj",
    "/CN=localhost",
    "-days",
    "1",
  ]);
  if (made.status !== 0) return t.skip("no openssl to make a self-signed certificate");
  const tls = createHttpsServer(
    { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
    (_req, res) => res.end("<p>secret</p>"),
  );
  await new Promise<void>((done) => tls.listen(0, "127.0.0.1", done));
  try {
    assert.deepEqual(await outcomes([`https://127.0.0.1:${(tls.address() as AddressInfo).port}/`]), [
      "fetch: unreachable: its TLS certificate is not accepted (DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate)",
    ]);
  } finally {
    tls.closeAllConnections();
    tls.close();
  }
});

test("a URL's Content-Type decides how its body is read: an HTTP charset (quoted or not) over a <meta> one, XHTML and no type as markup, text/plain as text (as a browser shows it, unless it is plainly an HTML document), a stylesheet or a script is no page", async () => {
  const iconv = (await import("iconv-lite")).default;
  const russian = "<html><head>META</head><body><p>Погода в Москве</p></body></html>";
  const bodies: Record<string, [string, string | Uint8Array]> = {
    "/cyrillic": [
      "text/html; charset=windows-1251",
      iconv.encode(russian.replace("META", ""), "windows-1251"),
    ],
    "/quoted": [
      'text/html; charset="windows-1251"',
      iconv.encode(russian.replace("META", ""), "windows-1251"),
    ],
    "/conflict": [
      "text/html; charset=windows-1251",
      iconv.encode(russian.replace("META", '<meta charset="iso-8859-1">'), "windows-1251"),
    ],
    "/japanese": ["text/html;charset=Shift_JIS", iconv.encode("<p>東京の天気は晴れです</p>", "shift_jis")],
    "/xhtml": [
      "application/xhtml+xml",
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>xhtml</p></body></html>',
    ],
    "/untyped": ["", "<p>no content type</p>"],
    "/plain": ["text/plain; charset=utf-8", "Notes & plans\n\n  <b>not bold</b>, kept as typed\n"],
    "/mislabelled": [
      "text/plain",
      "\n<!DOCTYPE html>\n<html><body><p>an HTML page served as text/plain</p></body></html>",
    ],
    "/style": ["text/css", "body { color: red }"],
    "/script": ["text/javascript; charset=utf-8", "console.log('hi')"],
  };
  const { base, close } = await serve((req, res) => {
    const [type, body] = bodies[req.url ?? ""] ?? ["text/html", ""];
    if (type) res.setHeader("content-type", type);
    res.end(body);
  });
  try {
    const got: string[] = [];
    for await (const r of readInputs(Object.keys(bodies).map((p) => base + p)))
      got.push(
        r.ok
          ? `${r.value.encoding}: ${r.value.html.replace(/<\/?(html|head|body)>/g, "")}`
          : `${r.error.stage}: ${r.error.reason}`,
      );
    assert.deepEqual(got, [
      "windows-1251 (http): <p>Погода в Москве</p>",
      "windows-1251 (http): <p>Погода в Москве</p>",
      'windows-1251 (http): <meta charset="iso-8859-1"><p>Погода в Москве</p>',
      "shift_jis (http): <p>東京の天気は晴れです</p>",
      'utf-8: <?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><p>xhtml</p>',
      "utf-8: <p>no content type</p>",
      "utf-8: <!DOCTYPE html><pre>\nNotes &amp; plans\n\n  &lt;b&gt;not bold&lt;/b&gt;, kept as typed\n</pre>",
      "utf-8: \n<!DOCTYPE html>\n<p>an HTML page served as text/plain</p>",
      "fetch: not an HTML page (content-type text/css)",
      "fetch: not an HTML page (content-type text/javascript)",
    ]);
  } finally {
    close();
  }
});

test("an HTTP charset that names no known encoding is passed over for the page's <meta charset>, as browsers do", async () => {
  const iconv = (await import("iconv-lite")).default;
  const czech = iconv.encode(
    '<html><head><meta charset="windows-1250"></head><body><p>Příliš žluťoučký kůň úpěl ďábelské ódy.</p></body></html>',
    "windows-1250",
  );
  const { base, close } = await serve((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=x-no-such-encoding" });
    res.end(czech);
  });
  try {
    const [page] = await collect([`${base}/`]);
    assert.ok(page?.ok, JSON.stringify(page));
    assert.equal(page.value.encoding, "windows-1250 (meta)");
    assert.match(page.value.html, /Příliš žluťoučký kůň úpěl ďábelské ódy/);
  } finally {
    close();
  }
});

test("a page served as application/xhtml+xml is XML even without an XML declaration, as browsers parse it (a self-closed <script/> does not swallow the page), from a URL and from a WARC", async () => {
  const xhtml =
    '<html xmlns="http://www.w3.org/1999/xhtml"><head><script src="a.js"/></head><body><div class="note"/><p>The text of an XHTML page.</p></body></html>';
  const { base, close } = await serve((req, res) => {
    res.writeHead(200, {
      "content-type": req.url === "/as-html" ? "text/html" : "application/xhtml+xml; charset=utf-8",
    });
    res.end(xhtml);
  });
  const dir = tempDir("pith-xhtml-");
  writeFileSync(
    join(dir, "crawl.warc.gz"),
    await warcResponse("https://example.org/x", xhtml, "application/xhtml+xml"),
  );
  try {
    const texts: string[] = [];
    for await (const r of readInputs([`${base}/as-xhtml`, join(dir, "crawl.warc.gz"), `${base}/as-html`])) {
      assert.ok(r.ok, r.ok ? "" : r.error.reason);
      texts.push(
        staticSnapshot(r.value)
          .nodes.flatMap((n) => (n.type === 3 && n.text?.trim() ? [n.text] : []))
          .join(" | "),
      );
    }
    assert.deepEqual(
      texts,
      ["The text of an XHTML page.", "The text of an XHTML page.", ""],
      "served as text/html, it is HTML, where <script/> opens a script, as a browser reads it",
    );
  } finally {
    close();
  }
});

test("a page that refreshes to another URL at once (a refresh <meta> or a Refresh header) is followed like a redirect; a self-reload, a long delay, one in <noscript> or to another scheme is not", async () => {
  const { base, close } = await serve((req, res) => {
    const path = req.url ?? "";
    const page = (head: string, headers: Record<string, string> = {}) => {
      res.writeHead(200, { "content-type": "text/html", ...headers });
      res.end(`<html><head>${head}</head><body><p>page at ${path}</p></body></html>`);
    };
    if (path === "/stub")
      return page(`<meta http-equiv="Refresh" content="0; URL='/dir/final?a=1&amp;b=2'">`);
    if (path === "/unquoted") return page(`<meta content="2;url=dir/final" http-equiv=refresh>`);
    if (path === "/header") return page("", { refresh: "0; url=/dir/final" });
    if (path === "/to-redirect") return page(`<meta http-equiv="refresh" content="0;url=/moved">`);
    if (path === "/moved") {
      res.writeHead(301, { location: "/dir/final" });
      return void res.end();
    }
    if (path === "/reload") return page(`<meta http-equiv="refresh" content="300">`);
    if (path === "/slow") return page(`<meta http-equiv="refresh" content="120;url=/dir/final">`);
    if (path === "/noscript")
      return page(
        `<noscript><meta http-equiv="refresh" content="0;url=/enable-js"></noscript><!-- <meta http-equiv="refresh" content="0;url=/old"> -->`,
      );
    if (path === "/to-script") return page(`<meta http-equiv="refresh" content="0;url=javascript:alert(1)">`);
    if (path === "/self") return page(`<meta http-equiv="refresh" content="0;url=/self">`);
    if (path === "/loop-a") return page(`<meta http-equiv="refresh" content="0;url=/loop-b">`);
    if (path === "/loop-b") return page(`<meta http-equiv="refresh" content="0;url=/loop-a">`);
    if (path === "/to-silence") return page(`<meta http-equiv="refresh" content="0;url=/silence">`);
    if (path === "/silence") return; // never answers
    page("");
  });
  try {
    const got = await outcomes(
      [
        "stub",
        "unquoted",
        "header",
        "to-redirect",
        "reload",
        "slow",
        "noscript",
        "to-script",
        "self",
        "loop-a",
      ].map((p) => `${base}/${p}`),
    );
    assert.deepEqual(got, [
      `ok ${base}/dir/final?a=1&b=2`,
      `ok ${base}/dir/final`,
      `ok ${base}/dir/final`,
      `ok ${base}/dir/final`,
      `ok ${base}/reload`,
      `ok ${base}/slow`,
      `ok ${base}/noscript`,
      `ok ${base}/to-script`,
      `ok ${base}/self`,
      `fetch: redirect loop: ${base}/loop-b refreshes back to ${base}/loop-a (a site that sets a cookie and redirects may expect it back: pith keeps no cookies)`,
    ]);
    // the page a refresh leads to never answers: worded as no answer, not as the refreshing page still arriving
    assert.deepEqual(await outcomes([`${base}/to-silence`], 500), [
      "fetch: unreachable: no answer within 500 ms",
    ]);
    const [stub] = await collect([`${base}/stub`]);
    assert.ok(
      stub?.ok && stub.value.html.includes("page at /dir/final?a=1&b=2"),
      "the page read is the one the refresh leads to",
    );
  } finally {
    close();
  }
});

test("parseRefresh reads a refresh's content as the HTML standard does", () => {
  assert.deepEqual(parseRefresh("0; url=/next"), { delay: 0, url: "/next" });
  assert.deepEqual(parseRefresh("  5.5 , URL = 'http://x.org/a b' trailing"), {
    delay: 5,
    url: "http://x.org/a b",
  });
  assert.deepEqual(parseRefresh('3;"/quoted'), { delay: 3, url: "/quoted" });
  assert.deepEqual(parseRefresh("0;/bare"), { delay: 0, url: "/bare" });
  assert.deepEqual(parseRefresh("600"), { delay: 600, url: null });
  assert.equal(parseRefresh("soon; url=/x"), null);
  assert.equal(parseRefresh(""), null);
});
