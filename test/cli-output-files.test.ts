/** `--out DIR`: one file per page that no other page of the run overwrites, written whole, and `--skip-existing` to resume. */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  type Dirent,
} from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import test from "node:test";
import { MAX_NAME, MAX_SEGMENT, OutputDir, outputName } from "../src/batch/output-files.ts";
import { makeDirs, makeDirsSync } from "../src/io/make-dirs.ts";
import { writeAtomic, writeAtomicSync } from "../src/io/write-atomic.ts";
import { fixturePath, fixtureText, pith, warcResponse, tempDir } from "./helpers.ts";

const ARTICLE = fixturePath("pages/article.html");

/** Every file below `dir`, relative to it, sorted. */
function filesBelow(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

test("output names: files keep their path, WARC records and URL queries get a file each, nothing lands outside --out", () => {
  assert.equal(outputName("a/page.html.gz", ".txt"), "a/page.txt");
  assert.equal(outputName("/abs/dir/page.htm", ".md"), "abs/dir/page.md");
  assert.equal(outputName("../up/../page.html", ".txt"), "_/up/_/page.txt");
  assert.equal(outputName("crawl.warc.gz#1", ".txt"), "crawl/1.txt");
  assert.equal(outputName("data/crawl.WARC#12", ".json"), "data/crawl/12.json");
  assert.equal(outputName("https://x.org/list?page=2", ".txt"), "x.org/list_page_2.txt");
  assert.equal(outputName("https://x.org/list?page=3#top", ".txt"), "x.org/list_page_3.txt");
  assert.equal(outputName("https://x.org/", ".txt"), "x.org/index.txt");
  assert.equal(outputName("https://x.org/a/post.html?ref=rss", ".txt"), "x.org/a/post_ref_rss.txt");
  const long = outputName(`https://x.org/search?q=${"ä".repeat(400)}`, ".txt");
  const [, name = ""] = long.split("/");
  assert.ok(Buffer.byteLength(name) <= MAX_SEGMENT + 4, `${Buffer.byteLength(name)} bytes`);
  assert.notEqual(
    long,
    outputName(`https://x.org/search?q=${"ä".repeat(401)}`, ".txt"),
    "two long names that share a prefix stay apart",
  );
});

test("output names stay under the path limit: a URL of many long segments keeps its first ones and ends in one hashed segment; two such URLs that differ deep down stay apart; a file can be written there", () => {
  const deep = (last: string) =>
    `https://x.org/${Array.from({ length: 25 }, (_, k) => `${k}${"s".repeat(199)}`).join("/")}/${last}`;
  const name = outputName(deep("a"), ".txt");
  assert.ok(Buffer.byteLength(name) <= MAX_NAME + 4, `${Buffer.byteLength(name)} bytes`);
  assert.ok(name.startsWith(`x.org/0${"s".repeat(199)}/1${"s".repeat(199)}/`), name.slice(0, 80));
  assert.ok(name.split("/").every((segment) => Buffer.byteLength(segment) <= MAX_SEGMENT + 4));
  assert.notEqual(name, outputName(deep("b"), ".txt"));
  assert.equal(outputName("https://x.org/a/b/c", ".txt"), "x.org/a/b/c.txt", "a short name is unchanged");
  const dir = tempDir("pith-long-name-");
  mkdirSync(dirname(join(dir, name)), { recursive: true });
  writeFileSync(join(dir, name), "ok");
  assert.equal(readFileSync(join(dir, name), "utf8"), "ok");
});

test("output names of URLs: a host without a path is its index page, as with the slash; percent-escapes are read, so a non-ASCII path keeps its letters (and its length), and an escaped '/' or '..' stays inside its segment", () => {
  assert.equal(outputName("https://x.org", ".txt"), outputName("https://x.org/", ".txt"));
  assert.equal(outputName("https://x.org?lang=en", ".txt"), "x.org/index_lang_en.txt");
  assert.equal(
    outputName("https://ru.x.org/wiki/%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0", ".txt"),
    "ru.x.org/wiki/Москва.txt",
  );
  assert.equal(
    outputName("https://x.org/caf%C3%A9?q=cr%C3%A8me%20br%C3%BBl%C3%A9e", ".txt"),
    "x.org/café_q_crème_brûlée.txt",
  );
  assert.equal(outputName("https://x.org/a%2Fb/%2E%2E/c", ".txt"), "x.org/a_b/_/c.txt");
  assert.equal(
    outputName("https://x.org/100%25/%E2%28", ".txt"),
    "x.org/100_/_E2_28.txt",
    "an escape that is not UTF-8 stays as written",
  );
});

test("a WARC with --out: one file per HTML record, in a folder named after the WARC", async () => {
  const dir = tempDir("pith-warc-out-");
  const records = [
    await warcResponse("https://news.test/list?page=1", fixtureText("pages/article.html"), "text/html"),
    await warcResponse("https://news.test/logo.png", "PNG", "image/png"),
    await warcResponse(
      "https://news.test/list?page=2",
      fixtureText("pages/article.html").replaceAll("Why rivers meander", "Why rivers flood"),
      "text/html",
    ),
  ];
  writeFileSync(join(dir, "crawl.warc.gz"), Buffer.concat(records));
  const out = join(dir, "out");
  const res = await pith(["extract", join(dir, "crawl.warc.gz"), "--method", "cnr", "--out", out]);
  assert.equal(res.status, 0, res.stderr);
  const files = filesBelow(out);
  assert.equal(files.length, 2, files.join(", "));
  assert.ok(files[0]!.endsWith("crawl/1.txt") && files[1]!.endsWith("crawl/2.txt"), files.join(", "));
  assert.match(readFileSync(join(out, files[1]!), "utf8"), /rivers flood/);
});

test("several directories with --out: each one's pages under its own name, so two index.html do not clash; a lone directory's pages are named inside it; an input list's directories keep their names", async () => {
  const dir = tempDir("pith-dirs-out-");
  for (const [site, title] of [
    ["siteA", "Why rivers flood"],
    ["siteB", "Why rivers dry up"],
  ] as const) {
    mkdirSync(join(dir, site, "posts"), { recursive: true });
    writeFileSync(
      join(dir, site, "index.html"),
      fixtureText("pages/article.html").replaceAll("Why rivers meander", title),
    );
    copyFileSync(ARTICLE, join(dir, site, "posts", "one.html"));
  }
  const both = await pith(["extract", "siteA", "siteB", "--method", "cnr", "--out", "out"], undefined, dir);
  assert.equal(both.status, 0, both.stderr);
  assert.deepEqual(filesBelow(join(dir, "out")), [
    "siteA/index.txt",
    "siteA/posts/one.txt",
    "siteB/index.txt",
    "siteB/posts/one.txt",
  ]);
  assert.match(readFileSync(join(dir, "out", "siteB", "index.txt"), "utf8"), /rivers dry up/);
  const lone = await pith(["extract", "siteA", "--method", "cnr", "--out", "lone"], undefined, dir);
  assert.equal(lone.status, 0, lone.stderr);
  assert.deepEqual(filesBelow(join(dir, "lone")), ["index.txt", "posts/one.txt"]);
  const listed = await pith(
    ["extract", "--input-list", "-", "--method", "cnr", "--out", "listed"],
    "siteA\nsiteB\n",
    dir,
  );
  assert.equal(listed.status, 0, listed.stderr);
  assert.deepEqual(filesBelow(join(dir, "listed")), filesBelow(join(dir, "out")));
});

test("--skip-existing resumes a batch: finished outputs stay as they are, missing ones are written, skips are counted", async () => {
  const dir = tempDir("pith-resume-");
  const out = join(dir, "out");
  mkdirSync(join(dir, "in"));
  for (const n of ["a", "b", "c"]) copyFileSync(ARTICLE, join(dir, "in", `${n}.html`));
  const first = await pith(["extract", join(dir, "in"), "--method", "cnr", "--out", out]);
  assert.equal(first.status, 0, first.stderr);
  assert.deepEqual(filesBelow(out), ["a.txt", "b.txt", "c.txt"]);
  writeFileSync(join(out, "a.txt"), "kept from the first run\n");
  const missing = join(out, "b.txt");
  const whole = readFileSync(missing, "utf8");
  rmSync(missing); // a page whose output is gone is done again

  const resumed = await pith([
    "extract",
    join(dir, "in"),
    "--method",
    "cnr",
    "--out",
    out,
    "--skip-existing",
  ]);
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.match(
    resumed.stderr,
    /extracted 1 page\(s\) with cnr, 0 error\(s\), 2 skipped \(output already there\)/,
  );
  assert.equal(readFileSync(join(out, "a.txt"), "utf8"), "kept from the first run\n");
  assert.equal(readFileSync(missing, "utf8"), whole);
  assert.deepEqual(
    filesBelow(out),
    ["a.txt", "b.txt", "c.txt"],
    "no temporary files left beside the outputs",
  );

  const again = await pith(["extract", join(dir, "in"), "--method", "cnr", "--out", out]);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(readFileSync(join(out, "a.txt"), "utf8"), whole, "without the flag every output is rewritten");
});

test("--skip-existing does not fetch a URL whose output is there", async () => {
  const out = tempDir("pith-resume-url-");
  const url = "http://127.0.0.1:9/post?id=7"; // nothing listens on port 9: a fetch would be an error record
  mkdirSync(join(out, "127.0.0.1_9"));
  writeFileSync(join(out, outputName(url, ".txt")), "done earlier\n");
  const res = await pith(["extract", url, "--method", "cnr", "--out", out, "--skip-existing"]);
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stderr, /extracted 0 page\(s\) with cnr, 0 error\(s\), 1 skipped/);
  const refetched = await pith(["extract", url, "--method", "cnr", "--out", out]);
  assert.equal(refetched.status, 1, "without the flag the page is fetched (and fails)");
  assert.match(refetched.stderr, /^error\thttp:\/\/127\.0\.0\.1:9\/post\?id=7\tfetch\t/m);
});

test("two inputs with one output name: the second is an error record and the first's output stays", async () => {
  const dir = tempDir("pith-clash-");
  copyFileSync(ARTICLE, join(dir, "page.html"));
  writeFileSync(
    join(dir, "page.htm"),
    fixtureText("pages/article.html").replaceAll("Why rivers meander", "Why rivers flood"),
  );
  const out = join(dir, "out");
  const res = await pith(["extract", dir, "--method", "cnr", "--out", out]);
  assert.equal(res.status, 1, res.stderr);
  assert.match(
    res.stderr,
    /^error\tpage\.html\twrite\toutput page\.txt belongs to another input of this run \(two inputs with one name\), so this page's output is not written$/m,
  );
  assert.match(res.stderr, /extracted 1 page\(s\) with cnr, 1 error\(s\)/);
  assert.match(
    readFileSync(join(out, "page.txt"), "utf8"),
    /rivers flood/,
    "page.htm comes first in sorted order and keeps its output",
  );
});

test("--skip-existing resuming a batch with two inputs of one output name: the first is skipped, the second is still an error record, not skipped as if done", async () => {
  const dir = tempDir("pith-clash-resume-");
  mkdirSync(join(dir, "in"));
  copyFileSync(ARTICLE, join(dir, "in", "page.html"));
  writeFileSync(
    join(dir, "in", "page.htm"),
    fixtureText("pages/article.html").replaceAll("Why rivers meander", "Why rivers flood"),
  );
  copyFileSync(ARTICLE, join(dir, "in", "other.html"));
  const out = join(dir, "out");
  // a first run that stopped after page.htm, the first of the two in sorted order: page.html and other.html never ran
  mkdirSync(out);
  writeFileSync(join(out, "page.txt"), "page.htm's output\n");
  const old = new Date(Date.now() - 60_000);
  utimesSync(join(out, "page.txt"), old, old);
  // resumed in this thread (other.html is done now), then again on workers (it is skipped too)
  for (const [workers, summary] of [
    ["0", "extracted 1 page(s) with cnr, 1 error(s), 1 skipped"],
    ["2", "extracted 0 page(s) with cnr, 1 error(s), 2 skipped"],
  ] as const) {
    const res = await pith([
      "extract",
      join(dir, "in"),
      "--method",
      "cnr",
      "--out",
      out,
      "--skip-existing",
      "--workers",
      workers,
    ]);
    assert.equal(res.status, 1, res.stderr);
    assert.match(
      res.stderr,
      /^error\tpage\.html\twrite\toutput page\.txt belongs to another input of this run \(two inputs with one name\)/m,
      workers,
    );
    assert.ok(res.stderr.includes(`${summary} (output already there)`), res.stderr);
    assert.equal(
      readFileSync(join(out, "page.txt"), "utf8"),
      "page.htm's output\n",
      "the first input's output is neither rewritten nor overwritten",
    );
    assert.deepEqual(filesBelow(out), ["other.txt", "page.txt"]);
  }
});

test("--skip-existing without --out is a usage error, for extract and render", async () => {
  for (const command of ["extract", "render"]) {
    const res = await pith([command, ARTICLE, "--skip-existing"]);
    assert.equal(res.status, 2, command);
    assert.match(res.stderr, new RegExp(`${command}: --skip-existing needs --out DIR`));
  }
  const gzip = await pith(["render", ARTICLE, "--gzip"]);
  assert.equal(gzip.status, 2);
  assert.match(gzip.stderr, /render: --gzip needs --out DIR/);
  const both = await pith(["render", ARTICLE, "--summary", "--out", join(tmpdir(), "pith-never-written")]);
  assert.equal(both.status, 2);
  assert.match(both.stderr, /render: --summary prints to stdout and writes no files/);
});

test("render --out writes each WARC record's snapshot to its own file, and --skip-existing leaves them be", async () => {
  const dir = tempDir("pith-render-out-");
  const records = [
    await warcResponse("https://news.test/a", fixtureText("pages/article.html"), "text/html"),
    await warcResponse("https://news.test/b", fixtureText("pages/article.html"), "text/html"),
  ];
  writeFileSync(join(dir, "crawl.warc"), Buffer.concat(records));
  const out = join(dir, "out");
  const res = await pith(["render", join(dir, "crawl.warc"), "--out", out, "--gzip"]);
  assert.equal(res.status, 0, res.stderr);
  const files = filesBelow(out);
  assert.equal(files.length, 2, files.join(", "));
  assert.ok(
    files.every((f) => /crawl\/[12]\.snapshot\.json\.gz$/.test(f)),
    files.join(", "),
  );
  const again = await pith(["render", join(dir, "crawl.warc"), "--out", out, "--gzip", "--skip-existing"]);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr, /rendered 0 page\(s\), 0 error\(s\), 2 skipped/);
  assert.ok(existsSync(join(out, files[0]!)));
});

test("an output that cannot be written is an error record for its page and the batch goes on", async () => {
  const dir = tempDir("pith-unwritable-");
  mkdirSync(join(dir, "in", "sub"), { recursive: true });
  copyFileSync(ARTICLE, join(dir, "in", "a.html"));
  copyFileSync(ARTICLE, join(dir, "in", "sub", "b.html"));
  const out = join(dir, "out");
  mkdirSync(out);
  writeFileSync(join(out, "sub"), "a file where the folder for sub/b.txt should go");
  const res = await pith(["extract", join(dir, "in"), "--method", "cnr", "--out", out]);
  assert.equal(res.status, 1, res.stderr);
  assert.match(res.stderr, /^error\tsub\/b\.html\twrite\tcannot write sub\/b\.txt: /m);
  assert.match(res.stderr, /extracted 1 page\(s\) with cnr, 1 error\(s\)/);
  assert.deepEqual(filesBelow(out), ["a.txt", "sub"]);
});

test("an --out that cannot be a directory is one usage error (exit 2) before the batch, for extract and render", async () => {
  const dir = tempDir("pith-badout-");
  copyFileSync(ARTICLE, join(dir, "a.html"));
  copyFileSync(ARTICLE, join(dir, "b.html"));
  const file = join(dir, "taken");
  writeFileSync(file, "a file, not a folder");
  const pages = [join(dir, "a.html"), join(dir, "b.html")];
  for (const [command, ...args] of [
    ["extract", ...pages, "--method", "cnr"],
    ["render", ...pages],
  ] as const) {
    const res = await pith([command, ...args, "--out", join(file, "out")]);
    assert.equal(res.status, 2, res.stderr);
    assert.equal(res.stderr.trim().split("\n").length, 1, res.stderr);
    assert.match(res.stderr, new RegExp(`^pith: ${command}: cannot use --out .*taken/out: ENOTDIR`));
  }
  assert.equal(readFileSync(file, "utf8"), "a file, not a folder");
});

test("makeDirs: creates the missing levels, accepts what exists, and fails (never hangs) where a directory cannot be made", async () => {
  const dir = tempDir("pith-mkdirs-");
  await makeDirs(join(dir, "a", "b", "c"));
  makeDirsSync(join(dir, "a", "b", "d"));
  assert.ok(existsSync(join(dir, "a", "b", "c")) && existsSync(join(dir, "a", "b", "d")));
  await makeDirs(join(dir, "a", "b")); // already there
  await Promise.all([makeDirs(join(dir, "x", "y")), makeDirs(join(dir, "x", "z"))]); // two writers racing for x
  assert.deepEqual(readdirSync(join(dir, "x")).sort(), ["y", "z"]);
  writeFileSync(join(dir, "f"), "");
  await assert.rejects(makeDirs(join(dir, "f", "g")), { code: "ENOTDIR" });
  // Node 20's mkdir({ recursive: true }) spins forever here: /proc refuses new entries with ENOENT
  if (existsSync("/proc/self")) {
    await assert.rejects(makeDirs("/proc/pith-cannot-exist/x"), { code: "ENOENT" });
    assert.throws(() => makeDirsSync("/proc/pith-cannot-exist/x"), { code: "ENOENT" });
  }
});

test(
  "writeAtomic: a regular file is replaced whole with no temporary left; a pipe or device is written in place, not replaced",
  { timeout: 10_000 },
  async () => {
    const dir = tempDir("pith-atomic-");
    const file = join(dir, "sub", "model.json");
    await writeAtomic(file, "one");
    writeAtomicSync(file, "two");
    assert.equal(readFileSync(file, "utf8"), "two");
    assert.deepEqual(readdirSync(join(dir, "sub")), ["model.json"]);
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const [read] = await Promise.all([readFile(fifo, "utf8"), writeAtomic(fifo, "through the pipe")]);
    assert.equal(read, "through the pipe");
    assert.ok(
      statSync(fifo).isFIFO(),
      "still a pipe: a rename would have put a regular file there (as it would over /dev/null)",
    );
  },
);

test("OutputDir makes a page's directory once, and again when it was removed during the run: the next page's file is still written", async () => {
  const root = tempDir("pith-outdir-");
  const out = await OutputDir.open("extract", root, ".txt");
  assert.equal(await out.write("site/a.html", "site/a.html", "first\n"), null);
  rmSync(join(root, "site"), { recursive: true });
  assert.equal(await out.write("site/b.html", "site/b.html", "second\n"), null);
  assert.equal(readFileSync(join(root, "site", "b.txt"), "utf8"), "second\n");
  assert.deepEqual(filesBelow(root), ["site/b.txt"], "no partial file is left behind");
  const again = await out.write("site/b.htm", "site/b.htm", "clash\n");
  assert.equal(again?.stage, "write", "a second page of one name is still refused");
  assert.equal(readFileSync(join(root, "site", "b.txt"), "utf8"), "second\n");
});
