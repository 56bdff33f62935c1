/**
 * The bundle (scripts/build.mjs → dist/): bin/pith.js and the library entry (lib/index.js) run it
 * while it is newer than every source file and the sources through tsx once one changed, workers
 * included, with the same outputs. Runs on a copy of pith, so the checkout's own dist/ is left as
 * it is.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import test from "node:test";
import { fixturePath, tempDir } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A copy of pith's runnable files (its node_modules linked) in a temporary folder. */
function pithCopy(): string {
  const dir = tempDir("pith-copy-");
  for (const d of ["bin", "lib", "scripts", "src", "models"])
    cpSync(join(ROOT, d), join(dir, d), { recursive: true });
  copyFileSync(join(ROOT, "package.json"), join(dir, "package.json"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

/** A loader hook that reports every pith module a thread loads ("LOADED <path>" on stderr). */
function loadReporter(): string {
  const dir = tempDir("pith-hook-");
  writeFileSync(
    join(dir, "hook.mjs"),
    `export async function load(url, context, next) { if (url.startsWith("file:")) process.stderr.write("LOADED " + url + "\\n"); return next(url, context); }\n`,
  );
  writeFileSync(
    join(dir, "register.mjs"),
    `import { register } from "node:module";\nregister(${JSON.stringify(new URL(`file://${join(dir, "hook.mjs")}`).href)});\n`,
  );
  return join(dir, "register.mjs");
}

function run(
  copy: string,
  hook: string,
  args: string[],
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync("node", ["--import", hook, join(copy, "bin", "pith.js"), ...args], {
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Which of pith's entry modules a run loaded: the bundle's or the sources'. */
function loaded(stderr: string, copy: string, module: string): { bundle: boolean; sources: boolean } {
  return {
    bundle: stderr.includes(`${copy}/dist/${module}.js`),
    sources: stderr.includes(`${copy}/src/${module}.ts`),
  };
}

test(
  "bin/pith.js runs the bundle while it is fresh, the sources once a source file changed, and both write the same outputs, on workers too",
  { timeout: 180_000 },
  () => {
    const copy = pithCopy();
    const hook = loadReporter();
    const built = spawnSync("node", [join(copy, "scripts", "build.mjs")], { encoding: "utf8" });
    assert.equal(built.status, 0, built.stderr);
    assert.ok(
      readdirSync(join(copy, "dist", "batch")).includes("extract-worker.js"),
      "the extract worker is an entry of its own",
    );
    const pages = tempDir("pith-copy-pages-");
    copyFileSync(fixturePath("pages/article.html"), join(pages, "article.html"));
    copyFileSync(fixturePath("refine/forum.html"), join(pages, "forum.html"));
    const outputs = (mode: string) => {
      const out = join(tempDir(`pith-copy-out-${mode}-`), "out");
      const single = run(copy, hook, ["extract", join(pages, "article.html")]);
      assert.equal(single.status, 0, single.stderr);
      const batch = run(copy, hook, ["extract", pages, "--workers", "1", "--format", "json", "--out", out]);
      assert.equal(batch.status, 0, batch.stderr);
      return { single, batch, json: readdirSync(out).map((f) => readFileSync(join(out, f), "utf8")) };
    };

    const fresh = outputs("bundle");
    assert.deepEqual(loaded(fresh.single.stderr, copy, "cli/main"), { bundle: true, sources: false });
    assert.deepEqual(loaded(fresh.batch.stderr, copy, "batch/extract-worker"), {
      bundle: true,
      sources: false,
    });
    assert.match(fresh.single.stdout, /Rivers rarely run straight/);

    // an edit (here only a newer modification time) makes the bundle stale
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(copy, "src", "pipeline", "run.ts"), later, later);
    const stale = outputs("sources");
    assert.deepEqual(loaded(stale.single.stderr, copy, "cli/main"), { bundle: false, sources: true });
    assert.ok(
      !stale.batch.stderr.includes(`${copy}/dist/`),
      "no module of the stale bundle is loaded, in the main thread or the worker",
    );
    assert.equal(stale.single.stdout, fresh.single.stdout);
    assert.deepEqual(stale.json, fresh.json);

    // a new source file makes it stale too, and a rebuild makes it fresh again
    mkdirSync(join(copy, "src", "extra"));
    writeFileSync(join(copy, "src", "extra", "note.ts"), "export {};\n");
    utimesSync(join(copy, "src", "pipeline", "run.ts"), new Date(0), new Date(0));
    assert.equal(loaded(run(copy, hook, ["--help"]).stderr, copy, "cli/main").sources, true);
    assert.equal(spawnSync("node", [join(copy, "scripts", "build.mjs")]).status, 0);
    assert.equal(loaded(run(copy, hook, ["--help"]).stderr, copy, "cli/main").bundle, true);
  },
);

test("a source file renamed, with nothing else touched, makes the bundle stale", () => {
  const copy = pithCopy();
  const hook = loadReporter();
  assert.equal(spawnSync("node", [join(copy, "scripts", "build.mjs")]).status, 0);
  assert.equal(loaded(run(copy, hook, ["--help"]).stderr, copy, "cli/main").bundle, true);
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(copy, "src", "lower-bound.ts"), past, past);
  renameSync(join(copy, "src", "lower-bound.ts"), join(copy, "src", "lower-bound-renamed.ts"));
  assert.equal(loaded(run(copy, hook, ["--help"]).stderr, copy, "cli/main").bundle, false);
});

test("a build that fails leaves no bundle and does not fail the install: pith runs its sources", () => {
  const copy = pithCopy();
  const hook = loadReporter();
  const broken = join(copy, "src", "extra-broken.ts");
  writeFileSync(broken, "export const = ;\n");
  const main = join(copy, "src", "cli", "main.ts");
  writeFileSync(main, `${readFileSync(main, "utf8")}\nimport "../extra-broken.ts";\n`);
  const built = spawnSync("node", [join(copy, "scripts", "build.mjs")], { encoding: "utf8" });
  assert.equal(built.status, 0, built.stderr);
  assert.match(
    built.stderr,
    /^pith build: no bundle \(.+\); pith will run its sources through tsx \(slower start\)$/m,
  );
  assert.ok(!existsSync(join(copy, "dist")), "no half-built dist/");
  // put the sources right: they run, the (missing) bundle does not
  writeFileSync(main, readFileSync(main, "utf8").replace('\nimport "../extra-broken.ts";\n', ""));
  const help = run(copy, hook, ["--help"]);
  assert.equal(help.status, 0, help.stderr);
  assert.equal(loaded(help.stderr, copy, "cli/main").sources, true);
});

test(
  "a plain Node program imports pith by name: the bundle while it is fresh, else the sources, every export of src/index.ts there",
  { timeout: 120_000 },
  async () => {
    const copy = pithCopy();
    const hook = loadReporter();
    assert.equal(spawnSync("node", [join(copy, "scripts", "build.mjs")]).status, 0);
    const app = tempDir("pith-app-");
    mkdirSync(join(app, "node_modules"));
    symlinkSync(copy, join(app, "node_modules", "pith"));
    writeFileSync(
      join(app, "app.mjs"),
      `import * as pith from "pith";
import { readFileSync } from "node:fs";
const missing = Object.keys(pith).filter((k) => pith[k] === undefined);
const html = readFileSync(process.argv[2], "utf8");
const page = pith.staticSnapshot({ id: "p", source: "p", url: null, html, encoding: "utf-8", remote: false });
const { text } = await pith.runExtractor(pith.getExtractor("ml"), page, { mode: "static" });
console.log(JSON.stringify({ names: Object.keys(pith).sort(), missing, text }));
`,
    );
    const runApp = (env: Record<string, string>) => {
      const r = spawnSync(
        "node",
        ["--import", hook, join(app, "app.mjs"), fixturePath("pages/article.html")],
        { cwd: app, encoding: "utf8", env: { ...process.env, ...env } },
      );
      assert.equal(r.status, 0, r.stderr);
      return {
        out: JSON.parse(r.stdout) as { names: string[]; missing: string[]; text: string },
        stderr: r.stderr,
      };
    };
    const bundled = runApp({});
    assert.deepEqual(
      {
        bundle: bundled.stderr.includes(`${copy}/dist/index.js`),
        sources: bundled.stderr.includes(`${copy}/src/index.ts`),
      },
      { bundle: true, sources: false },
    );
    const sources = runApp({ PITH_SOURCES: "1" });
    assert.ok(sources.stderr.includes(`${copy}/src/index.ts`) && !sources.stderr.includes(`${copy}/dist/`));

    const expected = Object.keys(await import("../src/index.ts")).sort();
    for (const { out } of [bundled, sources]) {
      assert.deepEqual(
        out.names,
        expected,
        "lib/index.js lists every runtime export of src/index.ts, and no other",
      );
      assert.deepEqual(out.missing, []);
      assert.match(out.text, /Rivers rarely run straight/);
    }
    assert.equal(sources.out.text, bundled.out.text);
  },
);
