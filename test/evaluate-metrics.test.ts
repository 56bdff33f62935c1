/** Metrics on hand-computed cases, including empty gold and empty output (definitions: ../shared/data/README.md). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  aebPrecision,
  aebRecall,
  aebShingles,
  lcsLength,
  lcsScore,
  nodeScore,
  rougeLsum,
  snippetCounts,
  snippetF1,
  wcxbTokens,
  wcxbWords,
} from "../src/evaluate/metrics.ts";
import { aggregate } from "../src/evaluate/report.ts";
import type { PageFigures } from "../src/evaluate/page.ts";

const close = (a: number, b: number, eps = 1e-9): void => assert.ok(Math.abs(a - b) < eps, `${a} ≠ ${b}`);

describe("WCXB word P/R/F1", () => {
  it("tokenizes like Python's re.findall(r'\\w+', s.lower()) on Unicode text", () => {
    // Output of Python 3.11 on the same string: combining marks split words, digits of any script count.
    const s = "हिन्दी café naïve x²  ½ Ⅻ a‿b 日本語 ٣٤ e\u0301";
    assert.deepEqual(wcxbTokens(s), [
      "ह",
      "न",
      "द",
      "café",
      "naïve",
      "x²",
      "½",
      "ⅻ",
      "a",
      "b",
      "日本語",
      "٣٤",
      "e",
    ]);
    assert.deepEqual(wcxbTokens("Snake_case, it's 3.5!"), ["snake_case", "it", "s", "3", "5"]);
  });
  it("scores the multiset overlap", () => {
    const a = wcxbWords("The cat sat", "the cat sat on the mat");
    assert.deepEqual([a.p, a.r], [1, 0.5]);
    close(a.f1, 2 / 3);
    const b = wcxbWords("the the the", "The cat"); // overlap 1
    close(b.p, 1 / 3);
    close(b.r, 1 / 2);
    close(b.f1, 0.4);
  });
  it("handles empty gold and empty output", () => {
    assert.deepEqual(wcxbWords("", ""), { p: 1, r: 1, f1: 1 });
    assert.deepEqual(wcxbWords("!!! ...", "  "), { p: 1, r: 1, f1: 1 });
    assert.deepEqual(wcxbWords("some text", ""), { p: 0, r: 0, f1: 0 });
    assert.deepEqual(wcxbWords("", "gold text"), { p: 0, r: 0, f1: 0 });
  });
});

describe("article-extraction-benchmark shingles", () => {
  it("normalises tp/fp/fn to sum to 1", () => {
    const c = aebShingles("a b c d e", "a b c d"); // predicted {abcd, bcde}, gold {abcd}
    assert.deepEqual(c, { tp: 0.5, fp: 0.5, fn: 0 });
    assert.equal(aebPrecision(c), 0.5);
    assert.equal(aebRecall(c), 1);
  });
  it("treats short and empty texts as one shingle, and is case-sensitive", () => {
    assert.deepEqual(aebShingles("a b", "a b"), { tp: 1, fp: 0, fn: 0 });
    assert.deepEqual(aebShingles("", ""), { tp: 1, fp: 0, fn: 0 });
    const empty = aebShingles("", "a b c d e f"); // {""} against 3 gold shingles
    assert.deepEqual(empty, { tp: 0, fp: 0.25, fn: 0.75 });
    assert.equal(aebPrecision(empty), 0);
    assert.equal(aebRecall(empty), 0);
    assert.equal(aebShingles("A b c d", "a b c d").tp, 0);
  });
  it("aggregates F1 from the mean precision and mean recall", () => {
    const page = (id: string, pred: string, gold: string): PageFigures => ({
      method: "m",
      dataset: "d",
      id,
      domain: null,
      group: "g",
      wcxb: wcxbWords(pred, gold),
      aeb: aebShingles(pred, gold),
      lcs: lcsScore(pred, gold),
      nodes: null,
      snippets: null,
      rouge: null,
      ms: 1,
      chars: pred.length,
    });
    const [all] = aggregate([page("1", "a b c d e", "a b c d"), page("2", "", "a b c d e f")]);
    close(all?.aeb.p ?? -1, 0.25);
    close(all?.aeb.r ?? -1, 0.5);
    close(all?.aeb.f1 ?? -1, 1 / 3);
    close(all?.wcxb.f1 ?? -1, (8 / 9 + 0) / 2); // page 1: P = 4/5, R = 1
  });
});

describe("snippets", () => {
  const text = "Hello World, this is  the main text.";
  const c = snippetCounts(text, {
    with: ["hello world", "main text", "absent"],
    without: ["this is the", "footer"],
  });
  it("WCXB: case-insensitive substring shares", () => {
    assert.deepEqual([c.withFound, c.withTotal, c.withoutAvoided, c.withoutTotal], [2, 3, 2, 2]);
  });
  it("trafilatura: whitespace-normalised, case-sensitive counts and F1", () => {
    assert.deepEqual([c.tp, c.fn, c.fp], [1, 2, 1]);
    close(snippetF1(c), 2 / 5);
    assert.equal(snippetF1({ tp: 0, fp: 0, fn: 0 }), 0);
  });
});

describe("Louvan's LCS P/R/F1", () => {
  it("computes the exact LCS length (bit-parallel) against the textbook DP", () => {
    const cp = (s: string): number[] => [...s].map((c) => c.codePointAt(0) as number);
    assert.equal(lcsLength(cp("ABCBDAB"), cp("BDCABA")), 4);
    let seed = 7;
    const rand = (k: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % k;
    for (let t = 0; t < 300; t++) {
      const a = Array.from({ length: rand(90) }, () => rand(1 + (t % 4)));
      const b = Array.from({ length: rand(90) }, () => rand(1 + (t % 4)));
      const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++)
          (dp[i] as number[])[j] =
            a[i - 1] === b[j - 1]
              ? (dp[i - 1] as number[])[j - 1]! + 1
              : Math.max((dp[i - 1] as number[])[j]!, (dp[i] as number[])[j - 1]!);
      assert.equal(lcsLength(a, b), (dp[a.length] as number[])[b.length], `case ${t}`);
    }
  });
  it("scores characters with whitespace collapsed, P over the extraction", () => {
    const s = lcsScore("the cat", "the hat"); // LCS "the at" = 6 of 7
    close(s.p, 6 / 7);
    close(s.r, 6 / 7);
    assert.equal(s.unit, "char");
    assert.equal(lcsScore("a \n b", "a b").f1, 1);
    const longer = lcsScore("xx the cat", "the cat"); // 7 of 10 extracted, all 7 gold
    close(longer.p, 0.7);
    assert.equal(longer.r, 1);
  });
  it("handles empty gold and empty output", () => {
    assert.equal(lcsScore("", "").f1, 1);
    assert.equal(lcsScore("x", " ").f1, 0);
    assert.equal(lcsScore("", "gold").f1, 0);
  });
  it("falls back to word tokens past the budget, and stays fast on 50k-character pages", () => {
    const w = lcsScore("a b c", "a c d", 0);
    assert.equal(w.unit, "word");
    close(w.p, 2 / 3);
    const words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do".split(" ");
    const gen = (n: number, k: number): string =>
      Array.from({ length: n }, (_, i) => words[(i * k) % words.length]).join(" ");
    const big = lcsScore(gen(8000, 3), gen(8000, 7)); // ≈ 50k characters each
    assert.equal(big.unit, "char");
  });
});

describe("DOM-node P/R/F1", () => {
  it("counts units", () => {
    const s = nodeScore([true, true, false, false], [true, false, true, false]);
    assert.deepEqual(s, { p: 0.5, r: 0.5, f1: 0.5 });
    assert.deepEqual(nodeScore([false, false], [false, false]), { p: 1, r: 1, f1: 1 });
    assert.deepEqual(nodeScore([true, false], [false, false]), { p: 0, r: 0, f1: 0 });
    assert.deepEqual(nodeScore([false, false], [true, false]), { p: 0, r: 0, f1: 0 });
  });
});

describe("ROUGE-LSum", () => {
  it("takes the union LCS of each gold line over all predicted lines", () => {
    // gold lines [a b c d], [e f]; predicted [a c], [d e f]: a, c, d from line 1 and e, f → 5 hits
    const s = rougeLsum("a c\nd e f", "a b c d\ne f");
    assert.ok(s);
    assert.equal(s.p, 1);
    close(s.r, 5 / 6);
    close(s.f1, 10 / 11);
  });
  it("never matches a token twice, is case-sensitive, handles empty texts", () => {
    assert.deepEqual(rougeLsum("a\na", "a a"), { p: 0.5, r: 0.5, f1: 0.5 });
    assert.deepEqual(rougeLsum("A", "a"), { p: 0, r: 0, f1: 0 });
    assert.deepEqual(rougeLsum("", ""), { p: 1, r: 1, f1: 1 });
    assert.deepEqual(rougeLsum("", "a"), { p: 0, r: 0, f1: 0 });
  });
});
