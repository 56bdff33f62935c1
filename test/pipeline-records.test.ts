/** Same-template records (src/dom/records.ts) and the records refiner. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { textOf } from "../src/dom/text.ts";
import { voteRecords } from "../src/refine/records.ts";
import { staticRows } from "./helpers.ts";

const CARDS = [
  "Red wool scarf for winter",
  "Blue cotton shirt with buttons",
  "Green linen trousers for summer",
  "Black leather belt with buckle",
  "White canvas shoes for walking",
];
const PAGE = `<html><body><nav><ul><li>Home</li><li>Shop</li></ul></nav><p>Our spring collection of clothes for the whole family.</p>
<div class="grid">${CARDS.map((t, k) => `<div class="card"><h3 class="title">${t}</h3><p class="desc">Item ${k} ships today from our warehouse</p><span class="cta">Add this item to cart</span></div>`).join("")}</div></body></html>`;

function setup() {
  const { page, tree, nodes, own } = staticRows(PAGE);
  const rowsOf = (s: string) =>
    [...nodes].flatMap((i, r) =>
      (own.ownWords[r] as number) > 0 && textOf(page, tree, [i]).includes(s) ? [r] : [],
    );
  return { page, tree, nodes, own, rowsOf };
}

test("records refiner: a field kept in most cards is kept in all; a minority field and text outside the cards keep their decision", () => {
  const { page, tree, nodes, own, rowsOf } = setup();
  const keep = new Uint8Array(nodes.length);
  const titles = CARDS.map((t) => rowsOf(t)[0] as number);
  for (const r of titles.slice(0, 3)) keep[r] = 1; // 3 of 5 titles
  const ctas = rowsOf("Add this item to cart");
  assert.equal(ctas.length, 5);
  keep[ctas[0] as number] = 1; // 1 of 5 "Add to cart" lines
  const intro = rowsOf("Our spring collection")[0] as number;
  const { keep: out, trace } = voteRecords(page, tree, nodes, own, keep);
  assert.deepEqual(
    titles.map((r) => out[r]),
    [1, 1, 1, 1, 1],
    "all five titles",
  );
  assert.deepEqual(
    ctas.map((r) => out[r]),
    [1, 0, 0, 0, 0],
    "the minority field is left as the classifier had it",
  );
  assert.equal(out[intro], 0);
  assert.equal(keep[titles[4] as number], 0, "the input array is not changed");
  assert.equal(trace.length, 2);
  assert.ok(
    trace.every(
      (t) => t.step === "records-refiner" && t.action === "keep" && /5 sibling records/.test(t.reason),
    ),
    JSON.stringify(trace),
  );
});
