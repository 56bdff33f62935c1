import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { ISO3_OF, isStopword, stopwordList, stopwordSet } from "../src/features/language.ts";
import { StopwordTable, UNDECIDED } from "../src/features/stopword-table.ts";
import { createRng, type Rng } from "../src/ml/prng.ts";

const LISTS = createRequire(import.meta.url)("stopword") as Record<string, unknown>;
const LANGS = Object.keys(LISTS).filter((k) => /^[a-z]{3}$/.test(k) && Array.isArray(LISTS[k]));

/** The words a page could hold: each list's words as written, upper-cased, capitalised, cut, extended, inside other text. */
function candidates(list: readonly string[], rng: Rng): string[] {
  const out: string[] = [];
  for (const w of list) {
    out.push(w, w.toUpperCase(), w.charAt(0).toUpperCase() + w.slice(1), w.slice(1), `${w}s`, `x${w}`);
  }
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_éÉİıßẞ";
  for (let k = 0; k < 2000; k++) {
    let w = "";
    const n = 1 + rng.int(8);
    for (let j = 0; j < n; j++) w += alphabet[rng.int(alphabet.length)];
    out.push(w);
  }
  return out;
}

test("isStopword equals the list's Set.has(word.toLowerCase()) for every stopword language, in place in a text", () => {
  const rng = createRng(7);
  for (const lang of LANGS) {
    const stop = stopwordSet(lang, () => []);
    assert.ok(stop.known, lang);
    for (const w of candidates(LISTS[lang] as string[], rng)) {
      const text = `«${w}» `;
      assert.equal(
        isStopword(stop, text, 1, 1 + w.length),
        stop.words.has(w.toLowerCase()),
        `${lang}: ${JSON.stringify(w)}`,
      );
    }
  }
});

test("the stop-word table answers ASCII words itself and leaves the others to the Set", () => {
  const table = new StopwordTable(["the", "and", "été", "über", "The"]);
  assert.equal(table.match("THE", 0, 3), 1);
  assert.equal(table.match("xAndx", 1, 4), 1);
  assert.equal(table.match("they", 0, 4), 0);
  assert.equal(table.match("th", 0, 2), 0);
  assert.equal(table.match("été", 0, 3), UNDECIDED);
  // a language without a list: the page's most frequent words, matched the same way
  const stop = stopwordSet(null, () => ["ka", "ka", "mo", "ka", "ẞa"]);
  assert.equal(stop.known, false);
  assert.equal(isStopword(stop, "KA", 0, 2), true);
  assert.equal(isStopword(stop, "ẞA", 0, 2), stop.words.has("ßa"));
  assert.equal(isStopword(stop, "zz", 0, 2), false);
});

test("ISO3_OF is tinyld's toISO3 on every two-letter code, so a declared language finds the same stop words without loading tinyld", () => {
  const { toISO3 } = createRequire(import.meta.url)("tinyld") as { toISO3: (code: string) => string };
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let known = 0;
  for (const a of letters) {
    for (const b of letters) {
      const code = a + b;
      assert.equal(ISO3_OF[code] ?? "", toISO3(code), code);
      if (ISO3_OF[code]) known++;
    }
  }
  assert.ok(known >= 60, `${known} codes`);
  assert.equal(stopwordList("en")?.has("the"), true);
  assert.equal(stopwordList("de")?.has("und"), true);
  assert.equal(stopwordList("hr"), null); // tinyld knows no "hr", so pith had no list for it either
});
