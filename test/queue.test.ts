/**
 * `pith queue` against a real redis-server on a free loopback port: a worker killed mid-job, Redis
 * restarted mid-run, pages that fail and jobs that fail, bad input, and what a worker refuses.
 * A job is made to stay in progress by a URL input whose server holds its answer (PageServer), not
 * by timing.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { after, afterEach, before, test } from "node:test";
import { Queue } from "bullmq";
import { queueCommand } from "../src/cli/queue.ts";
import { hugePage, tempDir } from "./helpers.ts";
import {
  diffTrees,
  filesBelow,
  PageServer,
  RedisServer,
  runPith,
  samplePages,
  startPith,
  until,
  type Running,
} from "./queue-helpers.ts";

const A = ["hv-0029", "wx-0204", "wx-0214", "wx-0368", "wx-0566"];
const B = ["wx-0627", "wx-2828", "wx-2857", "wx-2858", "wx-2890"];

let redis: RedisServer;
let pages: PageServer;
/** The inputs of the fault tests (cwd-relative: folder a, the held URL, folder b) and their single-process outputs. */
let root: string;
let specs: string[];
let reference: string;
const workers: Running[] = [];

before(async () => {
  redis = await RedisServer.start();
  pages = new PageServer();
  await pages.start();
  root = tempDir("pith-queue-");
  samplePages(root, "a", A);
  samplePages(root, "b", B);
  specs = ["a", pages.url, "b"];
  reference = join(root, "reference");
  pages.release();
  const res = await runPith(["extract", ...specs, "--out", reference], root);
  assert.equal(res.status, 0, res.stderr);
  pages.hold = true;
});

// a test that failed midway leaves no worker behind to take the next test's jobs
afterEach(async () => {
  for (const w of workers.splice(0))
    if (w.child.exitCode === null && w.child.signalCode === null) {
      w.child.kill("SIGKILL");
      await w.exited;
    }
});

after(async () => {
  await pages.close();
  await redis.stop();
});

function worker(args: string[], url = redis.url()): Running {
  const w = startPith(["queue", "worker", "--redis", url, "--workers", "1", ...args]);
  workers.push(w);
  return w;
}

async function submit(args: string[], cwd = root, url = redis.url()): Promise<string> {
  const res = await runPith(["queue", "submit", ...args, "--redis", url], cwd);
  assert.equal(res.status, 0, res.stderr);
  const id = /^([0-9a-f]{12})\t/.exec(res.stdout)?.[1];
  assert.ok(id, res.stdout);
  return id;
}

async function waitStatus(run: string, url = redis.url()) {
  const res = await runPith(["queue", "status", run, "--wait", "--json", "--redis", url]);
  return { ...res, status: res.status, json: JSON.parse(res.stdout) as StatusJson };
}

/** The run's job counts now (`status --json`, without waiting). */
async function jobsOf(run: string): Promise<StatusJson["jobs"]> {
  const res = await runPith(["queue", "status", run, "--json", "--redis", redis.url()]);
  return (JSON.parse(res.stdout) as StatusJson).jobs;
}

interface StatusJson {
  jobs: { total: number; pending: number; active: number; done: number; failed: number };
  pages: { extracted: number; errors: number };
  failed: { id: string; reason: string; attempts: number }[];
  recentErrors: string[];
}

test("a worker SIGKILLed mid-job: another worker takes the job over and the outputs equal pith extract's (diff -r)", async () => {
  pages.hold = true;
  pages.slowRequests = 0;
  const out = join(root, "out-kill");
  const run = await submit([...specs, "--out", out]);
  const first = worker(["--lock", "1000", "--concurrency", "1"]);
  // inside the job: folder a's pages written, the URL asked for and not answered
  await until("the first worker to reach the held page", () => pages.slowRequests === 1);
  // final files only: a page's temporary `.partial` file counted here would let the kill land mid-write
  const written = () => filesBelow(out).filter((f) => !f.endsWith(".partial")).length;
  await until("folder a's pages", () => existsSync(out) && written() >= A.length);
  first.child.kill("SIGKILL");
  assert.equal(await first.exited, null);
  pages.release();
  const second = worker(["--lock", "1000"]);
  const s = await waitStatus(run);
  assert.equal(s.status, 0, s.stderr);
  assert.deepEqual(s.json.jobs, { total: 1, pending: 0, active: 0, done: 1, failed: 0 });
  assert.equal(s.json.pages.extracted, A.length + B.length + 1);
  assert.equal(diffTrees(reference, out), "");
  assert.equal(filesBelow(out).length, A.length + B.length + 1); // none twice, no partial file left
  assert.match(second.stderr(), /\tdone\t11 page\(s\), 0 error\(s\)/);
  second.child.kill("SIGTERM");
  assert.equal(await second.exited, 0, second.stderr());
  assert.match(second.stderr(), /stopping \(SIGTERM\)/);
});

test("Redis restarted mid-run (append-only file on): the worker reconnects and the run completes", async () => {
  pages.hold = true;
  pages.slowRequests = 0;
  const out = join(root, "out-restart");
  const run = await submit([...specs, "--out", out, "--job-size", "4"]);
  const w = worker([]);
  await until("the worker to reach the held page", () => pages.slowRequests === 1);
  await redis.restart();
  pages.release();
  const s = await waitStatus(run);
  assert.equal(s.status, 0, s.stderr);
  assert.deepEqual(s.json.jobs, { total: 3, pending: 0, active: 0, done: 3, failed: 0 });
  assert.equal(diffTrees(reference, out), "");
  w.child.kill("SIGTERM");
  assert.equal(await w.exited, 0, w.stderr());
});

test("SIGTERM: the worker gives its running job back to the queue and exits 0", async () => {
  pages.hold = true;
  pages.slowRequests = 0;
  const out = join(root, "out-term");
  const run = await submit([pages.url, "--out", out]);
  const w = worker(["--grace", "0"]);
  await until("the worker to reach the held page", () => pages.slowRequests === 1);
  w.child.kill("SIGTERM");
  await until("the worker to stop taking jobs", () => /stopping \(SIGTERM\)/.test(w.stderr()));
  pages.release(); // the page in flight ends; its output is not written, the job goes back
  assert.equal(await w.exited, 0, w.stderr());
  assert.match(w.stderr(), /\treleased\tthe worker is stopping$/m);
  assert.deepEqual(await jobsOf(run), { total: 1, pending: 1, active: 0, done: 0, failed: 0 });
  assert.equal((await runPith(["queue", "clean", run, "--redis", redis.url()])).status, 0);
});

test("a page past --timeout is an error record in the log and in status, its job completes; an unreadable WARC's job fails after its attempts", async () => {
  const dir = join(root, "faults");
  samplePages(root, "faults", A.slice(0, 2));
  writeFileSync(join(dir, "huge.html"), hugePage(20 * 1024 * 1024));
  writeFileSync(join(dir, "crawl.warc.gz"), "this is not a WARC file\n");
  const out = join(root, "out-faults");
  const run = await submit(["faults", "--out", out, "--timeout", "1500", "--attempts", "2"]);
  const w = worker([]);
  const s = await waitStatus(run);
  assert.equal(s.status, 1, s.stderr); // a failed job
  assert.equal(s.json.jobs.done, 1);
  assert.equal(s.json.jobs.failed, 1);
  assert.equal(s.json.pages.extracted, 2);
  assert.equal(s.json.pages.errors, 1);
  assert.match(s.json.recentErrors[0] ?? "", /^error\thuge\.html\ttimeout\t/);
  assert.match(s.json.failed[0]?.reason ?? "", /^nothing could be read: bad WARC/);
  assert.equal(s.json.failed[0]?.attempts, 2);
  assert.match(w.stderr(), /^error\thuge\.html\ttimeout\ttimeout: extraction took longer than 1500 ms$/m);
  assert.deepEqual(
    filesBelow(out),
    A.slice(0, 2).map((p) => `${p}.txt`),
  );
  const text = await runPith(["queue", "status", run, "--redis", redis.url()]);
  assert.match(text.stdout, /jobs {4}2: 0 pending, 0 active, 1 done, 1 failed/);
  assert.match(text.stdout, /failed {2}\S+: nothing could be read: bad WARC/);
  w.child.kill("SIGTERM");
  assert.equal(await w.exited, 0, w.stderr());
  // with no worker left: retry puts the failed job back in the queue, clean removes the run
  const retried = await runPith(["queue", "retry", run, "--redis", redis.url()]);
  assert.match(retried.stdout, /\t1 failed job\(s\) back in the queue/);
  assert.deepEqual(await jobsOf(run), { total: 2, pending: 1, active: 0, done: 1, failed: 0 });
  const clean = await runPith(["queue", "clean", run, "--redis", redis.url()]);
  assert.equal(clean.status, 0, clean.stderr);
  const gone = await runPith(["queue", "status", run, "--redis", redis.url()]);
  assert.equal(gone.status, 2);
  assert.match(gone.stderr, /^pith: queue status: no run \S+ in Redis/);
});

test("re-submitting the same inputs to the same --out skips the jobs done", async () => {
  const out = join(root, "out-kill");
  pages.release();
  const res = await runPith(["queue", "submit", ...specs, "--out", out, "--redis", redis.url()], root);
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stdout, /\t1 job\(s\): 0 added, 1 already done, 0 already in the queue$/m);
});

test("--out-format jsonl: one .jsonl.gz per job, together every page of pith extract's JSONL once", async () => {
  const out = join(root, "out-jsonl");
  const run = await submit(["a", "b", "--out", out, "--out-format", "jsonl", "--job-size", "3"]);
  const w = worker([]);
  const done = await waitStatus(run);
  assert.equal(done.status, 0, done.stderr);
  w.child.kill("SIGTERM");
  await w.exited;
  const single = join(root, "single-jsonl");
  const res = await runPith(
    ["extract", "a", "b", "--out", single, "--out-format", "jsonl", "--workers", "0"],
    root,
  );
  assert.equal(res.status, 0, res.stderr);
  const lines = (dir: string) =>
    filesBelow(dir)
      .filter((f) => f.endsWith(".jsonl.gz"))
      .flatMap((f) =>
        gunzipSync(readFileSync(join(dir, f)))
          .toString("utf8")
          .trim()
          .split("\n"),
      );
  const queued = lines(out);
  assert.ok(filesBelow(out).filter((f) => f.endsWith(".jsonl.gz")).length >= 4, "one file per job");
  assert.equal(queued.length, A.length + B.length);
  assert.deepEqual([...queued].sort(), [...lines(single)].sort());
});

test("bad input: unreachable Redis, an --out nobody can write, no inputs: one line each, extract's exit codes", async () => {
  const closed = "redis://:hunter2@127.0.0.1:1"; // nothing listens on port 1
  const file = join(root, "a-file");
  writeFileSync(file, "x");
  const [viaSubmit, viaWorker, viaStatus, unwritable, none] = await Promise.all([
    ...[["submit", "a", "--out", join(root, "o")], ["worker"], ["status"]].map((args) =>
      runPith(["queue", ...args, "--redis", closed], root),
    ),
    runPith(["queue", "submit", "a", "--out", join(file, "out"), "--redis", redis.url()], root),
    runPith(["queue", "submit", "--out", join(root, "o"), "--redis", redis.url()], root),
  ]);
  for (const res of [viaSubmit, viaWorker, viaStatus]) {
    assert.equal(res?.status, 3, res?.stderr);
    assert.match(
      res?.stderr ?? "",
      /^pith: queue \w+: cannot reach Redis at redis:\/\/\*\*\*@127\.0\.0\.1:1: connection refused\n$/,
    );
    assert.doesNotMatch((res?.stderr ?? "") + res?.stdout, /hunter2/);
  }
  assert.equal(unwritable?.status, 2);
  assert.match(unwritable?.stderr ?? "", /^pith: queue submit: cannot use --out \S+: .*\n$/);
  assert.equal(none?.status, 2);
  assert.match(none?.stderr ?? "", /^pith: queue submit: give at least one input/);
  // an --out the worker's machine cannot write: the job goes back to the queue and the worker stops
  const out = join(root, "out-gone");
  const run = await submit(["a", "--out", out]);
  rmSync(out, { recursive: true });
  writeFileSync(out, "now a file");
  const w = worker([]);
  assert.equal(await w.exited, 2, w.stderr());
  assert.match(w.stderr(), /^pith: queue worker: cannot use --out \S+out-gone: .*$/m);
  assert.equal((await jobsOf(run)).pending, 1);
  await runPith(["queue", "clean", run, "--redis", redis.url()]);
});

test("security: the Redis password is never shown; a job naming a file outside the run's inputs is refused", async () => {
  const secret = "s3cret-pw";
  const locked = await RedisServer.start(["--requirepass", secret]);
  try {
    const url = locked.url(secret);
    const out = join(root, "out-secure");
    const run = await submit(["a", "--out", out, "--format", "json"], root, url);
    const w = worker([], url);
    const s = await waitStatus(run, url);
    assert.equal(s.json.jobs.done, 1, s.stderr);
    // a forged job of the same run that reads a file the run was never given
    const outside = tempDir("pith-outside-");
    writeFileSync(join(outside, "private.html"), "<p>private</p>");
    const queue = new Queue("extract", {
      connection: { host: "127.0.0.1", port: locked.port, password: secret },
      prefix: "pith",
    });
    await queue.add("pages", { run, cwd: outside, items: ["private.html"] }, { jobId: `${run}-forged` });
    await until(
      "the forged job to fail",
      async () => (await queue.getJobState(`${run}-forged`)) === "failed",
      30_000,
    );
    const forged = await queue.getJob(`${run}-forged`);
    assert.match(
      forged?.failedReason ?? "",
      /^refused: \S+private\.html is not among the run's submitted inputs/,
    );
    await queue.close();
    assert.deepEqual(
      filesBelow(out),
      A.map((p) => `${p}.json`),
    );
    const status = await runPith(["queue", "status", run, "--redis", url]);
    const wrong = await runPith(["queue", "status", "--redis", locked.url("not-it")]);
    assert.equal(wrong.status, 3);
    assert.match(wrong.stderr, /authentication failed/);
    w.child.kill("SIGTERM");
    await w.exited;
    const shown = [status.stdout, status.stderr, s.stdout, s.stderr, w.stderr(), wrong.stderr];
    shown.push(...filesBelow(out).map((f) => readFileSync(join(out, f), "utf8")));
    for (const text of shown) assert.ok(!text.includes(secret) && !text.includes("not-it"), text);
  } finally {
    await locked.stop();
  }
});

test("--help on every subcommand", async () => {
  const res = await runPith(["queue", "submit", "--help"]);
  assert.equal(res.status, 0);
  assert.match(res.stdout, /^Usage: pith queue submit /);
  for (const sub of ["submit", "worker", "status", "retry", "clean"])
    assert.match(queueCommand.helpFor?.([sub, "--help"]) ?? "", new RegExp(`^Usage: pith queue ${sub} `));
});
