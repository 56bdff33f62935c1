#!/usr/bin/env node
// Runs pith: from the bundle in dist/ while it is newer than every source file
// (scripts/build.mjs, run by `npm install`), else from the TypeScript sources through tsx's
// loader (after an edit, until `npm run build`). PITH_SOURCES=1 always runs the sources.
import { importPith } from "../scripts/build.mjs";

await importPith("cli/main");
