import { test } from "node:test";
import assert from "node:assert/strict";
import { lexiconFeatures, type RowTokens } from "../src/pipeline/context/class-lexicon.ts";
import { fitClassLexicon } from "../src/train/lexicon.ts";
import { HEADING_WORDS, NO_HEADING, rowHeadingTokens } from "../src/pipeline/context/heading-lexicon.ts";
import { deeplyNested, staticRows } from "./helpers.ts";

function tokensOf(t: RowTokens, r: number): string[] {
  return Array.from(
    t.ids.subarray(t.start[r] as number, t.start[r + 1] as number),
    (id) => t.vocab[id] as string,
  ).sort();
}

/** Heading tokens of the row that owns `needle`, for each needle. */
function headingsOf(html: string, needles: string[]): string[][] {
  const rows = staticRows(html);
  const tokens = rowHeadingTokens(rows.page, rows.tree, rows.nodes, rows.own.ownWords);
  return needles.map((needle) => {
    const i = rows.page.nodes.findIndex((n) => n.type === 3 && n.text?.includes(needle));
    assert.ok(i >= 0, `no text node holds "${needle}"`);
    return tokensOf(tokens, rows.own.ownerRow[i] as number);
  });
}

test("a leaf's heading is the last visible h1-h6 before it, or the one it is in", () => {
  const html = `<html><body><p>Before any heading.</p>
    <h2>You may <b>also like</b></h2><div><ul><li>First related card</li></ul></div>
    <section><h3 hidden>Invisible heading</h3><p>Still under the h2.</p></section>
    <h3>Reviews 2024</h3><p>Great product, five stars.</p></body></html>`;
  const [before, title, card, hidden, review] = headingsOf(html, [
    "Before any",
    "You may",
    "First related",
    "Still under",
    "Great product",
  ]);
  assert.deepEqual(before, [NO_HEADING]);
  assert.deepEqual(
    card,
    ["h:also", "h:like", "h:may", "h:you"],
    "inline markup inside the heading is part of its text",
  );
  assert.deepEqual(title, card, "the heading's own leaf reads the heading");
  assert.deepEqual(hidden, card, "a hidden heading is no heading");
  assert.deepEqual(review, ["h:reviews"], "all-digit words are left out");
});

test(`only a heading's first ${HEADING_WORDS} words count, each once, and rows without words get none`, () => {
  const html = `<html><body><h2>one two three one four five six seven</h2><div><p>Body text here.</p></div></body></html>`;
  const rows = staticRows(html);
  const tokens = rowHeadingTokens(rows.page, rows.tree, rows.nodes, rows.own.ownWords);
  const i = rows.page.nodes.findIndex((n) => n.text?.includes("Body text"));
  assert.deepEqual(tokensOf(tokens, rows.own.ownerRow[i] as number), [
    "h:five",
    "h:four",
    "h:one",
    "h:three",
    "h:two",
  ]);
  for (let r = 0; r < rows.nodes.length; r++)
    if ((rows.own.ownWords[r] as number) === 0) assert.equal(tokensOf(tokens, r).length, 0);
});

test("a 10,000-level page is walked without recursion", () => {
  const [deep] = headingsOf(deeplyNested(10_000), ["deep text"]);
  assert.deepEqual(deep, [NO_HEADING]);
});

test("the heading lexicon learns which section names mark content, with the class lexicon's fit and features", () => {
  // twelve pages: under "Description" main text, under "Related products" noise cards
  const pages = Array.from({ length: 12 }, (_, k) => {
    const rows = staticRows(
      `<html><body><h2>Description</h2><p>Product text number ${k}.</p><h2>Related products</h2><ul><li>Card ${k}</li></ul></body></html>`,
    );
    const tokens = rowHeadingTokens(rows.page, rows.tree, rows.nodes, rows.own.ownWords);
    const main = Uint8Array.from(rows.nodes, (_, r) =>
      tokensOf(tokens, r).includes("h:description") ? 1 : 0,
    );
    return { tokens, main };
  });
  const lexicon = fitClassLexicon(pages);
  assert.deepEqual(
    fitClassLexicon(
      pages.map((p) => ({ ...p, site: "one.example" })),
      { minSites: 2 },
    ).weights,
    {},
    "a site rule drops tokens of one site",
  );
  assert.deepEqual(
    fitClassLexicon(
      pages.map((p, k) => ({ ...p, site: `s${k % 2}.example` })),
      { minSites: 2 },
    ).weights,
    lexicon.weights,
    "tokens on enough sites stay",
  );
  assert.ok(
    (lexicon.weights["h:description"] as number) > 1 && (lexicon.weights["h:related"] as number) < -1,
    JSON.stringify(lexicon.weights),
  );
  const { tokens, main } = pages[0] as { tokens: RowTokens; main: Uint8Array };
  const features = lexiconFeatures(lexicon, tokens);
  const meanOf = (label: number): number =>
    features[4 * main.findIndex((m, r) => m === label && tokensOf(tokens, r).length > 0)] as number;
  assert.ok(meanOf(1) > 1 && meanOf(0) < -1, "a leaf's mean heading weight follows its section's name");
});
