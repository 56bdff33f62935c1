/**
 * `npm run notebooks`: a notebook executed headless by Jupyter with the tslab kernel on
 * data/sample, its plot in the written file; one-line errors for a missing Jupyter, a bad set
 * and an unknown notebook. Needs Jupyter (scripts/install-jupyter.sh; CI installs it): without it
 * the execution tests are skipped locally and fail on CI.
 */
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const SCRIPT = join(ROOT, "scripts", "notebooks.ts");

function run(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(process.execPath, ["--import", "tsx", SCRIPT, ...args], {
    cwd: ROOT,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: r.status, stderr: r.stderr };
}

interface Output {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
}
interface Notebook {
  cells: { cell_type: string; outputs?: Output[] }[];
}
const joined = (v: string | string[] | undefined): string => (Array.isArray(v) ? v.join("") : (v ?? ""));

const jupyterMissing = (stderr: string): boolean => /Jupyter is not installed/.test(stderr);

describe("npm run notebooks", () => {
  let out = "";
  before(() => void (out = mkdtempSync(join(tmpdir(), "pith-notebooks-"))));
  after(() => rmSync(out, { recursive: true, force: true }));

  it("executes a notebook on data/sample headless and writes its outputs and plots", (t) => {
    const source = join(ROOT, "notebooks", "precision-recall.ipynb");
    const before = statSync(source).mtimeMs;
    const r = run(["--only", "precision-recall", "--data", "sample", "--out", out]);
    if (r.code === 3 && jupyterMissing(r.stderr) && !process.env["CI"]) return t.skip(r.stderr.trim());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /precision-recall\.ipynb ran in/);
    const nb = JSON.parse(readFileSync(join(out, "precision-recall.ipynb"), "utf8")) as Notebook;
    const outputs = nb.cells.flatMap((c) => c.outputs ?? []);
    assert.equal(outputs.filter((o) => o.output_type === "error").length, 0);
    const stderr = outputs.filter((o) => o.name === "stderr").map((o) => joined(o.text));
    assert.ok(!stderr.some((s) => /Error\b.*:/.test(s)), stderr.join("\n"));
    // the set it was told to read, every page of it, scored by each method
    const printed = outputs.map((o) => joined(o.text)).join("");
    assert.match(printed, /sets: sample \(from \$PITH_NOTEBOOK_DATA\)/);
    const pages = readFileSync(join(ROOT, "data", "sample", "index.jsonl"), "utf8")
      .trim()
      .split("\n").length;
    const tables = outputs.map((o) => joined(o.data?.["text/markdown"])).join("\n");
    assert.match(tables, new RegExp(`\\| sample \\| ml \\| ${pages} \\|`));
    // Vega-Lite plots rendered to SVG, with their marks: one point per page and method
    const svgs = outputs.map((o) => joined(o.data?.["image/svg+xml"])).filter(Boolean);
    assert.ok(svgs.length >= 2, `${svgs.length} plots`);
    assert.ok(svgs.every((s) => s.startsWith("<svg")));
    const points = svgs[0]!.match(/aria-roledescription="point"/g)?.length ?? 0;
    assert.ok(points >= pages && points % pages === 0, `${points} points for ${pages} pages`);
    assert.equal(statSync(source).mtimeMs, before, "--out leaves the notebook in notebooks/ as it was");
  });

  it("a cell that fails is one line naming the cell and the error, exit 1", (t) => {
    const r = run(["--only", "precision-recall", "--data", "no-such-set", "--out", out]);
    if (r.code === 3 && jupyterMissing(r.stderr) && !process.env["CI"]) return t.skip(r.stderr.trim());
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /^notebooks: precision-recall\.ipynb failed: cell \d+: DatasetError: no dataset "no-such-set"/,
    );
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  });

  it("without Jupyter on PATH: one line with the install command, exit 3", () => {
    const r = run([], { ...process.env, PATH: "" });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /^notebooks: Jupyter is not installed .*bash scripts\/install-jupyter\.sh/);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  });

  it("an unknown notebook is a usage error naming the known ones", () => {
    const r = run(["--only", "no-such-notebook"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no notebook "no-such-notebook" \(known: .*precision-recall/);
  });
});
