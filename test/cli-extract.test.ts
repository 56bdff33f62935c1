/** `pith extract` as a user runs it: files, directories, stdin, formats, exit codes. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import { gzipSync } from "node:zlib";
import { PITH, fixturePath, fixtureText, pith, tempDir } from "./helpers.ts";

const ARTICLE = fixturePath("pages/article.html");

test("a directory with --out: one output per page named after the input, bad pages reported, batch goes on", async () => {
  const dir = tempDir("pith-x-");
  const out = tempDir("pith-out-");
  mkdirSync(join(dir, "a"));
  copyFileSync(ARTICLE, join(dir, "a", "page.html"));
  writeFileSync(join(dir, "b.html.gz"), gzipSync(readFileSync(ARTICLE)));
  writeFileSync(join(dir, "broken.html"), Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 7)));
  const res = await pith([
    "extract",
    dir,
    "--method",
    "cnr",
    "--param",
    "bias=precision",
    "--out",
    out,
    "--format",
    "markdown",
  ]);
  assert.equal(res.status, 1, res.stderr);
  assert.ok(existsSync(join(out, "a", "page.md")), "a/page.html → a/page.md");
  assert.ok(existsSync(join(out, "b.md")), "b.html.gz → b.md");
  assert.match(readFileSync(join(out, "a", "page.md"), "utf8"), /^# Why rivers meander\n\n/);
  assert.match(res.stderr, /^error\tbroken\.html\tdecode\t/m);
  assert.match(res.stderr, /extracted 2 page\(s\) with cnr, 1 error\(s\)/);
});

test("a directory on stdout: each page's text after a ==> id <== line, JSON one object per line; a single page has no header", async () => {
  const dir = tempDir("pith-x-");
  copyFileSync(ARTICLE, join(dir, "one.html"));
  copyFileSync(ARTICLE, join(dir, "two.html"));
  const text = await pith(["extract", dir, "--method", "cnr"]);
  assert.equal(text.status, 0, text.stderr);
  assert.deepEqual(text.stdout.match(/^==> .* <==$/gm), ["==> one.html <==", "==> two.html <=="]);
  const [before, first, second] = text.stdout.split(/^==> .* <==\n/m);
  assert.equal(before, "", "the output starts with a header");
  assert.ok(
    first?.includes("Why rivers meander") && second?.includes("Why rivers meander"),
    "each page's text follows its header",
  );
  const json = await pith(["extract", dir, "--method", "cnr", "--format", "json"]);
  assert.deepEqual(
    json.stdout
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { id: string }).id),
    ["one.html", "two.html"],
  );
  const single = await pith(["extract", join(dir, "one.html"), "--method", "cnr"]);
  assert.doesNotMatch(single.stdout, /==>/);
});

test("stdin in, JSON out: chosen nodes with paths, the method and the trace", async () => {
  const res = await pith(
    ["extract", "-", "--method", "cnr", "--param", "bias=precision", "--format", "json"],
    fixtureText("pages/article.html"),
  );
  assert.equal(res.status, 0, res.stderr);
  const json = JSON.parse(res.stdout);
  assert.equal(json.id, "-");
  assert.equal(json.method, "cnr");
  assert.ok(json.nodes.length >= 1);
  assert.match(json.nodes[0].path, /^html>body>/);
  assert.ok(Array.isArray(json.trace) && json.trace.length > 0);
  assert.match(json.text, /Rivers rarely run straight/);
  assert.doesNotMatch(json.text, /All rights reserved/);
});

test("ml: JSON output carries the trace; text output, computed without it, is the same text", async () => {
  const json = await pith(["extract", ARTICLE, "--format", "json"]);
  const text = await pith(["extract", ARTICLE]);
  assert.equal(json.status, 0, json.stderr);
  assert.equal(text.status, 0, text.stderr);
  const parsed = JSON.parse(json.stdout);
  assert.ok(
    parsed.trace.some((t: { step: string }) => t.step === "content-classifier"),
    "the classifier's decisions are traced",
  );
  assert.equal(text.stdout.trim(), parsed.text.trim());
});

test("usage errors exit 2 with one line naming the problem", async () => {
  const unknown = await pith(["extract", ARTICLE, "--method", "nope"]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown method "nope"; known: .*cnr/);
  const format = await pith(["extract", ARTICLE, "--format", "pdf"]);
  assert.equal(format.status, 2);
  assert.equal(format.stderr.trim().split("\n").length, 1);
  for (const t of ["0", "-5"]) {
    const timeout = await pith(["extract", ARTICLE, `--timeout=${t}`]);
    assert.equal(timeout.status, 2, `--timeout=${t}: ${timeout.stderr}`);
    assert.match(timeout.stderr, /^pith: extract: --timeout must be at least 1 ms/);
  }
  for (const [args, message] of [
    [["--param", "comment=drop"], /unknown --param "comment" for ml; known: .*comments/],
    [["--param", "dedupe=0"], /--param dedupe must be true or false, not "0"/],
    [["--param", "context=False"], /--param context must be true or false/],
    [["--js"], /--js needs a browser: add --mode chromium/],
    [["--method", "oracle"], /--method oracle reads each page's gold text: run it with pith evaluate/],
  ] as const) {
    const r = await pith(["extract", ARTICLE, ...args]);
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  const help = await pith(["extract", "--help"]);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: pith extract/);
});

test("images: Markdown and HTML keep the content's images, --no-images leaves them out, in a worker batch as in one page; with text it is a usage error", async () => {
  const dir = tempDir("pith-img-");
  const html = readFileSync(ARTICLE, "utf8").replace(
    /(<p[ >])/,
    `<p><img src="/figures/meander.png" alt="A river bend"></p>$1`,
  );
  writeFileSync(join(dir, "one.html"), html);
  writeFileSync(join(dir, "two.html"), html);
  const page = join(dir, "one.html");
  const md = await pith(["extract", page, "--format", "markdown"]);
  assert.equal(md.status, 0, md.stderr);
  assert.match(md.stdout, /^!\[A river bend\]\(\/figures\/meander\.png\)$/m);
  for (const [format, image] of [
    ["markdown", /!\[A river bend\]/],
    ["html", /<img src="\/figures\/meander\.png" alt="A river bend">/],
  ] as const) {
    const batch = await pith(["extract", dir, "--format", format, "--workers", "1"]);
    assert.equal(batch.status, 0, batch.stderr);
    assert.equal(
      batch.stdout.match(new RegExp(image.source, "g"))?.length,
      2,
      `${format}: both pages' image`,
    );
    for (const input of [page, dir]) {
      const none = await pith(["extract", input, "--format", format, "--no-images", "--workers", "1"]);
      assert.equal(none.status, 0, none.stderr);
      assert.match(none.stdout, /Why rivers meander/);
      assert.doesNotMatch(none.stdout, /meander\.png|river bend/, `${format} --no-images (${input})`);
    }
  }
  const text = await pith(["extract", page, "--no-images"]);
  assert.equal(text.status, 2);
  assert.match(text.stderr, /^pith: extract: --no-images applies to --format markdown or html/);
});

test("the summary line says which models a batch used: a per-domain model beside the default", async () => {
  const dir = tempDir("pith-models-");
  const models = join(dir, "models");
  mkdirSync(join(models, "domains"), { recursive: true });
  copyFileSync(fixturePath("../../models/default-static.json"), join(models, "domains", "example.org.json"));
  const pages = join(dir, "pages");
  mkdirSync(pages);
  copyFileSync(ARTICLE, join(pages, "plain.html"));
  writeFileSync(
    join(pages, "site.html"),
    readFileSync(ARTICLE, "utf8").replace(
      "<head>",
      `<head><link rel="canonical" href="https://www.example.org/a">`,
    ),
  );
  const res = await pith(["extract", pages, "--model-dir", models, "--workers", "1"]);
  assert.equal(res.status, 0, res.stderr);
  assert.match(
    res.stderr,
    /extracted 2 page\(s\) with ml, 0 error\(s\); models: (default-static \(default\) ×1, default-static \(domain:example\.org\) ×1|default-static \(domain:example\.org\) ×1, default-static \(default\) ×1)$/m,
  );
});

test("a corrupt model is one fatal error before the batch (exit 3), not one per page", async () => {
  const dir = tempDir("pith-model-");
  const model = join(dir, "broken.json");
  writeFileSync(model, "{ not json");
  const res = await pith(["extract", ARTICLE, ARTICLE, "--model", model]);
  assert.equal(res.status, 3);
  assert.equal(res.stderr.trim().split("\n").length, 1, res.stderr);
  assert.match(res.stderr, /^pith: model .*broken\.json is corrupt/);
  assert.equal(res.stdout, "");
});

test("a page a script builds: static mode says it is empty and how to run the script; --mode chromium --js then extracts it", async () => {
  const dir = tempDir("pith-shell-");
  const shell = join(dir, "app.html");
  const words =
    "The river festival drew thousands of visitors to the old harbour on Sunday, where boats were decorated with lanterns.";
  writeFileSync(
    shell,
    `<html><head><title>App</title><script type="application/ld+json">{"@type":"WebPage"}</script></head><body><div id="root"></div>
<script>document.getElementById("root").innerHTML = "<article><h1>Festival</h1><p>${words}</p><p>${words}</p></article>";</script></body></html>`,
  );
  const still = await pith(["extract", shell]);
  assert.equal(still.stdout.trim(), "");
  assert.match(
    still.stderr,
    /^empty\t.*app\.html\tthe page has no visible text, but 1 script that may build it: try --mode chromium --js \(and --network for a local file\)$/m,
  );
  const cra = join(dir, "cra.html");
  writeFileSync(
    cra,
    `<!doctype html><html><head><script src="/static/js/main.js"></script></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>`,
  );
  assert.match(
    (await pith(["extract", cra])).stderr,
    /\ta notice page \("enable javascript"\), not content; 1 script may build the page: try --mode chromium --js/,
    "an app shell's noscript notice keeps the hint",
  );
  const data = join(dir, "data.html");
  writeFileSync(
    data,
    `<html><body><script type="application/ld+json">{"@type":"WebPage"}</script></body></html>`,
  );
  assert.match(
    (await pith(["extract", data])).stderr,
    /\tthe page has no visible text$/m,
    "a data script is not code: no hint",
  );
  const run = await pith(["extract", shell, "--mode", "chromium", "--js"]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /river festival drew thousands/);
});

test("a feed or a sitemap given as a page is an empty extraction that says what the document is", async () => {
  const dir = tempDir("pith-feed-");
  writeFileSync(
    join(dir, "feed.xml"),
    `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><item><title>One</title><description>&lt;p&gt;The first item of the feed, with words.&lt;/p&gt;</description></item></channel></rss>`,
  );
  writeFileSync(
    join(dir, "atom.xml"),
    `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title><entry><title>Post</title><content type="html">Words of the post.</content></entry></feed>`,
  );
  writeFileSync(
    join(dir, "sitemap.xml"),
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.org/</loc></url></urlset>`,
  );
  const run = await pith(["extract", join(dir, "feed.xml"), join(dir, "atom.xml"), join(dir, "sitemap.xml")]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /^empty\t.*feed\.xml\tnot an HTML page: the document is an RSS feed$/m);
  assert.match(run.stderr, /^empty\t.*atom\.xml\tnot an HTML page: the document is an Atom feed$/m);
  assert.match(run.stderr, /^empty\t.*sitemap\.xml\tnot an HTML page: the document is a sitemap$/m);
  writeFileSync(join(dir, "icon.html"), `<html><body><svg><circle r="1"/></svg></body></html>`);
  assert.match((await pith(["extract", join(dir, "icon.html")])).stderr, /\tthe page has no visible text$/m);
});

test("every method of pith extract gives a feed, a sitemap, an image-only or a punctuation-only page the learned pipeline's empty extraction and reason", async () => {
  const dir = tempDir("pith-feed-all-");
  writeFileSync(
    join(dir, "feed.xml"),
    `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><item><title>One</title><description>&lt;p&gt;The first item of the feed, with words.&lt;/p&gt;</description></item></channel></rss>`,
  );
  writeFileSync(
    join(dir, "sitemap.xml"),
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.org/</loc></url></urlset>`,
  );
  writeFileSync(
    join(dir, "image.html"),
    `<html><body><div><img src="a.png" alt="A photo"></div></body></html>`,
  );
  writeFileSync(join(dir, "dashes.html"), `<html><body><p>— · —</p></body></html>`);
  const inputs = ["feed.xml", "sitemap.xml", "image.html", "dashes.html"].map((f) => join(dir, f));
  const reasons = (stderr: string): string[] =>
    stderr
      .split("\n")
      .filter((l) => l.startsWith("empty\t"))
      .map((l) => l.replace(/^empty\t.*\//, ""));
  const ml = await pith(["extract", ...inputs, "--workers", "0"]);
  assert.deepEqual(reasons(ml.stderr), [
    "feed.xml\tnot an HTML page: the document is an RSS feed",
    "sitemap.xml\tnot an HTML page: the document is a sitemap",
    "image.html\tthe page has no visible text",
    "dashes.html\tthe page has no visible text",
  ]);
  for (const method of [
    "cnr",
    "content-extractor",
    "feature-extractor",
    "k-feature-extractor",
    "lbs",
    "sls",
    "tp",
    "site",
  ]) {
    const run = await pith(["extract", ...inputs, "--method", method, "--workers", "0", "--format", "json"]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(reasons(run.stderr), reasons(ml.stderr), method);
    assert.deepEqual(
      run.stdout
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { text: string }).text),
      ["", "", "", ""],
      method,
    );
  }
});

test("a frameset, or a page that only embeds another in an iframe, names the frames that hold its content; a hidden tracking iframe beside scripts does not hide the scripts hint", async () => {
  const dir = tempDir("pith-frames-");
  writeFileSync(
    join(dir, "frames.html"),
    `<html><head><title>Old site</title></head><frameset cols="20%,80%"><frame src="menu.html"><frame src="main.html"></frameset></html>`,
  );
  writeFileSync(
    join(dir, "embed.html"),
    `<html><body><iframe src="https://example.org/article.html" width=800 height=600></iframe></body></html>`,
  );
  writeFileSync(
    join(dir, "shell.html"),
    `<html><head><script src="app.js"></script></head><body><noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript><div id="root"></div></body></html>`,
  );
  const run = await pith([
    "extract",
    join(dir, "frames.html"),
    join(dir, "embed.html"),
    join(dir, "shell.html"),
  ]);
  assert.match(
    run.stderr,
    /^empty\t.*frames\.html\tthe page has no visible text of its own: its content is in 2 frames \(menu\.html, main\.html\); extract those pages$/m,
  );
  assert.match(
    run.stderr,
    /^empty\t.*embed\.html\tthe page has no visible text of its own: its content is in 1 frame \(https:\/\/example\.org\/article\.html\); extract those pages$/m,
  );
  assert.match(
    run.stderr,
    /^empty\t.*shell\.html\tthe page has no visible text, but 1 script that may build it/m,
  );
});

test("a page that only sends the browser on (<meta http-equiv=refresh>) names where, made absolute against a URL input's address; every method says so; a plain reload is no target", async () => {
  const dir = tempDir("pith-refresh-");
  writeFileSync(
    join(dir, "moved.html"),
    `<html><head><meta http-equiv="Refresh" content="0; URL='new/place.html?a=1&amp;b=2'"><script>location.href = "new/place.html"</script></head><body></body></html>`,
  );
  writeFileSync(
    join(dir, "reload.html"),
    `<html><head><meta http-equiv="refresh" content="30"></head><body></body></html>`,
  );
  for (const method of ["ml", "cnr"]) {
    const run = await pith([
      "extract",
      join(dir, "moved.html"),
      join(dir, "reload.html"),
      "--method",
      method,
    ]);
    assert.match(
      run.stderr,
      /^empty\t.*moved\.html\tthe page has no visible text: it sends the browser to new\/place\.html\?a=1&b=2 \(<meta http-equiv="refresh">\); extract that page$/m,
      method,
    );
    assert.match(run.stderr, /^empty\t.*reload\.html\tthe page has no visible text$/m, method);
  }
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<meta http-equiv="refresh" content="0;url=/next">`);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  try {
    const { port } = server.address() as AddressInfo;
    const run = await pith(["extract", `http://127.0.0.1:${port}/dir/old`]);
    assert.match(run.stderr, new RegExp(`it sends the browser to http://127\\.0\\.0\\.1:${port}/next \\(`));
  } finally {
    server.close();
  }
});

test("--mode chromium with the learned pipeline uses the bundled chromium model", async () => {
  const res = await pith(["extract", ARTICLE, "--mode", "chromium", "--format", "json"]);
  assert.equal(res.status, 0, res.stderr);
  const out = JSON.parse(res.stdout) as { model: string; text: string };
  assert.match(out.model, /^default-chromium \(default/);
  assert.match(out.text, /rivers meander/i);
});

test("a reader that stops early (`pith extract dir | head -1`) ends the batch quietly with status 0", async () => {
  const dir = tempDir("pith-pipe-");
  for (let i = 0; i < 60; i++) copyFileSync(ARTICLE, join(dir, `p${String(i).padStart(2, "0")}.html`));
  const res = await new Promise<{ status: number | null; stderr: string; firstChunk: string }>((resolve) => {
    const child = spawn("node", [PITH, "extract", dir, "--method", "cnr"], { timeout: 120_000 });
    let stderr = "";
    let firstChunk = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.once("data", (d) => {
      firstChunk = String(d);
      child.stdout.destroy(); // the reader goes away with most of the output unwritten
    });
    child.on("close", (status) => resolve({ status, stderr, firstChunk }));
  });
  assert.match(res.firstChunk, /Why rivers meander/);
  assert.equal(res.status, 0, res.stderr);
  assert.doesNotMatch(res.stderr, /EPIPE|Error/);
});

test("--input-list: inputs from a file or stdin after the positional ones; a missing list or stdin asked twice is a usage error", async () => {
  const dir = tempDir("pith-list-x-");
  copyFileSync(ARTICLE, join(dir, "one.html"));
  copyFileSync(ARTICLE, join(dir, "two.html"));
  writeFileSync(join(dir, "list.txt"), `# batch\n${join(dir, "two.html")}\n${join(dir, "missing.html")}\n`);
  const out = join(dir, "out");
  const res = await pith([
    "extract",
    join(dir, "one.html"),
    "--input-list",
    join(dir, "list.txt"),
    "--method",
    "cnr",
    "--out",
    out,
  ]);
  assert.equal(res.status, 1, res.stderr);
  assert.match(res.stderr, /^error\t.*missing\.html\tread\tno such file$/m);
  assert.match(res.stderr, /extracted 2 page\(s\) with cnr, 1 error\(s\)/);
  assert.ok(existsSync(join(out, dir.slice(1), "one.txt")) && existsSync(join(out, dir.slice(1), "two.txt")));

  const piped = await pith(
    ["extract", "--input-list", "-", "--method", "cnr"],
    `${join(dir, "one.html")}\n${join(dir, "two.html")}\n`,
  );
  assert.equal(piped.status, 0, piped.stderr);
  assert.equal(piped.stdout.match(/^==> .* <==$/gm)?.length, 2, "a header per page, as for several inputs");
  const dash = await pith(
    ["extract", "--input-list", "-", "--method", "cnr"],
    `${join(dir, "one.html")}\n-\n`,
  );
  assert.equal(dash.status, 1, "a '-' line in a list read from stdin is an error record, not an empty page");
  assert.match(dash.stderr, /^error\t-\tread\tstdin is the input list here/m);

  const missing = await pith(["extract", "--input-list", join(dir, "nope.txt")]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read --input-list .*nope\.txt: no such file/);
  const twice = await pith(["extract", "-", "--input-list", "-"]);
  assert.equal(twice.status, 2);
  assert.match(twice.stderr, /stdin cannot be both a page/);
  const none = await pith(["extract"]);
  assert.equal(none.status, 2);
  assert.match(none.stderr, /give at least one input .* or --input-list FILE/);
});
