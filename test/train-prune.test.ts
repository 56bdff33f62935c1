/** `npm run cache:prune` (src/train/prune.ts): old feature-schema and renderer folders go, the current ones stay. */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import { featureSchema } from "../src/features/index.ts";
import { pruneCaches } from "../src/train/prune.ts";
import { snapshotKey } from "../src/train/snapshot-cache.ts";
import { tempDir } from "./helpers.ts";

function folder(path: string, bytes: number): string {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, "data.bin"), Buffer.alloc(bytes));
  return path;
}

test("cache prune: folders of other feature schemas and renderer keys are removed (sizes reported), the current ones kept; --dry-run removes nothing", () => {
  const root = tempDir("pith-cache-");
  const current = folder(join(root, featureSchema().hash, "static"), 10);
  const old = folder(join(root, "0123456789abcdef", "static"), 1000);
  const snapNow = folder(join(root, "snapshots", "chromium", snapshotKey(), "wcxb-dev"), 10);
  const snapOld = folder(join(root, "snapshots", "chromium", "000000000000", "wcxb-dev"), 500);

  const dry = pruneCaches({ root, dryRun: true });
  assert.deepEqual(
    dry.removed.map((r) => [r.path, r.bytes]).sort(),
    [
      [join(root, "0123456789abcdef"), 1000],
      [join(root, "snapshots", "chromium", "000000000000"), 500],
    ].sort(),
  );
  assert.ok(existsSync(old) && existsSync(snapOld), "a dry run removes nothing");

  pruneCaches({ root });
  assert.ok(!existsSync(old) && !existsSync(snapOld));
  assert.ok(existsSync(current) && existsSync(snapNow));
});
