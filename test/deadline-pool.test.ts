/**
 * The worker pool behind `pith extract` and `pith evaluate` batches (src/batch/pool.ts): a job
 * that hangs or kills its worker fails alone, a fresh worker takes the next jobs, a worker that
 * cannot set up fails the pool, and closing settles every job.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DeadlinePool } from "../src/batch/pool.ts";
import { eventually } from "./helpers.ts";

const WORKER = new URL("./fixtures/pool/worker.ts", import.meta.url).href;

function pool(size: number, deadlineMs = 2_000, fail = false): DeadlinePool<string, string> {
  return new DeadlinePool<string, string>({
    url: WORKER,
    workerData: { fail },
    size,
    deadlineMs: () => deadlineMs,
    failure: (job, kind, detail) => `${job} failed (${kind}): ${detail}`,
    name: "a test worker",
  });
}

test(
  "a hanging job times out and a crashing one fails, each alone; the other jobs get their results",
  { timeout: 30_000 },
  async () => {
    const p = pool(1);
    try {
      await p.ready();
      const results = await Promise.all(["echo:a", "hang", "echo:b", "throw", "echo:c"].map((j) => p.run(j)));
      assert.deepEqual(results.slice(0, 3), ["a", "hang failed (timeout): 2000", "b"]);
      assert.match(results[3] as string, /^throw failed \(crash\): worker crashed: boom$/);
      assert.equal(results[4], "c");
    } finally {
      await p.close();
    }
  },
);

test(
  "a worker that cannot set up fails the pool: ready() rejects and every job gets its failure",
  { timeout: 30_000 },
  async () => {
    const p = pool(2, 2_000, true);
    try {
      await assert.rejects(p.ready(), /cannot set up/);
      assert.equal(await p.run("echo:x"), "echo:x failed (crash): cannot set up");
    } finally {
      await p.close();
    }
  },
);

test(
  "workers start as jobs need them, up to the pool's size: two jobs on a pool of eight start two threads",
  { timeout: 30_000 },
  async () => {
    const p = pool(8, 10_000);
    try {
      await p.ready();
      assert.equal(p.threads, 1, "one worker starts with the pool");
      const two = ["sleep:50", "sleep:50"].map((j) => p.run(j));
      assert.equal(p.threads, 2, "a second job while the first worker is busy starts a second worker");
      await Promise.all(two);
      const six = Array.from({ length: 6 }, () => p.run("sleep:50"));
      assert.equal(p.threads, 6, "two idle workers take two of six jobs, four more start for the rest");
      await Promise.all(six);
      await p.run("sleep:0");
      assert.equal(p.threads, 6, "an idle worker takes the next job instead of a new one starting");
      const many = Array.from({ length: 20 }, () => p.run("echo:x"));
      assert.equal(p.threads, 8, "never more than the pool's size");
      assert.deepEqual(new Set(await Promise.all(many)), new Set(["x"]));
    } finally {
      await p.close();
    }
  },
);

test("closing settles the jobs still running or queued", { timeout: 30_000 }, async () => {
  const p = pool(1, 60_000);
  await p.ready();
  const running = p.run("hang");
  const queued = p.run("echo:late");
  await new Promise((r) => setTimeout(r, 200));
  await p.close();
  assert.deepEqual(await Promise.all([running, queued]), [
    "hang failed (crash): the worker pool was closed before this job finished",
    "echo:late failed (crash): the worker pool was closed before this job finished",
  ]);
});

test(
  "what a worker reported holding is released when it is terminated (deadline, crash), not when it closes",
  { timeout: 30_000 },
  async () => {
    const released: string[] = [];
    const p = new DeadlinePool<string, string>({
      url: WORKER,
      workerData: {},
      size: 1,
      deadlineMs: () => 1_000,
      closeGraceMs: 2_000,
      failure: (job, kind) => `${job} failed (${kind})`,
      release: (holds) => released.push(...holds),
      name: "a test worker",
    });
    try {
      await p.ready();
      assert.equal(await p.run("hold:dir-a:hang"), "hold:dir-a:hang failed (timeout)");
      assert.equal(await p.run("hold:dir-b:throw"), "hold:dir-b:throw failed (crash)");
      assert.equal(await p.run("hold:dir-c:echo:ok"), "ok");
      await eventually(() => released.length >= 2, "both terminated workers' holds released"); // the timed-out worker's release follows its terminate()
      assert.deepEqual(released.sort(), ["dir-a", "dir-b"]);
    } finally {
      await p.close();
    }
    assert.deepEqual(
      released.sort(),
      ["dir-a", "dir-b"],
      "a worker that closed itself keeps nothing to release",
    );
  },
);
