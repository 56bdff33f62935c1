/**
 * Start-up benchmark: what one `pith` command costs before and around its work, the way a user
 * pays it when they run pith once per page. Each case runs `--runs` times as a child process,
 * alternating the ways pith can start so that a busy minute touches all of them:
 *   - bundle: bin/pith.js with a fresh dist/ (scripts/build.mjs; built first when it is stale),
 *   - sources: the same with PITH_SOURCES=1 (the TypeScript sources through tsx, as after an edit).
 * Cases: `pith --help`, `pith extract` of the fixture article (static, ml), and a two-page
 * directory on two worker threads. Prints the median and range of the wall time and the median
 * peak RSS (from /usr/bin/time when present) as a Markdown table.
 *
 *   npm run bench:startup -- [--runs 7]
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { intOption, scriptArgs } from "./args.ts";
import { median } from "./stats.ts";

const USAGE = `Usage: npm run bench:startup -- [--runs 7]

Wall time (median and range of --runs runs) and peak RSS of \`pith --help\`, \`pith extract\` of one
page and of a two-page directory on two workers, started from the bundle and from the sources.`;

const ROOT = resolve(import.meta.dirname, "..");
const PITH = join(ROOT, "bin", "pith.js");
const TIME = "/usr/bin/time";

interface Sample {
  ms: number;
  rssMb: number | null;
}

function runOnce(args: string[], env: NodeJS.ProcessEnv): Sample {
  const withTime = existsSync(TIME);
  const cmd = withTime ? TIME : "node";
  const argv = withTime ? ["-f", "PITH_RSS_KB %M", "node", PITH, ...args] : [PITH, ...args];
  const started = performance.now();
  const r = spawnSync(cmd, argv, { env: { ...process.env, ...env }, encoding: "utf8" });
  const ms = performance.now() - started;
  if (r.status !== 0)
    throw new Error(`pith ${args.join(" ")} exited ${r.status}: ${r.stderr.split("\n").slice(-3).join(" ")}`);
  const rss = /PITH_RSS_KB (\d+)/.exec(r.stderr);
  return { ms, rssMb: rss ? Number(rss[1]) / 1024 : null };
}

function main(): void {
  const values = scriptArgs(USAGE, { runs: { type: "string" } });
  const runs = intOption(USAGE, "runs", values.runs, 7);
  const build = spawnSync("node", [join(ROOT, "scripts", "build.mjs")], { encoding: "utf8" });
  if (build.status !== 0) throw new Error(`the build failed: ${build.stderr}`);
  const pages = mkdtempSync(join(tmpdir(), "pith-bench-startup-"));
  const out = join(pages, "out");
  copyFileSync(join(ROOT, "test/fixtures/pages/article.html"), join(pages, "a.html"));
  copyFileSync(join(ROOT, "test/fixtures/site/blog/bees.html"), join(pages, "b.html"));
  const cases: Array<[string, string[]]> = [
    ["pith --help", ["--help"]],
    ["pith extract page.html", ["extract", join(pages, "a.html")]],
    ["pith extract DIR (2 pages, 2 workers)", ["extract", pages, "--workers", "2", "--out", out]],
  ];
  const starts: Array<[string, NodeJS.ProcessEnv]> = [
    ["bundle", {}],
    ["sources", { PITH_SOURCES: "1" }],
  ];
  console.log(`bin/pith.js, ${runs} runs each (alternating), wall time from spawn to exit\n`);
  console.log("| command | start | median ms | range ms | peak RSS MB (median) |");
  console.log("|---|---|---|---|---|");
  try {
    for (const [name, args] of cases) {
      const samples = new Map<string, Sample[]>(starts.map(([s]) => [s, []]));
      for (const [, env] of starts) runOnce(args, env); // warm the file cache
      for (let i = 0; i < runs; i++) {
        for (const [s, env] of starts) {
          rmSync(out, { recursive: true, force: true });
          samples.get(s)?.push(runOnce(args, env));
        }
      }
      for (const [s] of starts) {
        const xs = samples.get(s) ?? [];
        const ms = xs.map((x) => x.ms);
        const rss = xs.flatMap((x) => (x.rssMb === null ? [] : [x.rssMb]));
        console.log(
          `| ${name} | ${s} | ${median(ms).toFixed(0)} | ${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)} | ${rss.length ? median(rss).toFixed(0) : "–"} |`,
        );
      }
    }
  } finally {
    rmSync(pages, { recursive: true, force: true });
  }
}

main();
