/**
 * The studio's Teach run (src/studio/teach-job.ts: its worker thread, leave-pages-out folds, the
 * final fit) on hosts of a labeled set, one after another, as the "Train site model" button runs
 * it: prints each host's labeled pages, folds, held-out word F1 before and after, and the run's
 * wall time. Models go to a temporary --model-dir, so models/ is left alone.
 *
 *   npm run bench:teach -- --data DIR --hosts A,B [--model FILE] [--mode static|chromium]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTeach, type TeachStatus } from "../src/studio/teach-job.ts";
import type { TeachRequest } from "../src/studio/teach.ts";
import { scriptArgs, usageError } from "./args.ts";

const USAGE = `Usage: npm run bench:teach -- --data DIR --hosts A,B [--model FILE] [--mode static|chromium]

Runs pith studio's Teach (per-domain training, held-out F1 before/after, leave-pages-out) on each
host of the labeled set DIR, with FILE as the model pith uses without a domain model (default the
bundled one), and prints a Markdown table.`;

const values = scriptArgs(USAGE, {
  data: { type: "string" },
  hosts: { type: "string" },
  model: { type: "string" },
  mode: { type: "string" },
});
if (!values.data || !values.hosts) usageError(USAGE, "--data and --hosts are needed");
const mode = values.mode ?? "static";
if (mode !== "static" && mode !== "chromium") usageError(USAGE, "--mode must be static or chromium");

function teachOnce(request: TeachRequest): Promise<TeachStatus> {
  return new Promise((resolve) => startTeach(request, resolve));
}

const modelDir = mkdtempSync(join(tmpdir(), "pith-bench-teach-"));
process.stdout.write(
  "| host | labeled pages | folds | F1 before | F1 after | lift | Teach run |\n|---|---:|---:|---:|---:|---:|---:|\n",
);
try {
  for (const host of values.hosts.split(",")) {
    const status = await teachOnce({
      dir: values.data,
      host,
      mode,
      modelDir,
      ...(values.model ? { model: values.model } : {}),
    });
    const r = status.result;
    process.stdout.write(
      r
        ? `| ${host} | ${r.pages} | ${r.folds} | ${r.before.toFixed(3)} | ${r.after.toFixed(3)} | ` +
            `${(r.after - r.before >= 0 ? "+" : "") + (r.after - r.before).toFixed(3)} | ${r.seconds.toFixed(1)} s |\n`
        : `| ${host} | failed: ${status.error} | | | | | |\n`,
    );
  }
} finally {
  rmSync(modelDir, { recursive: true, force: true });
}
