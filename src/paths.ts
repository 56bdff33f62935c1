/**
 * Where pith's own files are, whether it runs from its TypeScript sources (through tsx) or from
 * the bundle `npm install` builds into dist/ (scripts/build.mjs; bin/pith.js picks it when it is
 * newer than every source file). Both resolve the repository's folders (models/, data/) the same
 * way, and each starts its worker threads from its own kind of module.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** True when this code runs from dist/ (the bundle), false from src/. */
export const BUNDLED = import.meta.url.endsWith(".js");

/** The nearest folder at or above `from` whose package.json names pith. */
function pithRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: unknown }).name === "pith")
      return dir;
    if (dirname(dir) === dir) throw new Error(`pith's package.json was not found above ${from}`);
  }
}

/** The repository (or installed package) root: models/, data/ and src/ are below it. */
export const PITH_ROOT = pithRoot(import.meta.dirname);

/**
 * The URL of a worker thread's module, named by its path under src/ without the extension
 * ("batch/extract-worker"): the bundled module when this code is the bundle, else the source.
 */
export function workerModule(name: string): string {
  return pathToFileURL(
    BUNDLED ? resolve(PITH_ROOT, "dist", `${name}.js`) : resolve(PITH_ROOT, "src", `${name}.ts`),
  ).href;
}
