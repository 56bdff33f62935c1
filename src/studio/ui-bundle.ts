/**
 * The studio's browser code (src/studio/ui, preact and vega bundled by esbuild): from dist/studio
 * when pith runs from its bundle (scripts/build.mjs builds it with the CLI), else built in memory
 * at start from the sources, with the same esbuild options. Nothing is fetched at run time.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BUNDLED, PITH_ROOT } from "../paths.ts";

/** The UI's files by name ("app.js", "app.css"). */
export type UiFiles = Map<string, Uint8Array>;

const NAMES = ["app.js", "app.css"];

interface BuildScript {
  studioUiOptions(): Record<string, unknown>;
}

export async function uiFiles(): Promise<UiFiles> {
  const dist = join(PITH_ROOT, "dist", "studio");
  if (BUNDLED && NAMES.every((n) => existsSync(join(dist, n))))
    return new Map(NAMES.map((n) => [n, readFileSync(join(dist, n))]));
  const script = (await import(pathToFileURL(join(PITH_ROOT, "scripts", "build.mjs")).href)) as BuildScript;
  const esbuild = await import("esbuild");
  const result = await esbuild.build({ ...script.studioUiOptions(), outdir: "/studio", write: false });
  return new Map(result.outputFiles.map((f) => [f.path.slice(f.path.lastIndexOf("/") + 1), f.contents]));
}
