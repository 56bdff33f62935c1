/** `pith extract` on worker threads: the same outputs as one thread, and a page past its deadline fails alone. */
import assert from "node:assert/strict";
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import { ExtractPool } from "../src/batch/extract-pool.ts";
import { DEFAULT_OUTPUT } from "../src/output/index.ts";
import type { PageBytes } from "../src/io/inputs.ts";
import { BLOG, fixturePath, fixtureText, hugePage, pith, warcResponse, tempDir } from "./helpers.ts";

/** The repository's small real pages: an article, a five-page blog, a forum thread. */
function fixtureBatch(): string {
  const dir = tempDir("pith-workers-");
  copyFileSync(fixturePath("pages/article.html"), join(dir, "article.html"));
  copyFileSync(fixturePath("refine/forum.html"), join(dir, "forum.html"));
  for (const name of BLOG) copyFileSync(fixturePath(`site/blog/${name}.html`), join(dir, `${name}.html`));
  return dir;
}

/** A page as the pool takes it: its bytes as read. */
function bytesOf(html: string, id: string): PageBytes {
  return { id, source: id, url: null, remote: false, charset: null, bytes: Buffer.from(html) };
}

function outputs(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), "utf8")]));
}

test("--workers 2 writes byte for byte what one thread writes (JSON with trace), and reports every page", async () => {
  const dir = fixtureBatch();
  const inThread = tempDir("pith-w0-");
  const onWorkers = tempDir("pith-w2-");
  const a = await pith(["extract", dir, "--format", "json", "--out", inThread, "--workers", "0"]);
  const b = await pith(["extract", dir, "--format", "json", "--out", onWorkers, "--workers", "2"]);
  assert.equal(a.status, 0, a.stderr);
  assert.equal(b.status, 0, b.stderr);
  assert.match(b.stderr, /extracted 7 page\(s\) with ml, 0 error\(s\)/);
  const want = outputs(inThread);
  assert.equal(want.size, 7);
  assert.deepEqual(outputs(onWorkers), want);
  assert.match(want.get("article.json") ?? "", /Rivers rarely run straight/);
});

test("run from a directory outside pith's checkout, the workers still start (tsx resolved from pith's files)", async () => {
  const dir = fixtureBatch();
  const elsewhere = tempDir("pith-cwd-");
  const res = await pith(
    ["extract", dir, "--out", join(elsewhere, "out"), "--workers", "2"],
    undefined,
    elsewhere,
  );
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stderr, /extracted 7 page\(s\) with ml, 0 error\(s\)/);
  assert.match(readFileSync(join(elsewhere, "out", "article.txt"), "utf8"), /Rivers rarely run straight/);
});

for (const workers of ["1", "0"]) {
  test(`--workers ${workers}: a page that outruns --timeout is a timeout record, and the pages after it come out as without it${workers === "1" ? " (a fresh worker takes them)" : " (the main thread's watchdog ended it: time-limit.ts)"}`, async () => {
    const dir = tempDir("pith-slow-");
    // the first page of a process also pays for cold code (a few hundred ms on a loaded machine): the limit leaves room for it
    writeFileSync(join(dir, "a-huge.html"), hugePage(20 * 1024 * 1024)); // about 6 s of parsing and extraction here
    copyFileSync(fixturePath("pages/article.html"), join(dir, "b-article.html"));
    copyFileSync(fixturePath("site/blog/bees.html"), join(dir, "c-bees.html"));
    const out = tempDir("pith-slow-out-");
    const res = await pith([
      "extract",
      dir,
      "--workers",
      workers,
      "--timeout",
      "1500",
      "--format",
      "json",
      "--out",
      out,
    ]);
    assert.equal(res.status, 1, res.stderr);
    assert.match(res.stderr, /^error\ta-huge\.html\ttimeout\ttimeout: extraction took longer than 1500 ms$/m);
    assert.match(res.stderr, /extracted 2 page\(s\) with ml, 1 error\(s\)/);
    assert.deepEqual(readdirSync(out).sort(), ["b-article.json", "c-bees.json"]);
    // the same pages alone, without the page that was cut short before them
    const alone = tempDir("pith-slow-alone-");
    for (const f of ["b-article.html", "c-bees.html"]) copyFileSync(join(dir, f), join(alone, f));
    const aloneOut = tempDir("pith-slow-alone-out-");
    const clean = await pith(["extract", alone, "--workers", workers, "--format", "json", "--out", aloneOut]);
    assert.equal(clean.status, 0, clean.stderr);
    const record = (file: string) => ({
      ...(JSON.parse(readFileSync(file, "utf8")) as object),
      source: null,
    }); // the source is the directory's
    for (const f of ["b-article.json", "c-bees.json"])
      assert.deepEqual(record(join(out, f)), record(join(aloneOut, f)), f);
    assert.match(readFileSync(join(out, "b-article.json"), "utf8"), /Rivers rarely run straight/);
  });
}

test("a page that outgrows a worker's heap is an error record for that page; a fresh worker takes the next one", async () => {
  // 64 MB holds the model and a normal page, not a 10 MB one
  const pool = new ExtractPool(
    1,
    {
      method: "ml",
      context: { mode: "static", trace: false },
      format: "text",
      output: DEFAULT_OUTPUT,
      render: {},
    },
    60_000,
    64,
  );
  try {
    await pool.ready();
    const [huge, article] = await Promise.all([
      pool.extract(bytesOf(hugePage(10 * 1024 * 1024), "huge")),
      pool.extract(bytesOf(fixtureText("pages/article.html"), "article")),
    ]);
    assert.ok(
      !huge.ok && huge.error.stage === "extract" && /memory limit/.test(huge.error.reason),
      JSON.stringify(huge),
    );
    assert.ok(article.ok, JSON.stringify(article));
    assert.match(article.value.body, /Rivers rarely run straight/);
  } finally {
    await pool.close();
  }
});

test("a WARC crawl runs on the workers by default: one JSON line per HTML response, in record order, with its URL", async () => {
  const dir = tempDir("pith-warc-x-");
  const records = [
    await warcResponse(
      "https://blog.test/posts/rivers.html",
      fixtureText("site/blog/rivers.html"),
      "text/html; charset=utf-8",
    ),
    await warcResponse("https://blog.test/logo.png", "PNG", "image/png"),
    await warcResponse("https://news.test/article", fixtureText("pages/article.html"), "text/html"),
  ];
  writeFileSync(join(dir, "crawl.warc.gz"), Buffer.concat(records));
  const res = await pith(["extract", join(dir, "crawl.warc.gz"), "--format", "json"]);
  assert.equal(res.status, 0, res.stderr);
  const lines = res.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { url: string; text: string });
  assert.deepEqual(
    lines.map((l) => l.url),
    ["https://blog.test/posts/rivers.html", "https://news.test/article"],
  );
  assert.match(lines[0]?.text ?? "", /Water moving over rock/);
  assert.match(lines[1]?.text ?? "", /Rivers rarely run straight/);
});

test("a corrupt model with workers is still one fatal error (exit 3) before the batch", async () => {
  const dir = fixtureBatch();
  const model = join(tempDir("pith-model-"), "broken.json");
  writeFileSync(model, "{ not json");
  const res = await pith(["extract", dir, "--workers", "2", "--model", model]);
  assert.equal(res.status, 3);
  assert.equal(res.stderr.trim().split("\n").length, 1, res.stderr);
  assert.match(res.stderr, /^pith: model .*broken\.json is corrupt/);
  assert.equal(res.stdout, "");
});

test("--workers must be a whole number of 0 or more", async () => {
  for (const bad of ["-1", "1.5"]) {
    const res = await pith(["extract", fixturePath("pages/article.html"), `--workers=${bad}`]);
    assert.equal(res.status, 2, bad);
    assert.match(
      res.stderr,
      new RegExp(`--workers must be a whole number, 0 or more, not ${bad.replace(".", "\\.")}`),
    );
  }
});
