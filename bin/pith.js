#!/usr/bin/env node
// Runs pith: from the bundle in dist/ while it is newer than every source file
// (scripts/build.mjs, run by `npm install`), else from the TypeScript sources through tsx's
// loader (after an edit, until `npm run build`). PITH_SOURCES=1 always runs the sources.
import { readFileSync } from "node:fs";
import { sourceStamp } from "../scripts/build.mjs";

function bundleIsFresh() {
  if (process.env.PITH_SOURCES) return false;
  let built;
  try {
    built = JSON.parse(readFileSync(new URL("../dist/source-stamp.json", import.meta.url), "utf8"));
  } catch {
    return false; // no bundle
  }
  const now = sourceStamp();
  return built.newest === now.newest && built.files === now.files;
}

if (bundleIsFresh()) {
  await import("../dist/cli/main.js");
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
