import assert from "node:assert/strict";
import { test } from "node:test";
import { collapseSpaces, isSpace, nextWordStart, wordCount, wordEnd, words } from "../src/dom/text.ts";

/** The scanner's words, for comparison with the regular expression's. */
function scanned(text: string): string[] {
  const out: string[] = [];
  for (let a = nextWordStart(text, 0), b = 0; a >= 0; a = nextWordStart(text, b)) {
    b = wordEnd(text, a);
    out.push(text.slice(a, b));
  }
  return out;
}

const CASES = [
  "",
  " ",
  "Hello, world!",
  "a\u0301b c",
  "😀abc 😀",
  "\ud800x\udc00y",
  "x\udc00\ud800",
  "x\ud800",
  "\udc00",
  "𝐀𝐁 x𝐀",
  "_a_ ‿b ＿c",
  "٣٤ abc",
  "ªµº",
  "\u00a0a\u00a0",
  "日本語テキスト、かな。",
  "don't stop-words 3.14",
  "\u200bzero\u200bwidth",
  "ﬁne naïve Ελληνικά русский עברית العربية",
  "🇫🇷 flags 👍🏽",
  "tab\tnew\nline",
];

test("the word scanner finds exactly words()'s matches (surrogates, marks, connectors, scripts)", () => {
  for (const text of CASES) {
    assert.deepEqual(scanned(text), words(text), JSON.stringify(text));
    assert.equal(wordCount(text), words(text).length, JSON.stringify(text));
  }
});

test("the word scanner agrees with words() on every BMP code point", () => {
  let text = "";
  for (let c = 0; c < 0x10000; c++) text += String.fromCharCode(c) + (c % 7 === 0 ? " " : "");
  assert.deepEqual(scanned(text), words(text));
  assert.equal(wordCount(text), words(text).length);
});

test("collapseSpaces collapses every whitespace run to one space and trims, as /\\s+/g and trim() do", () => {
  // every code unit is tried as a separator, alone, doubled and at the ends
  for (let c = 0; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    for (const text of [`a${ch}b`, `a${ch}${ch}b`, `${ch}a b${ch}`, `${ch}`, `a ${ch} b`]) {
      assert.equal(
        collapseSpaces(text),
        text.replace(/\s+/g, " ").trim(),
        `U+${c.toString(16)} in ${JSON.stringify(text)}`,
      );
    }
  }
  for (const text of [...CASES, "", "   ", "a", " a", "a ", "a  b", "a\n\n b\t", "\u3000x\ufeff y\u2028"]) {
    assert.equal(collapseSpaces(text), text.replace(/\s+/g, " ").trim(), JSON.stringify(text));
  }
});

test("isSpace is /\\s/ on every UTF-16 code unit", () => {
  for (let c = 0; c < 0x10000; c++)
    assert.equal(isSpace(c), /\s/.test(String.fromCharCode(c)), `U+${c.toString(16)}`);
});
