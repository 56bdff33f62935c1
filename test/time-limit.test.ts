/** --timeout in this thread (a single page, pith render, features and evaluate; --workers 0 is in cli-extract-workers.test.ts): a page stuck in synchronous work is ended, becomes a timeout record, and the batch goes on. */
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import { gzipSync } from "node:zlib";
import "../src/methods.ts";
import { evaluateMethods } from "../src/evaluate/runner.ts";
import { defuddlePeer, readabilityPeer } from "../src/evaluate/peers.ts";
import { getExtractor, runExtractor } from "../src/extractors.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { TimeLimit, TimeLimitExceeded } from "../src/time-limit.ts";
import {
  escapeRegExp,
  fixturePath,
  fixtureText,
  hugePage,
  pageFromHtml,
  pith,
  tempDir,
  writeSyntheticSet,
} from "./helpers.ts";

test("TimeLimit ends a loop that never returns, and the thread goes on", () => {
  const limit = new TimeLimit(200);
  assert.throws(
    () =>
      limit.run(() => {
        for (;;);
      }),
    (e: unknown) =>
      e instanceof TimeLimitExceeded && e.message === "timeout: extraction took longer than 200 ms",
  );
  // the budget is spent: a later call on the same limit fails at once, a fresh limit runs
  assert.throws(() => limit.run(() => 1), TimeLimitExceeded);
  assert.equal(
    new TimeLimit(200).run(() => [1, 2, 3].map((x) => x * 2).join()),
    "2,4,6",
  );
});

test("TimeLimit passes on fn's value and its own errors unchanged", () => {
  const limit = new TimeLimit(10_000);
  const value = { a: 1 };
  assert.equal(
    limit.run(() => value),
    value,
  );
  const own = new RangeError("mine");
  assert.throws(
    () =>
      limit.run(() => {
        throw own;
      }),
    (e: unknown) => e === own,
  );
});

test("with its model loaded, the ml method decides within the caller's call, so the page's time limit covers the pipeline", async () => {
  const ml = getExtractor("ml");
  const context = { mode: "static" as const, trace: false };
  await ml.prepare?.(context);
  const page = staticSnapshot(pageFromHtml(fixtureText("pages/article.html"), "article"));
  const view = ml.view?.(page, context);
  assert.ok(view && !(view instanceof Promise), "view returns the snapshot, not a promise");
  const extraction = ml.extract(page, context);
  assert.ok(!(extraction instanceof Promise), "extract returns the extraction, not a promise");
  assert.match(extraction.text, /Rivers rarely run straight/);
  // a limit with no budget left stops the extraction before it runs
  const spent = new TimeLimit(1);
  assert.throws(
    () =>
      spent.run(() => {
        for (;;);
      }),
    TimeLimitExceeded,
  );
  await assert.rejects(runExtractor(ml, page, context, spent), TimeLimitExceeded);
});

test("a single page past --timeout is a timeout record and exit 1, in any format", async () => {
  const dir = tempDir("pith-limit-");
  const page = join(dir, "huge.html");
  writeFileSync(page, hugePage(5 * 1024 * 1024)); // about a second of parsing and extraction here
  for (const format of ["text", "json"]) {
    const res = await pith(["extract", page, "--timeout", "200", "--format", format]);
    assert.equal(res.status, 1, res.stderr);
    assert.equal(res.stdout, "");
    assert.match(
      res.stderr,
      new RegExp(
        `^error\\t${escapeRegExp(page)}\\ttimeout\\ttimeout: extraction took longer than 200 ms$`,
        "m",
      ),
    );
    assert.match(res.stderr, /extracted 0 page\(s\) with ml, 1 error\(s\)/);
  }
});

test("pith render and pith features: a page past --timeout is a timeout record and the next page is done", async () => {
  const dir = tempDir("pith-limit-cmds-");
  writeFileSync(join(dir, "a-huge.html"), hugePage(20 * 1024 * 1024)); // parsing alone takes about 0.8 s here, its features 3 s more
  copyFileSync(fixturePath("pages/article.html"), join(dir, "b-article.html"));
  const render = await pith(["render", dir, "--summary", "--timeout", "300"]);
  assert.equal(render.status, 1, render.stderr);
  assert.match(render.stderr, /^error\ta-huge\.html\ttimeout\ttimeout: rendering took longer than 300 ms$/m);
  assert.match(render.stdout, /^b-article\.html\tstatic\t/m);
  assert.match(render.stderr, /rendered 1 page\(s\), 1 error\(s\)/);
  const out = join(tempDir("pith-limit-features-"), "rows.jsonl");
  const features = await pith(["features", dir, "--timeout", "1000", "--out", out]);
  assert.equal(features.status, 1, features.stderr);
  assert.match(
    features.stderr,
    /^error\ta-huge\.html\ttimeout\ttimeout: (rendering|feature extraction) took longer than 1000 ms$/m,
  );
  assert.match(features.stderr, /features: 1 page\(s\) → .*, 1 error\(s\)/);
  assert.match(readFileSync(out, "utf8"), /"page":"b-article\.html"/);
});

test("pith evaluate in this thread: a method past --timeout on a page scores as a failure there, and the other pages are scored", async () => {
  const dir = tempDir("pith-limit-eval-");
  writeSyntheticSet(dir, ["a.test", "b.test"], 2);
  // The limit is about 100 times what a normal page takes once the code is warm, and the huge page
  // needs several times the limit (its features and ml alone take about 4 s on an idle core): load
  // on the machine slows both, so only the huge page can reach it.
  const warm = await evaluateMethods({ methods: ["ml", "all-text"], datasets: [dir], workers: 1 });
  assert.equal(warm.pages.filter((p) => p.error !== undefined).length, 0, "the normal pages pass");
  writeFileSync(join(dir, "html", "p-0-1.html.gz"), gzipSync(hugePage(20 * 1024 * 1024)));
  const { pages } = await evaluateMethods({
    methods: ["ml", "all-text"],
    datasets: [dir],
    workers: 1,
    renderOptions: { timeoutMs: LIMIT_MS },
  });
  assert.equal(pages.length, 8);
  for (const p of pages) {
    if (p.id !== "p-0-1") assert.equal(p.error, undefined, `${p.id} ${p.method}: ${p.error}`);
    else if (p.method === "ml")
      assert.match(
        p.error ?? "",
        new RegExp(`timeout: (rendering|ml) took longer than ${LIMIT_MS} ms$`),
        `${p.method}: ${p.error}`,
      );
  }
  assert.ok(
    pages.filter((p) => p.id !== "p-0-1" && p.method === "all-text").every((p) => p.wcxb.r > 0.99),
    "all text holds the gold",
  );
});

/** The evaluate test's per-step limit (ms). */
const LIMIT_MS = 1500;

test("a peer under a spent limit is a TimeLimitExceeded, and defuddle's muted console comes back", async () => {
  const log = console.log;
  const input = pageFromHtml(fixtureText("pages/article.html"), "article");
  const page = staticSnapshot(input);
  for (const peer of [readabilityPeer, defuddlePeer]) {
    await peer.extract(input, page); // loads the package
    const spent = new TimeLimit(1, peer.name);
    assert.throws(
      () =>
        spent.run(() => {
          for (;;);
        }),
      TimeLimitExceeded,
    );
    await assert.rejects(
      Promise.resolve().then(() => peer.extract(input, page, spent)),
      TimeLimitExceeded,
    );
  }
  // a limit that ends defuddle mid-parse (defuddle runs with the console muted): the console is restored all the same
  await assert.rejects(
    Promise.resolve().then(() =>
      defuddlePeer.extract(
        pageFromHtml(hugePage(5 * 1024 * 1024), "huge"),
        page,
        new TimeLimit(50, "defuddle"),
      ),
    ),
    TimeLimitExceeded,
  );
  assert.equal(console.log, log);
});
