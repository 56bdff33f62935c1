// Bundles pith's CLI, its worker threads and its library entry into dist/ with esbuild, so that a
// command starts without loading ~140 TypeScript modules through tsx one by one (`npm run
// bench:startup` measures it; README, "Start-up") and a program can import pith with plain Node.
// Run by `npm install` (the prepare script) and `npm run build`. bin/pith.js and lib/index.js use
// the bundle only while it is newer than every file under src/ (bundleIsFresh: the stamp written
// last here); after an edit they run the sources through tsx until the next build.
// Plain JavaScript, so that it runs before anything else is set up.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The modules a process or worker thread starts from (src/paths.ts workerModule names the workers), and the library's. */
export const ENTRIES = [
  "cli/main",
  "batch/extract-worker",
  "evaluate/worker",
  "train/worker",
  "studio/teach-worker",
  "index",
  "pipeline/model/cache", // run by the build itself: writeModelCaches
];

/**
 * Newest modification time (ms) of the files and folders under src/ (a folder's changes when a
 * file in it is added, removed or renamed) and the number of files: the bundle is fresh while
 * neither moved. Every file is stat'ed at each start, so an edit is never missed; the walk is by
 * hand (readdirSync's `recursive` and path.join cost 9-11 against 2 ms of CPU for src/'s 280 entries).
 */
export function sourceStamp(dir = join(root, "src")) {
  let newest = statSync(dir).mtimeMs;
  let files = 0;
  const folders = [dir];
  while (folders.length) {
    const folder = folders.pop();
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      const st = statSync(path);
      if (st.isFile()) files++;
      if (st.mtimeMs > newest) newest = st.mtimeMs;
      if (entry.isDirectory()) folders.push(path);
    }
  }
  return { newest, files };
}

/** True while dist/ holds a bundle built from the sources as they are now (PITH_SOURCES=1: never). */
export function bundleIsFresh() {
  if (process.env.PITH_SOURCES) return false;
  let built;
  try {
    built = JSON.parse(readFileSync(join(root, "dist", "source-stamp.json"), "utf8"));
  } catch {
    return false; // no bundle
  }
  const now = sourceStamp();
  return built.newest === now.newest && built.files === now.files;
}

/**
 * pith's module `name` (its path under src/ without the extension: "cli/main", "index"): the
 * bundle's while it is fresh, else the TypeScript source through tsx's loader. bin/pith.js and
 * lib/index.js start from it.
 */
export async function importPith(name) {
  if (bundleIsFresh()) return import(`../dist/${name}.js`);
  const { register } = await import("tsx/esm/api");
  register();
  return import(`../src/${name}.ts`);
}

/** The studio's browser bundle (src/studio/ui, preact): one script and one style sheet, no CDN at run time. */
export function studioUiOptions() {
  return {
    entryPoints: { app: join(root, "src", "studio", "ui", "main.tsx") },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    jsx: "automatic",
    jsxImportSource: "preact",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  };
}

async function build() {
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    console.error(
      "pith build: esbuild is not installed; pith will run its sources through tsx (slower start)",
    );
    return;
  }
  const out = join(root, "dist");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const stamp = sourceStamp(); // before reading the sources: an edit during the build makes the bundle stale, not wrong
  try {
    await bundle(esbuild, out);
  } catch (e) {
    // an install must not fail for want of the bundle: without its stamp, bin/pith.js runs the sources
    rmSync(out, { recursive: true, force: true });
    console.error(
      `pith build: no bundle (${String(e?.message ?? e).split("\n")[0]}); pith will run its sources through tsx (slower start)`,
    );
    return;
  }
  await cacheModels(out);
  writeFileSync(join(out, "source-stamp.json"), JSON.stringify(stamp) + "\n");
}

/**
 * The bundled models' binary caches (src/pipeline/model/cache.ts) into dist/models/: a fresh
 * process then reads typed arrays instead of parsing 3.4 MB of JSON. Without them pith reads the JSON.
 */
async function cacheModels(out) {
  try {
    const { writeModelCaches } = await import(pathToFileURL(join(out, "pipeline", "model", "cache.js")).href);
    await writeModelCaches();
  } catch (e) {
    console.error(
      `pith build: no model cache (${String(e?.message ?? e).split("\n")[0]}); pith will read the JSON models`,
    );
  }
}

/**
 * The packages bundled into dist/ with pith's code: the ones every extraction loads. Bundled, a
 * package is one more chunk, not dozens of files resolved one by one, its CommonJS exports are
 * not scanned by Node's lexer at each start, and what pith does not use of it is dropped
 * (htmlparser2's DOM utilities, entities' encoder); warcio is loaded when a WARC is met. One page
 * from start to end: 0.41 against 0.44 s of CPU (5 interleaved runs each, `taskset -c 1`). Every
 * other package (Puppeteer, tfjs, BullMQ, the peers …) stays in node_modules, and so does any
 * dependency added later.
 */
const BUNDLED = new Set(["htmlparser2", "entities", "chardet", "iconv-lite", "cli-progress"]);

/** Every package pith depends on but BUNDLED: imported from node_modules at run time. */
function externalPackages() {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies });
  return names.filter((n) => !BUNDLED.has(n)).flatMap((n) => [n, `${n}/*`]);
}

/** CommonJS packages bundled into ES modules call require() for Node's built-ins. */
const REQUIRE_BANNER =
  'import { createRequire as __pithRequire } from "node:module"; const require = __pithRequire(import.meta.url);';

async function bundle(esbuild, out) {
  await esbuild.build({
    entryPoints: ENTRIES.map((e) => join(root, "src", `${e}.ts`)),
    outbase: join(root, "src"),
    outdir: out,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: externalPackages(),
    banner: { js: REQUIRE_BANNER },
    sourcemap: "linked",
    logLevel: "silent",
  });
  await esbuild.build({ ...studioUiOptions(), outdir: join(out, "studio") });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();
