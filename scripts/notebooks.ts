/**
 * `npm run notebooks`: executes notebooks/*.ipynb headless with Jupyter's nbclient and the tslab
 * TypeScript kernel, writing their outputs into the files (or into --out). The kernel is
 * registered for this run only (`tslab install --prefix` into a temporary folder that
 * JUPYTER_PATH points at), so nothing is written to ~/.local/share/jupyter or /usr/share/jupyter.
 * `--serve` opens the notebooks in Jupyter Notebook with the same registration.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, join, resolve } from "node:path";
import { EXIT } from "../src/cli/command.ts";
import { progress } from "../src/batch/progress.ts";
import { exitOnSignals } from "../src/exit-on-signal.ts";
import { PITH_ROOT } from "../src/paths.ts";
import { intOption, scriptArgs, usageError } from "./args.ts";

/** Seconds a cell may run before nbclient stops the notebook (each notebook takes well under two minutes). */
const CELL_TIMEOUT_S = 600;

const USAGE = `Usage: npm run notebooks -- [--only NAMES] [--data SETS] [--out DIR] [--serve]

Execute notebooks/*.ipynb headless (Jupyter's nbclient, tslab's TypeScript kernel) and write
their outputs into them. Needs Jupyter (bash scripts/install-jupyter.sh) and the npm
devDependency tslab; the kernel is registered for the run only, in a temporary folder.

Options:
  --only NAMES   comma-separated notebooks to run (file names without .ipynb; default all)
  --data SETS    labeled sets the notebooks read instead of their DATA parameter
                 (sets PITH_NOTEBOOK_DATA; names as pith evaluate --data takes, or folders)
  --out DIR      write the executed notebooks into DIR instead of in place
  --timeout S    seconds a cell may run (default ${CELL_TIMEOUT_S})
  --serve        open the notebooks in Jupyter Notebook instead (the tslab kernel registered
                 the same way); stop it with Ctrl-C
  -h, --help     this help

Exit codes: 0 every notebook ran, 1 a cell failed (its error on one line), 2 usage error,
3 Jupyter or the tslab kernel is missing.`;

const NOTEBOOK_DIR = join(PITH_ROOT, "notebooks");
const TSLAB = join(PITH_ROOT, "node_modules", ".bin", "tslab");
const RUNNER = join(PITH_ROOT, "scripts", "run-notebook.py");
const INSTALL_HINT =
  "run `bash scripts/install-jupyter.sh` (Debian/Ubuntu: sudo apt-get install jupyter-nbconvert python3-nbclient)";

/** Missing Jupyter or kernel: one line, exit 3 (like a missing browser for --mode chromium). */
function fatal(message: string): never {
  process.stderr.write(`notebooks: ${message}\n`);
  process.exit(EXIT.fatal);
}

/** `name` in a folder of $PATH, or undefined. */
function onPath(name: string): string | undefined {
  return (process.env["PATH"] ?? "")
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find((f) => existsSync(f));
}

/**
 * The Python that has Jupyter's nbclient and jupyter_client (tslab's installer needs them): the
 * one `jupyter` runs with (its shebang; a pyenv or venv python3 may come first on PATH), else python3.
 */
function jupyterPython(): string {
  const jupyter = onPath("jupyter");
  const shebang = jupyter ? (readFileSync(jupyter, "utf8").split("\n", 1)[0] ?? "") : "";
  const candidates = [/^#!\s*(\S*python[\d.]*)\s*$/.exec(shebang)?.[1], onPath("python3")];
  const python = candidates.find(
    (py) => py && spawnSync(py, ["-c", "import nbclient, nbformat, jupyter_client"]).status === 0,
  );
  return python ?? fatal(`Jupyter is not installed (no python3 with nbclient on PATH): ${INSTALL_HINT}`);
}

/** Registers tslab's kernels under a temporary prefix; returns the folder for JUPYTER_PATH. */
function registerKernel(python: string): { jupyterPath: string; cleanup: () => void } {
  if (!existsSync(TSLAB)) fatal("the tslab kernel is not installed: run `npm ci` (tslab is a devDependency)");
  const prefix = mkdtempSync(join(tmpdir(), "pith-jupyter-"));
  const cleanup = (): void => rmSync(prefix, { recursive: true, force: true });
  const r = spawnSync(TSLAB, ["install", `--prefix=${prefix}`, `--python=${python}`, `--binary=${TSLAB}`], {
    encoding: "utf8",
  });
  if (r.status !== 0) {
    cleanup();
    const why = `${r.stderr ?? ""}`.trim().split("\n").pop() || String(r.error?.message ?? "failed");
    fatal(`could not register the tslab kernel with ${python}: ${why}: ${INSTALL_HINT}`);
  }
  return { jupyterPath: join(prefix, "share", "jupyter"), cleanup };
}

/** The notebooks to run, by --only or all of notebooks/. */
function notebooks(only: string | undefined): string[] {
  const all = readdirSync(NOTEBOOK_DIR)
    .filter((f) => f.endsWith(".ipynb"))
    .sort();
  if (!only) return all.map((f) => join(NOTEBOOK_DIR, f));
  return only.split(",").map((name) => {
    const file = name.endsWith(".ipynb") ? name : `${name}.ipynb`;
    if (!all.includes(file))
      usageError(USAGE, `no notebook "${name}" (known: ${all.map((f) => basename(f, ".ipynb")).join(", ")})`);
    return join(NOTEBOOK_DIR, file);
  });
}

interface RunOptions {
  python: string;
  env: NodeJS.ProcessEnv;
  out: string | undefined;
  timeout: number;
}

/** The notebook running now: interrupted, its runner gets SIGINT and shuts its kernel down. */
let running: ChildProcess | null = null;
process.once("exit", () => running?.kill("SIGINT"));

/** Runs one notebook with scripts/run-notebook.py (nbclient); a failed cell is one line. */
function execute(file: string, o: RunOptions): Promise<{ ok: boolean; error: string; seconds: number }> {
  const dest = join(o.out ?? NOTEBOOK_DIR, basename(file));
  const t0 = performance.now();
  return new Promise((done) => {
    const child = spawn(o.python, [RUNNER, file, dest, String(o.timeout)], {
      env: o.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    running = child;
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.on("error", (e) => done({ ok: false, error: e.message, seconds: 0 }));
    child.on("close", (code) => {
      running = null;
      const error = stderr.trim().split("\n").pop() || `exit ${code}`;
      done({ ok: code === 0, error: code === 0 ? "" : error, seconds: (performance.now() - t0) / 1000 });
    });
  });
}

async function main(): Promise<void> {
  const v = scriptArgs(USAGE, {
    only: { type: "string" },
    data: { type: "string" },
    out: { type: "string" },
    timeout: { type: "string" },
    serve: { type: "boolean" },
  });
  const timeout = intOption(USAGE, "timeout", v.timeout, CELL_TIMEOUT_S);
  const files = notebooks(v.only);
  const python = jupyterPython();
  const kernel = registerKernel(python);
  process.once("exit", kernel.cleanup);
  exitOnSignals(); // Ctrl-C still removes the temporary kernel folder
  const env = {
    ...process.env,
    JUPYTER_PATH: [kernel.jupyterPath, process.env["JUPYTER_PATH"]].filter(Boolean).join(delimiter),
    ...(v.data ? { PITH_NOTEBOOK_DATA: v.data } : {}),
  };
  if (v.serve) {
    // Jupyter refuses to run as root without --allow-root (containers, CI images)
    const root = process.getuid?.() === 0 ? ["--allow-root"] : [];
    const server = spawn("jupyter", ["notebook", ...root, NOTEBOOK_DIR], { env, stdio: "inherit" });
    server.on("error", (e) => fatal(`could not start Jupyter Notebook (${e.message}): ${INSTALL_HINT}`));
    server.on("close", (code) => process.exit(code ?? EXIT.ok));
    return;
  }
  const out = v.out ? resolve(v.out) : undefined;
  if (out) mkdirSync(out, { recursive: true });
  const bar = progress("notebooks", files.length);
  let failed = 0;
  for (const file of files) {
    const name = basename(file);
    const r = await execute(file, { python, env, out, timeout });
    if (r.ok) bar.note(`notebooks: ${name} ran in ${r.seconds.toFixed(1)} s`);
    else (failed++, bar.note(`notebooks: ${name} failed: ${r.error}`));
    bar.tick(name);
  }
  bar.stop();
  process.exit(failed ? EXIT.pageErrors : EXIT.ok);
}

await main();
