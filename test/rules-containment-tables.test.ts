/**
 * Two rules after the classifier: the containment rule drops a kept markup-hidden line whose words
 * are mostly in the rest of the kept text (a collapsed, flattened copy of the article), keeping
 * the paragraphs themselves, what the page shows twice, quotes and short lines; the table rule keeps or drops a partly kept data
 * table whole and leaves layout tables alone. And the repeated-paragraph count of
 * `npm run check:duplicates` (src/evaluate/repeats.ts).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { textOf } from "../src/dom/text.ts";
import { isDataTable } from "../src/dom/tables.ts";
import { repeatedParagraphs } from "../src/evaluate/repeats.ts";
import {
  CONTAINMENT,
  containedShare,
  dropContained,
  shinglesOf,
  shingleWords,
} from "../src/pipeline/rules/containment.ts";
import { keepTablesWhole, TABLE_KEEP_SHARE } from "../src/pipeline/rules/tables.ts";
import { coalesce } from "../src/pipeline/select.ts";
import { buildTree } from "../src/dom/tree.ts";
import { structuralNodes } from "../src/features/structural.ts";
import { revealMarkupHidden } from "../src/pipeline/hidden-text.ts";
import { ownership } from "../src/pipeline/own-text.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { pageFromHtml, staticRows } from "./helpers.ts";

/** A page's rows as the static model reads them: markup-hidden text revealed (hidden-text.ts). */
function revealedRows(html: string): ReturnType<typeof staticRows> {
  const page = revealMarkupHidden(staticSnapshot(pageFromHtml(html)));
  const tree = buildTree(page);
  const nodes = structuralNodes(page, tree);
  return { page, tree, nodes, own: ownership(page, tree, nodes) };
}

const PARAS = [
  "Rivers rarely run straight for long, because the outer bank of every bend erodes faster than the inner one.",
  "Over decades this process carves loops that grow wider until the river cuts through the neck of a loop.",
  "The abandoned loop becomes an oxbow lake, which slowly fills with sediment and turns into a wetland.",
];

/** The text the kept rows make, as the pipeline writes it. */
function keptText(rows: ReturnType<typeof staticRows>, keep: Uint8Array): string {
  const { page, tree, nodes, own } = rows;
  return textOf(
    page,
    tree,
    coalesce(nodes, own, keep).map((r) => nodes[r] as number),
  );
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

test("containment: a collapsed flattened copy of the article is dropped and the paragraphs stay", () => {
  const html = `<html><body><article>${PARAS.map((p) => `<p>${p}</p>`).join("")}</article>
<div id="collapsed" style="display:none"><p>${PARAS.join(" ")}</p><p>Short line again.</p></div><p>Short line again.</p></body></html>`;
  const rows = revealedRows(html);
  const keep = new Uint8Array(rows.nodes.length).fill(1);
  const trace = dropContained({ ...rows, keep });
  assert.equal(trace.length, 1, JSON.stringify(trace));
  assert.equal(trace[0]!.step, "containment-rule");
  assert.match(trace[0]!.path, /div#collapsed>p/);
  const kept = keptText(rows, keep);
  for (const p of PARAS) assert.equal(count(kept, p), 1, p);
  assert.equal(count(kept, "Short line again."), 2, "lines under the word minimum are not tested");
  const visible = staticRows(html.replace(' style="display:none"', ""));
  const all = new Uint8Array(visible.nodes.length).fill(1);
  assert.deepEqual(
    dropContained({ ...visible, keep: all }),
    [],
    "a copy the page shows is the page's own repeat",
  );
});

test("containment: a hidden copy goes wherever it is, in any order of its sentences; visible repeats stay", () => {
  const shuffled = [PARAS[2], PARAS[0], PARAS[1]].join(" ");
  const html = `<html><body><div id="teaser" hidden><p>${shuffled}</p></div><article>${PARAS.map((p) => `<p>${p}</p>`).join("")}
<blockquote><p>${PARAS[1]}</p></blockquote></article><aside><p>${PARAS[0]}</p></aside></body></html>`;
  const rows = revealedRows(html);
  const keep = new Uint8Array(rows.nodes.length).fill(1);
  const trace = dropContained({ ...rows, keep });
  assert.deepEqual(
    trace.map((t) => t.path.includes("div#teaser")),
    [true],
  );
  const kept = keptText(rows, keep);
  assert.equal(count(kept, PARAS[1]!), 2, "a visible quote stays");
  assert.equal(count(kept, PARAS[0]!), 2, "a paragraph the page shows twice stays twice");
});

test("containment: a paragraph that shares the article's words but not its phrases stays; the share counts words inside shared phrases", () => {
  const words = shingleWords("The river bends; the bend erodes. 川が曲がる");
  assert.deepEqual(words.slice(-6), ["erodes", "川", "が", "曲", "が", "る"]);
  const aWords = shingleWords(PARAS[0]!);
  const a = shinglesOf(aWords);
  const pool = new Map<string, number>();
  for (const s of [...a, ...a]) pool.set(s, (pool.get(s) ?? 0) + 1);
  assert.equal(containedShare(aWords.length, a, pool), 1);
  const mixed = shingleWords("bank outer the of every erodes bend faster than the inner one for long");
  // only "faster than the inner one" is a phrase of the paragraph: 5 of its 14 words
  assert.equal(containedShare(mixed.length, shinglesOf(mixed), pool), 5 / 14);
  assert.ok(5 / 14 < CONTAINMENT);
  const html = `<html><body><p>${PARAS[0]}</p><p>The outer bank and the inner one: rivers, bends, erodes, faster, every, long, straight, rarely.</p></body></html>`;
  const rows = staticRows(html);
  const keep = new Uint8Array(rows.nodes.length).fill(1);
  assert.deepEqual(dropContained({ ...rows, keep }), []);
});

const TABLES: [string, string[][]][] = [
  [
    "en",
    [
      ["Plan", "Price", "Users"],
      ["Basic", "$5", "1"],
      ["Team", "$20", "10"],
      ["Total", "$25", "11"],
    ],
  ],
  [
    "ja",
    [
      ["プラン", "価格", "人数"],
      ["ベーシック", "500円", "1人"],
      ["チーム", "2000円", "10人"],
      ["合計", "2500円", "11人"],
    ],
  ],
  [
    "de",
    [
      ["Tarif", "Preis", "Nutzer"],
      ["Grundtarif", "5 €", "1"],
      ["Größere Teams", "20 €", "10"],
      ["Summe", "25 €", "11"],
    ],
  ],
  [
    "ar",
    [
      ["الخطة", "السعر", "المستخدمون"],
      ["الأساسية", "٥ دولارات", "١"],
      ["الفريق", "٢٠ دولارًا", "١٠"],
      ["المجموع", "٢٥ دولارًا", "١١"],
    ],
  ],
];

function tableHtml(lang: string, rows: string[][]): string {
  const [head, ...body] = rows;
  const tr = (cells: string[], tag: string) =>
    `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join("")}</tr>`;
  return `<html lang="${lang}"><body><table><thead>${tr(head!, "th")}</thead><tbody>${body.map((r) => tr(r, "td")).join("\n")}</tbody></table>
<table><tr><td><p>A layout cell with a paragraph.</p></td><td><p>Another layout cell.</p></td></tr></table></body></html>`;
}

/** The rows of the first (data) table's cells (the rows holding words), in order. */
function cellRows(rows: ReturnType<typeof staticRows>): number[] {
  const { page, tree, nodes, own } = rows;
  const table = page.nodes.findIndex((n) => n.tag === "table");
  return [...nodes.keys()].filter((r) => {
    const n = nodes[r] as number;
    return n > table && n < (tree.end[table] as number) && (own.ownWords[r] as number) > 0;
  });
}

for (const [lang, cells] of TABLES) {
  test(`tables (${lang}): a mostly kept table loses no row, a mostly dropped one leaves no stray cell`, () => {
    const rows = staticRows(tableHtml(lang, cells));
    const { page, tree } = rows;
    const tables = page.nodes.flatMap((n, i) => (n.tag === "table" ? [i] : []));
    assert.deepEqual(
      tables.map((t) => isDataTable(page, tree, t)),
      [true, false],
    );
    const inTable = cellRows(rows);
    // everything kept but the last row: the row comes back
    const keep = new Uint8Array(rows.nodes.length).fill(1);
    for (const r of inTable.slice(-3)) keep[r] = 0;
    const trace = keepTablesWhole({ ...rows, keep });
    assert.equal(trace.length, 3);
    assert.ok(trace.every((t) => t.action === "keep" && t.step === "table-rule"));
    for (const c of cells.flat()) assert.ok(keptText(rows, keep).includes(c), c);
    // one cell kept of twelve: it goes too
    const few = new Uint8Array(rows.nodes.length);
    few[inTable[4] as number] = 1;
    const layout = rows.nodes.findIndex((n) => rows.page.nodes[n]?.tag === "p");
    few[layout] = 1; // a layout table's cell is not touched
    keepTablesWhole({ ...rows, keep: few });
    assert.equal(few[inTable[4] as number], 0);
    assert.equal(few[layout], 1);
    assert.ok(TABLE_KEEP_SHARE > 1 / 12 && TABLE_KEEP_SHARE <= 9 / 12);
  });
}

test("repeated paragraphs: an output's own repeat is told apart from the page's", () => {
  const long = `${PARAS[0]} ${PARAS[1]}`;
  const output = `${long}\nSomething else entirely.\n${long}`;
  assert.deepEqual(repeatedParagraphs(output, `${long}\n${long}`).introduced, []);
  assert.equal(repeatedParagraphs(output, `${long}\n${long}`).repeated.length, 2);
  assert.equal(repeatedParagraphs(output, long).introduced.length, 2);
  assert.deepEqual(repeatedParagraphs(`${PARAS[0]}\n${PARAS[0]}`, "").repeated, [], "under 20 words");
});
