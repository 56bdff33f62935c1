/**
 * npm run new-test-page -- <file-or-URL> [--slug NAME] [--force]
 *
 * Makes a regression case test/pages/<slug>/ from a saved page (.html or .html.gz) or a URL
 * (fetched over the network only then): cuts it down with scripts/cut-page.ts, writes
 * source.html, and generates expected.txt / expected.md / expected.json with the code path the
 * test uses (test/pages-harness.ts). Refuses to overwrite an existing case without --force.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { cutPage, DEFAULT_TARGET_BYTES, MAX_FIXTURE_BYTES } from "./cut-page.ts";
import { caseOutputs, EXPECTED_FILES, PAGES_DIR, SOURCE_FILE } from "../test/pages-harness.ts";

const HELP = `Usage: npm run new-test-page -- <file-or-URL> [--slug NAME] [--force]

Makes a regression case test/pages/<slug>/ for test/pages.test.ts from a page:
  - a local file (.html, .htm or .html.gz; read from disk, no network), or
  - an http(s) URL (fetched once over the network).
The page is cut down (scripts/cut-page.ts: no script/style bodies, SVG drawing, comments or
data: URIs, few attributes, long runs of list items / table rows / posts truncated, long text
trimmed) to source.html, and pith's current outputs on it are written as expected.txt,
expected.md and expected.json. Review them: they are what the test will hold pith to.

Options:
  --slug NAME    folder name, <kind>-<short-descriptive-name> (e.g. article-bbc-budget,
                 forum-phpbb-wifi, product-shoe, table-nobel-laureates); default: page-<file or host name>
  --source TEXT  what the <!-- source: ... --> comment names (default: the dataset page
                 <set>/<id> for a file under a data/<set>/html/ folder, else the file name or URL)
  --force        replace an existing case of that slug
  -h, --help     this help`;

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)+$/;

/** What the source comment names: "<set>/<id>" for a labeled set's page, else the file name or URL. */
export function sourceLabel(input: string): string {
  const m = /(?:^|\/)([^/]+)\/html\/([^/]+?)\.html?(?:\.gz)?$/.exec(input);
  if (m) return `${m[1]}/${m[2]}`;
  return /^https?:\/\//i.test(input) ? input : basename(input);
}

function defaultSlug(input: string): string {
  const name = /^https?:\/\//i.test(input)
    ? new URL(input).hostname.replace(/^www\./, "")
    : basename(input).replace(/\.(x?html?|htm)(\.gz)?$/i, "");
  return `page-${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}`;
}

async function readBytes(input: string): Promise<{ bytes: Uint8Array; charset: string | null }> {
  if (/^https?:\/\//i.test(input)) {
    const res = await fetch(input, { redirect: "follow", signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`${input}: HTTP ${res.status}`);
    const charset = /charset\s*=\s*["']?([\w.:-]+)/i.exec(res.headers.get("content-type") ?? "")?.[1] ?? null;
    return { bytes: new Uint8Array(await res.arrayBuffer()), charset };
  }
  if (!existsSync(input) || !statSync(input).isFile()) throw new Error(`${input}: no such file`);
  return { bytes: readFileSync(input), charset: null };
}

export interface NewCase {
  slug: string;
  dir: string;
  files: { name: string; bytes: number }[];
}

/** Cuts `input` down into test/pages/<slug>/ and writes its expected outputs. */
export async function newTestPage(
  input: string,
  options: { slug?: string; force?: boolean; source?: string; pagesDir?: string } = {},
): Promise<NewCase> {
  const slug = options.slug ?? defaultSlug(input);
  if (!SLUG.test(slug)) throw new Error(`slug "${slug}": use lowercase words joined by "-", <kind>-<name>`);
  const dir = join(options.pagesDir ?? PAGES_DIR, slug);
  if (existsSync(dir)) {
    if (!options.force) throw new Error(`${relative(process.cwd(), dir)} exists: pass --force to replace it`);
    rmSync(dir, { recursive: true, force: true });
  }
  const { bytes, charset } = await readBytes(input);
  const html = cutPage(bytes, {
    source: `${options.source ?? sourceLabel(input)}, cut down`,
    targetBytes: DEFAULT_TARGET_BYTES,
    httpCharset: charset,
  });
  const size = Buffer.byteLength(html);
  if (size > MAX_FIXTURE_BYTES)
    throw new Error(
      `${input}: still ${size} bytes after the tightest cut (at most ${MAX_FIXTURE_BYTES}): choose a smaller page`,
    );
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, SOURCE_FILE), html);
    const outputs = await caseOutputs(dir);
    for (const kind of Object.keys(EXPECTED_FILES) as (keyof typeof EXPECTED_FILES)[])
      writeFileSync(join(dir, EXPECTED_FILES[kind]), outputs[kind]);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true }); // no half-made case for the test to trip on
    throw e;
  }
  const files = [SOURCE_FILE, ...Object.values(EXPECTED_FILES)].map((name) => ({
    name,
    bytes: statSync(join(dir, name)).size,
  }));
  return { slug, dir, files };
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        slug: { type: "string" },
        source: { type: "string" },
        force: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    process.stderr.write(`new-test-page: ${(e as Error).message}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  if (positionals.length !== 1) {
    process.stderr.write(`new-test-page: give one file or URL (--help for usage)\n`);
    return 2;
  }
  const input = positionals[0] as string;
  try {
    const made = await newTestPage(/^https?:\/\//i.test(input) ? input : resolve(input), {
      ...(values.slug ? { slug: values.slug } : {}),
      ...(values.source ? { source: values.source } : {}),
      ...(values.force ? { force: true } : {}),
    });
    process.stdout.write(`wrote ${relative(process.cwd(), made.dir)}/\n`);
    for (const f of made.files) process.stdout.write(`  ${f.name.padEnd(14)} ${f.bytes} bytes\n`);
    const text = readFileSync(join(made.dir, EXPECTED_FILES.text), "utf8");
    if (!text.trim())
      process.stdout.write("warning: pith extracts no text from the cut-down page; is it a useful case?\n");
    return 0;
  } catch (e) {
    process.stderr.write(`new-test-page: ${(e as Error).message}\n`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  process.exitCode = await main(process.argv.slice(2));
