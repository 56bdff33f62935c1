import { test } from "node:test";
import assert from "node:assert/strict";
import {
  classParts,
  pageLexicon,
  lexiconFeatures,
  LEXICON_LEVELS,
  rowClassTokens,
  type RowTokens,
} from "../src/pipeline/context/class-lexicon.ts";
import { fitClassLexicon, MIN_LEXICON_PAGES, type LexiconPage } from "../src/train/lexicon.ts";
import { deeplyNested, fixtureText, staticRows } from "./helpers.ts";

function tokensOf(t: RowTokens, r: number): string[] {
  return Array.from(
    t.ids.subarray(t.start[r] as number, t.start[r + 1] as number),
    (id) => t.vocab[id] as string,
  ).sort();
}

/** The row whose own text contains `needle`. */
function rowWith(
  html: string,
  needle: string,
): { tokens: RowTokens; row: number; rows: ReturnType<typeof staticRows> } {
  const rows = staticRows(html);
  const tokens = rowClassTokens(rows.page, rows.tree, rows.nodes, rows.own.ownWords);
  for (let r = 0; r < rows.nodes.length; r++) {
    const n = rows.nodes[r] as number;
    const end = rows.tree.end[n] as number;
    for (let i = n; i < end; i++)
      if (rows.page.nodes[i]?.text?.includes(needle) && rows.own.ownerRow[i] === r)
        return { tokens, row: r, rows };
  }
  throw new Error(`no row owns "${needle}"`);
}

test("class parts: camelCase and separators split, one-letter and all-digit parts dropped", () => {
  assert.deepEqual(classParts("postContent entry-content_2 x td-post-text-7a"), [
    "post",
    "content",
    "entry",
    "content",
    "td",
    "post",
    "text",
    "7a",
  ]);
  assert.deepEqual(classParts(""), []);
});

test("a leaf's tokens: its element's and its nearest element ancestors' id, class and tag, prefixed by level", () => {
  const html = `<html><body><main id="main"><div class="entryContent prose"><p class="lead">The first paragraph of the story.</p></div></main></body></html>`;
  const { tokens, row } = rowWith(html, "first paragraph");
  assert.deepEqual(tokensOf(tokens, row), [
    "0:lead",
    "0t:p",
    "1:content",
    "1:entry",
    "1:prose",
    "1t:div",
    "2:main",
    "2t:main",
    "3t:body",
  ]);
  assert.equal(LEXICON_LEVELS, 4, "html, the fifth level, is not read");
});

test("rows that own no words get no tokens, and a 10,000-level page is walked without recursion", () => {
  const { tokens, rows } = rowWith(deeplyNested(10_000), "deep text");
  for (let r = 0; r < rows.nodes.length; r++)
    if ((rows.own.ownWords[r] as number) === 0) assert.equal(tokensOf(tokens, r).length, 0);
});

function page(rows: string[][], main: number[]): LexiconPage {
  const vocab: string[] = [];
  const ids: number[] = [];
  const start = [0];
  for (const row of rows) {
    for (const t of row) {
      let id = vocab.indexOf(t);
      if (id < 0) id = vocab.push(t) - 1;
      ids.push(id);
    }
    start.push(ids.length);
  }
  return {
    tokens: { vocab, start: Int32Array.from(start), ids: Int32Array.from(ids) },
    main: Uint8Array.from(main),
  };
}

test("the lexicon weighs tokens by the pages they mark main or noise on, each page once; rare tokens are left out", () => {
  const pages = Array.from({ length: 8 }, (_, k) =>
    page(
      [["1:content", "0t:p"], ["1:sidebar", "0t:p"], ["1:sidebar"], ...(k === 0 ? [["1:onesite"]] : [])],
      [1, 0, 0, ...(k === 0 ? [1] : [])],
    ),
  );
  const lex = fitClassLexicon(pages);
  assert.equal(lex.pages, 8);
  assert.ok((lex.weights["1:content"] as number) > 1, "on main leaves of every page");
  assert.ok((lex.weights["1:sidebar"] as number) < -1, "on noise leaves of every page");
  assert.equal(lex.weights["0t:p"], 0, "on both, on every page");
  assert.ok(!("1:onesite" in lex.weights), `seen on fewer than ${MIN_LEXICON_PAGES} pages`);
  const repeated = fitClassLexicon(
    pages.map((p, k) =>
      k === 0 ? page([["1:content"], ["1:content"], ["1:content"], ["1:sidebar"]], [1, 1, 1, 0]) : p,
    ),
  );
  assert.deepEqual(
    repeated.weights["1:content"],
    lex.weights["1:content"],
    "a token repeated down one page counts once",
  );
  const skipped = fitClassLexicon(pages.map((p) => ({ ...p, skip: Uint8Array.from([0, 1, 1, 0]) })));
  assert.ok(!("1:sidebar" in skipped.weights), "skipped rows are not counted");
});

test("lexicon features: mean, min and max of the known tokens' weights and how many are known", () => {
  const lex = { pages: 10, weights: { "1:content": 2, "0t:p": 0, "1:sidebar": -3 } };
  const t = page([["1:content", "0t:p", "9:unknown"], ["1:sidebar"], ["9:unknown"], []], [0, 0, 0, 0]).tokens;
  const f = lexiconFeatures(lex, t);
  assert.deepEqual([...f.subarray(0, 4)], [1, 0, 2, 2]);
  assert.deepEqual([...f.subarray(4, 8)], [-3, -3, -3, 1]);
  assert.ok(
    [...f.subarray(8, 11)].every(Number.isNaN) && f[11] === 0,
    "no known token: missing values, zero known",
  );
  assert.ok([...f.subarray(12, 15)].every(Number.isNaN) && f[15] === 0);
});

test("extraction's per-element path gives the same features as the token lists, and the strongest token", () => {
  const html = fixtureText("pages/article.html");
  const rows = staticRows(html);
  const tokens = rowClassTokens(rows.page, rows.tree, rows.nodes, rows.own.ownWords);
  const lexicon = fitClassLexicon([{ tokens, main: Uint8Array.from(rows.nodes, (_, r) => r % 2) }], {
    minPages: 1,
  });
  assert.ok(Object.keys(lexicon.weights).length > 10, "the fixture has class tokens");
  const fast = pageLexicon(lexicon, rows.page, rows.tree, rows.nodes, rows.own.ownWords);
  const slow = lexiconFeatures(lexicon, tokens);
  assert.equal(fast.features.length, slow.length);
  slow.forEach((v, i) =>
    assert.ok(
      Number.isNaN(v)
        ? Number.isNaN(fast.features[i] as number)
        : Math.abs(v - (fast.features[i] as number)) < 1e-5,
      `feature ${i}: ${v} vs ${fast.features[i]}`,
    ),
  );
  for (let r = 0; r < rows.nodes.length; r++) {
    let best: { token: string; weight: number } | null = null;
    for (const t of tokensOf(tokens, r)) {
      const w = lexicon.weights[t];
      if (w !== undefined && (!best || Math.abs(w) > Math.abs(best.weight))) best = { token: t, weight: w };
    }
    assert.equal(fast.strongest(r)?.weight ?? null, best?.weight ?? null, `row ${r}`);
  }
});
