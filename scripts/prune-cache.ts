/**
 * Removes training-cache folders this pith no longer reads (src/train/prune.ts): feature tables
 * of other feature schemas and Chromium snapshots of other renderer versions.
 *
 * Usage: npm run cache:prune -- [--dry-run]
 */
import { pruneCaches } from "../src/train/prune.ts";
import { scriptArgs } from "./args.ts";

const USAGE =
  "Usage: npm run cache:prune -- [--dry-run]\n\nRemoves data/cache (or $PITH_CACHE) folders of other feature schemas and renderer versions.";
const values = scriptArgs(USAGE, { "dry-run": { type: "boolean" } });
const dryRun = values["dry-run"] === true;
const result = pruneCaches({ dryRun });
const mb = (b: number): string => `${(b / 1e6).toFixed(0)} MB`;
for (const r of result.removed)
  process.stdout.write(`${dryRun ? "would remove" : "removed"}\t${r.path}\t${mb(r.bytes)}\n`);
for (const k of result.kept) process.stdout.write(`kept\t${k}\n`);
const total = result.removed.reduce((a, r) => a + r.bytes, 0);
process.stdout.write(
  `${dryRun ? "would free" : "freed"} ${mb(total)} in ${result.removed.length} folder(s)\n`,
);
