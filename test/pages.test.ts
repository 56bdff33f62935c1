/**
 * The regression corpus (issue 43, item 7): every folder under test/pages/ is a case, a cut-down
 * real page (source.html) with pith's outputs on it (expected.txt, expected.md, expected.json;
 * see test/pages-harness.ts). Each output must come out byte for byte; a missing expected file
 * fails (this test never writes a baseline). After an intended change of outputs:
 *
 *   npm run test:pages -- --update      (or PITH_UPDATE_PAGES=1 npm run test:pages)
 *
 * and review the diff. New cases: npm run new-test-page -- <file-or-URL> --slug <kind>-<name>.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  caseOutputs,
  EXPECTED_FILES,
  isComplete,
  lineDiff,
  listCases,
  PAGES_DIR,
  reduceJson,
  SOURCE_FILE,
  type ExpectedKind,
} from "./pages-harness.ts";
import { pith } from "./helpers.ts";

/** Fewer complete cases than this means cases were lost. */
const MIN_CASES = 40;
const UPDATE_HINT = "after an intended change of outputs: npm run test:pages -- --update";

const cases = listCases();

test(`test/pages holds at least ${MIN_CASES} complete cases`, () => {
  const complete = cases.filter((c) => isComplete(join(PAGES_DIR, c)));
  assert.ok(
    complete.length >= MIN_CASES,
    `${complete.length} complete case(s) in ${PAGES_DIR} (a case has ${SOURCE_FILE} and ${Object.values(EXPECTED_FILES).join(", ")})`,
  );
});

for (const slug of cases) {
  test(`page ${slug}`, async () => {
    const dir = join(PAGES_DIR, slug);
    assert.ok(existsSync(join(dir, SOURCE_FILE)), `${slug}: no ${SOURCE_FILE}`);
    const missing = Object.values(EXPECTED_FILES).filter((f) => !existsSync(join(dir, f)));
    assert.deepEqual(
      missing,
      [],
      `${slug}: missing ${missing.join(", ")}; make them with npm run test:pages -- --update`,
    );
    const actual = await caseOutputs(dir);
    const failures: string[] = [];
    for (const kind of Object.keys(EXPECTED_FILES) as ExpectedKind[]) {
      const expected = readFileSync(join(dir, EXPECTED_FILES[kind]), "utf8");
      if (actual[kind] !== expected)
        failures.push(`${slug}/${EXPECTED_FILES[kind]}: ${lineDiff(expected, actual[kind])}`);
    }
    assert.ok(failures.length === 0, `${failures.join("\n\n")}\n\n${UPDATE_HINT}`);
  });
}

test("the in-process outputs are what `pith extract` prints (one case, markdown and json)", async () => {
  const slug = cases.find((c) => isComplete(join(PAGES_DIR, c)));
  assert.ok(slug, "no complete case");
  const dir = join(PAGES_DIR, slug);
  const source = join(dir, SOURCE_FILE);
  const [md, json] = await Promise.all([
    pith(["extract", source, "--format", "markdown"]),
    pith(["extract", source, "--format", "json"]),
  ]);
  assert.equal(md.status, 0, md.stderr);
  assert.equal(json.status, 0, json.stderr);
  assert.equal(
    md.stdout,
    readFileSync(join(dir, EXPECTED_FILES.markdown), "utf8"),
    `${slug}: the CLI's markdown differs from expected.md`,
  );
  assert.equal(
    JSON.stringify(reduceJson(JSON.parse(json.stdout)), null, 2) + "\n",
    readFileSync(join(dir, EXPECTED_FILES.json), "utf8"),
    `${slug}: the CLI's JSON differs from expected.json`,
  );
});
