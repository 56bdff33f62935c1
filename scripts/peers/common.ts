/**
 * What the peer CLIs (readability-cli.ts, defuddle-cli.ts) share: read every page of a directory
 * (.html, .htm, .html.gz; recursive, symlinks followed), gunzip and decode it, parse it with
 * linkedom the way src/evaluate/peers.ts does for `pith evaluate` (the styleSheets and
 * getComputedStyle polyfills of defuddle's Node entry, document.URL set), run the peer and write
 * its text to OUT/<path without extension>.txt, as `pith extract DIR --out OUT --format text`
 * names its files. They are standalone on purpose (from src/ only the import-free
 * linkedom-shims.ts): `npm run bench:cli` times them as a user would run a peer, one fresh Node
 * process per batch.
 *
 * Decoding: the charset of a <meta charset> / http-equiv in the first 2 KB when TextDecoder knows
 * it, else UTF-8 (pith sniffs more; on wcxb-dev nearly every page is UTF-8).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { parseHTML } from "linkedom";
import { applyBrowserShims } from "../../src/evaluate/linkedom-shims.ts";

const PAGE = /\.(html?|html?\.gz)$/i;
const CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i;

/** The pages under `dir`, sorted by path. */
export function pagesIn(dir: string): string[] {
  const names = readdirSync(dir, { recursive: true, encoding: "utf8" });
  return names
    .filter((n) => PAGE.test(n) && statSync(join(dir, n)).isFile())
    .sort()
    .map((n) => join(dir, n));
}

/** The page's text: gunzipped when it ends in .gz, decoded by its declared charset or as UTF-8. */
export function readPage(file: string): string {
  let bytes: Buffer = readFileSync(file);
  if (file.endsWith(".gz")) bytes = gunzipSync(bytes);
  const declared = CHARSET.exec(bytes.subarray(0, 2048).toString("latin1"))?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared ?? "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes);
}

/** A linkedom document of `html` with the polyfills src/evaluate/peers.ts applies. */
export function linkedomDocument(html: string, url = "about:blank"): Document {
  const { document } = parseHTML(html);
  applyBrowserShims(document, url);
  return document as unknown as Document;
}

/** Runs `fn` with console output muted (defuddle logs every bad JSON-LD block). */
export function quietly<T>(fn: () => T): T {
  const saved = { error: console.error, warn: console.warn, log: console.log };
  console.error = console.warn = console.log = () => {};
  try {
    return fn();
  } finally {
    Object.assign(console, saved);
  }
}

/**
 * The CLI: `<name> DIR --out OUT`. Runs `extract` (the page's HTML → its text) on every page of
 * DIR, writes the non-empty texts and prints a count on stderr; exits 1 when some pages failed,
 * 2 on a usage error.
 */
export function peerCli(name: string, extract: (html: string) => string): void {
  const usage = `Usage: node --import tsx scripts/peers/${name}-cli.ts DIR --out OUT\n\nWrites ${name}'s text of every page (.html, .html.gz) under DIR to OUT/<path without extension>.txt.\n`;
  let dir: string;
  let out: string;
  try {
    const { values, positionals } = parseArgs({
      options: { out: { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
    });
    if (values.help) {
      process.stdout.write(usage);
      process.exit(0);
    }
    if (positionals.length !== 1 || !values.out) throw new Error("one DIR and --out OUT are needed");
    dir = positionals[0] as string;
    out = values.out;
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  let written = 0;
  let empty = 0;
  let errors = 0;
  for (const file of pagesIn(dir)) {
    try {
      const text = extract(readPage(file)).trim();
      if (!text) {
        empty++;
        continue;
      }
      const target = join(out, relative(dir, file).replace(PAGE, "") + ".txt");
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text + "\n");
      written++;
    } catch (e) {
      errors++;
      process.stderr.write(`${file}: ${String((e as Error)?.message ?? e).split("\n")[0]}\n`);
    }
  }
  process.stderr.write(`${name}: ${written} page(s) written, ${empty} empty, ${errors} error(s)\n`);
  process.exitCode = errors ? 1 : 0;
}
