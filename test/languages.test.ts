/**
 * Language-fair extraction: one small article page (h1, byline, h2s, paragraphs, nav, related
 * list, footer) in English, Japanese, Chinese, Korean, Arabic and Russian, the markup identical
 * and only the text translated (test/fixtures/languages/), keeps the same blocks in each. Words
 * of scripts without spaces are segmented (src/dom/text.ts forEachWord), so the features read a
 * Japanese heading as the few words it is, not as one long word.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import { buildTree } from "../src/dom/tree.ts";
import { computeStats } from "../src/features/stats.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { fixturePath, pith } from "./helpers.ts";

const LANGS = ["en", "ja", "zh", "ko", "ar", "ru"] as const;
const DIR = fixturePath("languages");

interface Extracted {
  id: string;
  text: string;
  nodes: { path: string }[];
}

test("the same article in six languages keeps the same blocks (node paths) as the English one", async () => {
  const res = await pith(["extract", DIR, "--format", "json"]);
  assert.equal(res.status, 0, res.stderr);
  const pages = new Map<string, Extracted>();
  for (const line of res.stdout.split("\n").filter(Boolean)) {
    const page = JSON.parse(line) as Extracted;
    pages.set(page.id.replace(/\.html$/, ""), page);
  }
  assert.deepEqual([...pages.keys()].sort(), [...LANGS].sort());
  const en = pages.get("en") as Extracted;
  // the English page keeps its headline, byline, both h2s and six paragraphs, and no nav, related list or footer
  const lines = en.text.split("\n");
  assert.equal(lines.length, 10, en.text);
  assert.equal(lines[0], "New tram line opens along the harbour");
  assert.match(lines[1] as string, /^By Anna Berg/);
  assert.ok(!/Related stories|About us|Opinion/.test(en.text), en.text);
  for (const lang of LANGS) {
    const page = pages.get(lang) as Extracted;
    assert.deepEqual(
      page.nodes.map((n) => n.path),
      en.nodes.map((n) => n.path),
      `${lang}: kept ${page.text}`,
    );
    assert.equal(page.text.split("\n").length, lines.length, `${lang}: ${page.text}`);
  }
});

/** The page's stats at the node with tag `tag` (the first one). */
function statsAt(lang: string, tag: string) {
  const html = readFileSync(`${DIR}/${lang}.html`, "utf8");
  const page = staticSnapshot({ id: lang, source: lang, url: null, html, encoding: "utf-8", remote: false });
  const stats = computeStats(page, buildTree(page));
  const i = page.nodes.findIndex((n) => n.tag === tag);
  return { stats, i };
}

test("word and stop-word counts of a Japanese or Chinese text are of its words, near the English ones", () => {
  const en = statsAt("en", "h1");
  for (const lang of ["ja", "zh"]) {
    const { stats, i } = statsAt(lang, "h1");
    assert.equal(stats.lang, lang);
    assert.ok(stats.langKnown, `${lang}: a stop-word list exists`);
    // the headline: 6-8 words, as in English (7), not one
    const w = stats.words[i] as number;
    assert.ok(w >= 5 && w <= 9, `${lang} h1: ${w} words`);
    // the whole page: stop words are found (the particles and function words of the list), and
    // the mean word length is a few characters, not a sentence's
    const root = 0;
    const words = stats.words[root] as number;
    assert.ok(
      (stats.stopwords[root] as number) / words > 0.1,
      `${lang}: ${stats.stopwords[root]} of ${words}`,
    );
    assert.ok((stats.wordChars[root] as number) / words < 3, `${lang}: mean word length`);
    assert.ok(words > 0.6 * (en.stats.words[root] as number), `${lang}: ${words} words`);
  }
});
