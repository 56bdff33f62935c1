/**
 * The size rules of pith's code (`npm run check:units`, part of `npm test`'s check step): no
 * function in src/ over MAX_FUNCTION_LINES lines or with more than MAX_PARAMETERS parameters
 * (pass a named object instead), and at most MAX_LONG_LINES source lines over LONG_LINE
 * characters (long literals the formatter cannot break). Prints each offender; exit 1 when any.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const MAX_FUNCTION_LINES = 60;
const MAX_PARAMETERS = 6;
const LONG_LINE = 120;
const MAX_LONG_LINES = 20;

const ROOT = resolve(import.meta.dirname, "..");

/** Every .ts and .tsx file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** A function's name for the report: its own, or the variable or property it is assigned to. */
function nameOf(fn: ts.SignatureDeclaration): string {
  if (fn.name) return fn.name.getText();
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return "(anonymous)";
}

/** The functions of one file that break the size rules, one line each. */
function offenders(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const where = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const lines = source.getLineAndCharacterOfPosition(node.end).line + 2 - where(node);
      const at = `${relative(ROOT, file)}:${where(node)} ${nameOf(node)}`;
      if (lines > MAX_FUNCTION_LINES) out.push(`${at}: ${lines} lines (at most ${MAX_FUNCTION_LINES})`);
      if (node.parameters.length > MAX_PARAMETERS)
        out.push(`${at}: ${node.parameters.length} parameters (at most ${MAX_PARAMETERS})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const files = sources(join(ROOT, "src"));
const problems = files.flatMap(offenders);
const long = files.flatMap((f) =>
  readFileSync(f, "utf8")
    .split("\n")
    .flatMap((line, i) => (line.length > LONG_LINE ? [`${relative(ROOT, f)}:${i + 1}`] : [])),
);
if (long.length > MAX_LONG_LINES)
  problems.push(
    `${long.length} lines over ${LONG_LINE} characters (at most ${MAX_LONG_LINES}): ${long.join(", ")}`,
  );
for (const p of problems) process.stderr.write(`${p}\n`);
process.stdout.write(
  `check:units: ${files.length} files, ${problems.length} problem(s), ${long.length} long line(s)\n`,
);
process.exit(problems.length ? 1 : 0);
