import assert from "node:assert/strict";
import { test } from "node:test";
import { classSignature } from "../src/dom/records.ts";
import { CLASS_KEYWORDS, keywordBits, keywordPattern } from "../src/features/dom.ts";
import type { SnapshotNode } from "../src/types.ts";

/** An element with this class, for keywordBits. */
function withClass(cls: string): SnapshotNode {
  return { type: 1, tag: "div", parent: -1, visible: true, attrs: { class: cls } };
}

/** The families' bits as their regular expressions (keywordPattern) give them. */
function patternBits(raw: string): number {
  const s = raw.toLowerCase();
  let bits = 0;
  CLASS_KEYWORDS.forEach(([, words], k) => {
    if (keywordPattern(words).test(s)) bits |= 1 << k;
  });
  return bits;
}

const AD = 1 << CLASS_KEYWORDS.findIndex(([name]) => name === "ad");
const META = 1 << CLASS_KEYWORDS.findIndex(([name]) => name === "meta");

const EDGE_CASES = [
  "header",
  "ad",
  "ad-slot",
  "top_ads",
  "Ad1",
  "adv",
  "advertisement",
  "xadvert",
  "sponsored-post",
  "promo_box",
  "banners",
  "banner",
  "adsense-unit",
  "loadsense",
  "stage",
  "tag",
  "tags-list",
  "tagsx",
  "post-tags",
  "side-bar widget",
  "more-stories",
  "moreover",
  "NAVBAR Main-Content",
  "\u212Aomment",
  "İtem card",
  "",
  "   ",
  "css-1kkonqv e1c1bym14",
];

test("keyword bits: one trie scan gives every family's regular expression", () => {
  for (const s of EDGE_CASES) assert.equal(keywordBits(withClass(s)), patternBits(s), JSON.stringify(s));
  assert.equal(keywordBits(withClass("header")) & AD, 0, '"ad" needs a non-letter before and after it');
  assert.notEqual(keywordBits(withClass("top_ads")) & AD, 0);
  assert.notEqual(keywordBits(withClass("advertisement")) & AD, 0, "advert… needs a boundary before only");
  assert.equal(keywordBits(withClass("xadvert")) & AD, 0);
  assert.equal(keywordBits(withClass("stage")) & META, 0);
  assert.notEqual(keywordBits(withClass("post-tags")) & META, 0);
});

test("class signature: lower-cased tokens without digits, sorted, joined by dots", () => {
  const byRegex = (c: string) =>
    c.toLowerCase().replace(/\d+/g, "").split(/\s+/).filter(Boolean).sort().join(".");
  const cases = [...EDGE_CASES, "post-1234 post", "b a c", "a1b 2 c3", "\tx\u00a0y\u3000", "Z a", "a.b c"];
  for (const c of cases) assert.equal(classSignature(c), byRegex(c), JSON.stringify(c));
  assert.equal(classSignature("card-7 Card"), "card.card-");
  assert.equal(classSignature("Post post-98"), classSignature("post-1234 post"));
});
