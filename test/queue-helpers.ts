/** Helpers of the `pith queue` tests: a real redis-server on a free loopback port, pith processes in the background, a page server that holds a page. */
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { createServer as createHttpServer, type ServerResponse } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { fixtureText, PITH, tempDir } from "./helpers.ts";

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` every 50 ms until it is true; fails the test after `ms`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 60_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A redis-server with its append-only file on, in its own folder: started, restarted (same data), stopped. */
export class RedisServer {
  private child: ChildProcess | null = null;
  readonly dir = tempDir("pith-redis-");
  private constructor(
    readonly port: number,
    private readonly extra: string[],
  ) {}

  static async start(extra: string[] = []): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), extra);
    await server.up();
    return server;
  }

  url(password?: string): string {
    return `redis://${password ? `:${password}@` : ""}127.0.0.1:${this.port}`;
  }

  private async up(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes"];
    this.child = spawn("redis-server", [...args, "--dir", this.dir, ...this.extra], { stdio: "ignore" });
    const probe = new Redis({
      port: this.port,
      host: "127.0.0.1",
      lazyConnect: true,
      retryStrategy: () => 50,
    });
    probe.on("error", () => {});
    const password = this.extra[this.extra.indexOf("--requirepass") + 1];
    if (this.extra.includes("--requirepass") && password) probe.options.password = password;
    try {
      await until(
        "redis-server to start",
        async () => (await probe.ping().catch(() => "")) === "PONG",
        20_000,
      );
    } finally {
      probe.disconnect();
    }
  }

  /** SIGTERM (Redis writes its append-only file and exits), then the same server again on the same port. */
  async restart(): Promise<void> {
    await this.stop();
    await this.up();
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
}

/** A pith process in the background, its output collected. */
export interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

export function startPith(args: string[], cwd?: string): Running {
  const child = spawn("node", [PITH, ...args], {
    ...(cwd ? { cwd } : {}),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stdout?.on("data", (d) => (stdout += d));
  child.stderr?.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** `pith ARGS` to its end. */
export async function runPith(args: string[], cwd?: string) {
  const p = startPith(args, cwd);
  const status = await p.exited;
  return { status, stdout: p.stdout(), stderr: p.stderr() };
}

/** Every file below `dir`, as paths relative to it. */
export function filesBelow(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** `diff -r a b`: the output, empty when the trees are equal. */
export function diffTrees(a: string, b: string): string {
  const r = spawnSync("diff", ["-r", a, b], { encoding: "utf8" });
  return r.stdout + r.stderr;
}

/** Sample pages copied into `root/name/` (real pages from data/sample). */
export function samplePages(root: string, name: string, pages: readonly string[]): void {
  mkdirSync(join(root, name), { recursive: true });
  const sample = new URL("../data/sample/html/", import.meta.url).pathname;
  for (const p of pages) copyFileSync(join(sample, `${p}.html.gz`), join(root, name, `${p}.html.gz`));
}

/**
 * A local page server: `/slow` is held unanswered while `hold` is true (its request counted), so
 * a test knows a worker is inside that job; every answer is the same real article.
 */
export class PageServer {
  hold = true;
  slowRequests = 0;
  private held: ServerResponse[] = [];
  private readonly server = createHttpServer((req, res) => {
    if (req.url === "/slow") this.slowRequests++;
    if (req.url === "/slow" && this.hold) this.held.push(res);
    else this.answer(res);
  });
  port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/slow`;
  }

  private answer(res: ServerResponse): void {
    if (res.destroyed) return;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(fixtureText("pages/article.html"));
  }

  /** Answers the held requests and every later one at once. */
  release(): void {
    this.hold = false;
    for (const res of this.held.splice(0)) this.answer(res);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
