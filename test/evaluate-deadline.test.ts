/**
 * `pith evaluate` on worker threads: a page that outruns its job's deadline fails alone, as a
 * page that failed to render does, and the run goes on with a fresh worker.
 */
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { test } from "node:test";
import { evaluateMethods, jobDeadlineMs } from "../src/evaluate/runner.ts";
import { hugePage, writeSyntheticSet, tempDir } from "./helpers.ts";

test("a page that outruns its deadline on a worker fails alone; the other pages are scored", async () => {
  const dir = tempDir("pith-eval-deadline-");
  try {
    writeSyntheticSet(dir, ["a.test", "b.test"], 3);
    writeFileSync(join(dir, "html", "p-0-1.html.gz"), gzipSync(hugePage(20_000_000)));
    const timeoutMs = 1_000;
    const { pages, runs } = await evaluateMethods({
      methods: ["all-text"],
      datasets: [dir],
      workers: 2,
      renderOptions: { timeoutMs },
    });
    assert.equal(pages.length, 6);
    const byId = new Map(pages.map((p) => [p.id, p]));
    const job = {
      datasetDir: dir,
      domain: "a.test",
      ids: ["p-0-1"],
      contextIds: [],
      methods: ["all-text"],
      mode: "static" as const,
      renderOptions: { timeoutMs },
      params: {},
      context: { mode: "static" as const, trace: false },
      site: false,
      rouge: false,
    };
    const deadline = jobDeadlineMs(job);
    assert.equal(deadline, 2_000);
    assert.equal(byId.get("p-0-1")?.error, `timeout: evaluating 1 page(s) took longer than ${deadline} ms`);
    assert.deepEqual(byId.get("p-0-1")?.wcxb, { p: 0, r: 0, f1: 0 });
    for (const id of ["p-0-0", "p-0-2", "p-1-0", "p-1-1", "p-1-2"]) {
      assert.equal(byId.get(id)?.error, undefined, id);
      assert.ok((byId.get(id)?.wcxb.r ?? 0) > 0.99, `${id}: all text holds the gold`);
    }
    assert.equal(runs.find((r) => r.group === "all")?.errors, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
