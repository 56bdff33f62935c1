import assert from "node:assert/strict";
import { test } from "node:test";
import {
  collapseSpaces,
  forEachWord,
  isSpace,
  nextWordStart,
  WORD,
  wordCount,
  wordEnd,
  words,
} from "../src/dom/text.ts";

/** WORD's runs: the regular expression the scanner must agree with. */
const runs = (text: string): string[] => text.match(WORD) ?? [];

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

test("the word scanner finds exactly WORD's runs (surrogates, marks, connectors, scripts)", () => {
  for (const text of CASES) {
    assert.deepEqual(scanned(text), runs(text), JSON.stringify(text));
    assert.equal(wordCount(text), words(text).length, JSON.stringify(text));
  }
});

test("the word scanner agrees with WORD on every BMP code point; words() tiles its runs", () => {
  let text = "";
  for (let c = 0; c < 0x10000; c++) text += String.fromCharCode(c) + (c % 7 === 0 ? " " : "");
  assert.deepEqual(scanned(text), runs(text));
  assert.equal(wordCount(text), words(text).length);
  assert.equal(words(text).join(""), runs(text).join(""));
});

test("runs in scripts without spaces are split into words; other words are WORD's runs, also beside them", () => {
  assert.deepEqual(words("港沿いに新しい路面電車が開業"), [
    "港",
    "沿い",
    "に",
    "新しい",
    "路面",
    "電車",
    "が",
    "開業",
  ]);
  assert.deepEqual(words("交通记者安娜·贝里，2024年3月12日").slice(0, 3), ["交通", "记者", "安娜"]);
  assert.ok(words("ภาษาไทยเป็นภาษาที่ไม่มีช่องว่าง").length >= 5);
  // Latin, Cyrillic, Arabic, Hangul: WORD's runs (don't and 3.14 stay two words each, as \w+ reads them)
  for (const text of [
    "don't stop-words 3.14",
    "Вдоль гавани открылась",
    "افتتاح خط ترام",
    "항구를 따라 새 트램",
  ])
    assert.deepEqual(words(text), runs(text));
  assert.deepEqual(words("Tokyo 東京都 don't"), ["Tokyo", ...words("東京都"), "don", "t"]);
  // the words' offsets tile the runs, in order
  const text = "CNET Japan 3/9(木) 18:45配信、トレンドマイクロは";
  const seen: string[] = [];
  forEachWord(text, (a, b) => seen.push(text.slice(a, b)));
  assert.deepEqual(seen, words(text));
  assert.equal(seen.join(""), runs(text).join(""));
  for (const text of CASES) assert.equal(words(text).join(""), runs(text).join(""), JSON.stringify(text));
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
