/**
 * npm run test:pages                    runs test/pages.test.ts (the regression corpus)
 * npm run test:pages -- --update [SLUG...]
 * PITH_UPDATE_PAGES=1 npm run test:pages [-- SLUG...]
 *                                       rewrites expected.txt / .md / .json of every case (or the
 *                                       named ones) from pith's current outputs, with the code
 *                                       path the test uses (test/pages-harness.ts), and says which
 *                                       files changed. Review the diff before committing it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  caseOutputs,
  EXPECTED_FILES,
  listCases,
  PAGES_DIR,
  SOURCE_FILE,
  type ExpectedKind,
} from "../test/pages-harness.ts";

const HELP = `Usage: npm run test:pages [-- --update [SLUG...]]

Without --update: runs test/pages.test.ts, which compares pith's outputs on every
test/pages/<slug>/source.html with its expected.txt, expected.md and expected.json.
With --update (or env PITH_UPDATE_PAGES=1): rewrites those expected files from pith's current
outputs, for every case or the SLUGs named, and lists what changed.`;

async function update(slugs: string[]): Promise<number> {
  const all = listCases();
  const unknown = slugs.filter((s) => !all.includes(s));
  if (unknown.length) {
    process.stderr.write(
      `test:pages: no case ${unknown.join(", ")} in ${relative(process.cwd(), PAGES_DIR)}\n`,
    );
    return 2;
  }
  let changed = 0;
  for (const slug of slugs.length ? slugs : all) {
    const dir = join(PAGES_DIR, slug);
    if (!existsSync(join(dir, SOURCE_FILE))) {
      process.stderr.write(`test:pages: ${slug} has no ${SOURCE_FILE}, skipped\n`);
      continue;
    }
    const outputs = await caseOutputs(dir);
    for (const kind of Object.keys(EXPECTED_FILES) as ExpectedKind[]) {
      const file = join(dir, EXPECTED_FILES[kind]);
      const before = existsSync(file) ? readFileSync(file, "utf8") : null;
      if (before === outputs[kind]) continue;
      writeFileSync(file, outputs[kind]);
      changed++;
      process.stdout.write(`${before === null ? "created" : "updated"} ${relative(process.cwd(), file)}\n`);
    }
  }
  process.stdout.write(`${changed} file(s) written, ${slugs.length || all.length} case(s) checked\n`);
  return 0;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { update: { type: "boolean" }, help: { type: "boolean", short: "h" } },
});
if (values.help) {
  process.stdout.write(HELP + "\n");
} else if (values.update || process.env["PITH_UPDATE_PAGES"] === "1") {
  process.exitCode = await update(positionals);
} else {
  if (positionals.length)
    process.stderr.write("test:pages: case names apply to --update; running the whole test\n");
  const root = resolve(import.meta.dirname, "..");
  const run = spawnSync(process.execPath, ["--import", "tsx", "--test", "test/pages.test.ts"], {
    cwd: root,
    stdio: "inherit",
  });
  process.exitCode = run.status ?? 1;
}
