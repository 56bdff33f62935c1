/**
 * No batch ever dies: a page whose parse would outgrow a worker's heap (55 MB of `<br>`, under
 * the 64 MB input cap) is one error record, and the batch ends with its summary and every other
 * page's output, run after run. A worker that runs out of heap inside one allocation aborts the
 * whole process, so the snapshot's node cap (src/render/static.ts MAX_SNAPSHOT_NODES) must refuse
 * the page first. Every other run extracts in the main thread (`--workers 0`, the default on one
 * core), where nothing but that cap stands between the page and the process's heap.
 */
import assert from "node:assert/strict";
import { copyFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import { MAX_SNAPSHOT_NODES } from "../src/render/static.ts";
import { fixturePath, pith, tempDir } from "./helpers.ts";

const RUNS = 10;

test(`a batch with a 55 MB page of <br> ends with a summary and every page accounted for, ${RUNS} runs of ${RUNS}`, async () => {
  const dir = tempDir("pith-large-page-");
  writeFileSync(
    join(dir, "a-breaks.html"),
    `<html><body><p>start</p>${"<br>".repeat(55 * 1024 * 256)}</body></html>`,
  );
  copyFileSync(fixturePath("pages/article.html"), join(dir, "b-article.html"));
  copyFileSync(fixturePath("pages/article.html"), join(dir, "c-article.html"));
  for (let run = 0; run < RUNS; run++) {
    const out = tempDir("pith-large-page-out-");
    const threads = run % 2 ? ["--workers", "0"] : [];
    const r = await pith(["extract", dir, "--out", out, "--timeout", "120000", ...threads]);
    assert.equal(r.status, 1, `run ${run}: exit ${r.status}: ${r.stderr.slice(-500)}`);
    assert.match(
      r.stderr,
      new RegExp(
        `^error\\ta-breaks\\.html\\trender\\tpage too large: more than ${MAX_SNAPSHOT_NODES.toLocaleString("en")} elements and text nodes$`,
        "m",
      ),
    );
    assert.match(r.stderr, /^extracted 2 page\(s\) with ml, 1 error\(s\)/m, `run ${run}: no summary`);
    for (const page of ["b-article.txt", "c-article.txt"])
      assert.ok(existsSync(join(out, page)), `run ${run}: ${page} written`);
  }
});
