/**
 * Text output of tables (dom/text.ts tableRows, what `pith extract` writes): a data table's row is
 * one line with its cells separated by a tab, in any script; a cell's <br> is a space and an empty
 * cell keeps its place; a layout table's cells stay blocks; without the option (features, labels)
 * every cell is a line of its own.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { pageFromHtml } from "./helpers.ts";

function text(html: string, tableRows = true, pick?: string): string {
  const page = staticSnapshot(pageFromHtml(html));
  const tree = buildTree(page);
  const roots = pick ? page.nodes.flatMap((n, i) => (n.tag === pick ? [i] : [])) : [0];
  return textOf(page, tree, roots, { preformatted: true, tableRows });
}

const CASES: [string, string[][]][] = [
  [
    "en",
    [
      ["Plan", "Price"],
      ["Basic", "$5"],
      ["Total", "$25"],
    ],
  ],
  [
    "ja",
    [
      ["プラン", "価格"],
      ["ベーシック", "500円"],
      ["合計", "2500円"],
    ],
  ],
  [
    "de",
    [
      ["Tarif", "Preis"],
      ["Größere Teams", "20 €"],
      ["Summe", "25 €"],
    ],
  ],
  [
    "ar",
    [
      ["الخطة", "السعر"],
      ["الأساسية", "٥ دولارات"],
      ["المجموع", "٢٥ دولارًا"],
    ],
  ],
];

for (const [lang, rows] of CASES) {
  test(`text output (${lang}): a data table is a row per line, cells tab-separated`, () => {
    const [head, ...body] = rows;
    const html = `<html lang="${lang}"><body><p>Before.</p><table>
  <thead><tr><th>${head![0]}</th> <th>${head![1]}</th></tr></thead>
  <tbody>${body.map((r) => `<tr>\n<td>${r[0]}</td>\n<td> ${r[1]} </td>\n</tr>`).join("")}</tbody></table><p>After.</p></body></html>`;
    assert.equal(text(html), ["Before.", ...rows.map((r) => r.join("\t")), "After."].join("\n"));
    assert.equal(
      text(html, false),
      ["Before.", ...rows.flat(), "After."].join("\n"),
      "features read a cell per line",
    );
    assert.equal(
      text(html, true, "tr"),
      rows.map((r) => r.join("\t")).join("\n"),
      "rows chosen without their table",
    );
  });
}

test("text output: a <br> in a cell is a space, an empty cell keeps its column, a layout table stays blocks", () => {
  const data = `<table><tr><td>Team<br>plus</td><td></td><td>10</td></tr><tr><td></td><td></td><td></td></tr></table>`;
  assert.equal(text(`<html><body>${data}</body></html>`), "Team plus\t\t10");
  const layout = `<html><body><table><tr><td><p>First column text.</p></td><td><p>Second column text.</p></td></tr></table></body></html>`;
  assert.equal(text(layout), "First column text.\nSecond column text.");
});
