/**
 * Rebuilds data/sample/ (layout in data/README.md) from pages of the shared labeled sets: each page
 * is cut down with scripts/cut-page.ts (the function `node --import tsx scripts/cut-page.ts PAGE
 * --source LABEL` runs), and its gold is made to match the cut page: a gold line is kept when its
 * words still occur, in order, in the cut page's text; a line the cutter trimmed keeps the part
 * that survived (at least MIN_PREFIX_WORDS words), the rest is dropped. Snippets are kept when
 * they still apply (`with`: in the kept gold; `without`: still on the page).
 *
 *   node --import tsx scripts/make-sample.ts [--from DIR] [--out data/sample] [--target BYTES]
 *
 * --from is the folder holding the shared sets (default $PITH_DATA, else ../shared/data). The
 * sample's README.md is written by hand and left as it is.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { cutPage } from "./cut-page.ts";
import { intOption, scriptArgs } from "./args.ts";
import { dataDir } from "../src/io/dataset.ts";
import { PITH_ROOT } from "../src/paths.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { revealMarkupHidden } from "../src/pipeline/hidden-text.ts";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";

const USAGE = `Usage: node --import tsx scripts/make-sample.ts [--from DIR] [--out DIR] [--target BYTES]

Rebuilds the small labeled set data/sample/ from the shared sets (pages cut down, gold matched
to the cut pages). --from: the folder holding the shared sets (default $PITH_DATA, else
../shared/data); --out: default data/sample; --target: the cutter's size goal per page (default 30000).`;

/** The sample's pages: set, id (the set's own id, kept). Several sites with 2-3 pages each. */
export const SAMPLE_PAGES: readonly (readonly [string, string])[] = [
  // articles, three sites
  ["wcxb-dev", "wx-0368"],
  ["wcxb-dev", "wx-4180"],
  ["wcxb-dev", "wx-4558"], // health.ucdavis.edu
  ["wcxb-dev", "wx-4014"],
  ["wcxb-dev", "wx-4603"], // pcworld.com
  ["wcxb-dev", "wx-0214"],
  ["wcxb-dev", "wx-4661"], // almanac.com
  // forum threads, three sites
  ["wcxb-dev", "wx-4309"],
  ["wcxb-dev", "wx-4310"], // stackoverflow.com
  ["wcxb-dev", "wx-0566"],
  ["wcxb-dev", "wx-2828"], // serverfault.com
  ["harvest-forums", "hv-0029"],
  ["harvest-forums", "hv-0030"], // forum.videolan.org
  // product pages
  ["wcxb-dev", "wx-0627"],
  ["wcxb-dev", "wx-2890"], // newegg.com
  // listings
  ["wcxb-dev", "wx-2911"],
  ["wcxb-dev", "wx-3013"], // news.ycombinator.com
  // documentation
  ["wcxb-dev", "wx-2857"],
  ["wcxb-dev", "wx-2858"], // docs.python.org
  // service pages
  ["wcxb-dev", "wx-0204"],
  ["wcxb-dev", "wx-4552"], // austintexas.gov
];

/** A trimmed gold line is kept (its surviving part) only from this many words on. */
const MIN_PREFIX_WORDS = 8;
const WORD = /[\p{L}\p{M}\p{Nd}\p{Pc}]+/gu;

interface Row {
  id: string;
  [k: string]: unknown;
}

function jsonlRows(path: string): Row[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
}

/** Lower-cased words joined by single spaces, framed by spaces (so a match is whole words). */
function wordKey(text: string): string {
  return ` ${(text.toLowerCase().match(WORD) ?? []).join(" ")} `;
}

/** Lower-cased, whitespace runs as one space (how a snippet is looked for in the gold). */
function spaced(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/** The cut page's text as pith's labels read it (static view, markup-hidden text revealed), as a word key. */
function pageWords(html: string, id: string): string {
  const page = revealMarkupHidden(
    staticSnapshot({ id, source: id, url: null, html, encoding: "utf-8", remote: false }),
  );
  const tree = buildTree(page);
  return wordKey(textOf(page, tree, [0]));
}

/** The part of `line` kept for a page whose words are `page`: all of it, its surviving start, or null. */
function keptPart(line: string, page: string): string | null {
  const key = wordKey(line);
  if (key.trim() === "") return null;
  if (page.includes(key)) return line;
  // the cutter trims long text nodes at a word boundary: keep the longest start of the line on the page
  const ends = [...line.matchAll(WORD)].map((m) => (m.index ?? 0) + m[0].length);
  for (let n = ends.length - 1; n >= MIN_PREFIX_WORDS; n--) {
    const start = line.slice(0, ends[n - 1]);
    if (page.includes(wordKey(start))) return start.trim();
  }
  return null;
}

async function main(): Promise<void> {
  const values = scriptArgs(USAGE, {
    from: { type: "string" },
    out: { type: "string" },
    target: { type: "string" },
  });
  const from = resolve(values.from ?? dataDir());
  const out = resolve(values.out ?? join(PITH_ROOT, "data", "sample"));
  const targetBytes = intOption(USAGE, "target", values.target, 30_000);
  for (const sub of ["html", "gold"]) {
    rmSync(join(out, sub), { recursive: true, force: true });
    mkdirSync(join(out, sub), { recursive: true });
  }
  const index: Row[] = [];
  const extra: Row[] = [];
  const snippets: Row[] = [];
  const sets = new Map<
    string,
    { index: Map<string, Row>; extra: Map<string, Row>; snippets: Map<string, Row> }
  >();
  const byId = (rows: Row[]) => new Map(rows.map((r) => [r.id, r]));
  for (const [set, id] of SAMPLE_PAGES) {
    let s = sets.get(set);
    if (!s) {
      const dir = join(from, set);
      s = {
        index: byId(jsonlRows(join(dir, "index.jsonl"))),
        extra: byId(jsonlRows(join(dir, "extra.jsonl"))),
        snippets: byId(jsonlRows(join(dir, "snippets.jsonl"))),
      };
      sets.set(set, s);
    }
    const row = s.index.get(id);
    if (!row) throw new Error(`${set}: no page ${id} in ${join(from, set, "index.jsonl")}`);
    const html = cutPage(readFileSync(join(from, set, "html", `${id}.html.gz`)), {
      source: `${set}/${id}, cut down`,
      targetBytes,
    });
    const words = pageWords(html, id);
    const goldLines = readFileSync(join(from, set, "gold", `${id}.txt`), "utf8")
      .split("\n")
      .filter((l) => l.trim());
    const kept = goldLines.map((l) => keptPart(l, words)).filter((l): l is string => l !== null);
    const whole = kept.filter((l) => goldLines.includes(l)).length;
    writeFileSync(join(out, "html", `${id}.html.gz`), gzipSync(html, { level: 9 }));
    writeFileSync(join(out, "gold", `${id}.txt`), kept.length ? `${kept.join("\n")}\n` : "");
    index.push({ ...row, source: `${set}/${id} (cut down; originally ${String(row["source"])})` });
    const goldText = spaced(kept.join("\n"));
    const sn = s.snippets.get(id);
    if (sn) {
      const texts = (k: string) =>
        ((sn[k] as unknown[]) ?? []).filter((t): t is string => typeof t === "string");
      snippets.push({
        id,
        // `with`: still in the (cut) gold as it is written; `without`: still on the cut page
        with: texts("with").filter((t) => goldText.includes(spaced(t))),
        without: texts("without").filter((t) => words.includes(wordKey(t))),
      });
    }
    const ex = s.extra.get(id) ?? { id };
    extra.push({
      ...ex,
      id,
      sample_from: `${set}/${id}`,
      cut_html_bytes: Buffer.byteLength(html),
      gold_lines_total: goldLines.length,
      gold_lines_kept: kept.length,
      gold_lines_trimmed: kept.length - whole,
    });
    process.stderr.write(
      `${set}/${id}\t${String(row["domain"])}\t${String(row["page_type"] ?? row["genre"])}\t` +
        `${Buffer.byteLength(html)} B\tgold ${kept.length}/${goldLines.length} lines (${kept.length - whole} trimmed)\n`,
    );
  }
  const jsonl = (rows: Row[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
  writeFileSync(join(out, "index.jsonl"), jsonl(index));
  writeFileSync(join(out, "extra.jsonl"), jsonl(extra));
  writeFileSync(join(out, "snippets.jsonl"), jsonl(snippets));
}

await main();
