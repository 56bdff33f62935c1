/** The Inspect view's word diff (src/studio/ui/diff.ts): words compared as the word metric counts them. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_DIFF_CELLS, wordDiff } from "../src/studio/ui/diff.ts";

test("extra and missing words between common ones; quotes, case and lone punctuation do not count", () => {
  assert.deepEqual(
    wordDiff("Menu We’ve planted - the seeds today", "we've planted THE seeds\ntoday and tomorrow"),
    [
      { kind: "extra", words: ["Menu"] },
      { kind: "same", words: ["We’ve", "planted", "the", "seeds", "today"] },
      { kind: "missing", words: ["and", "tomorrow"] },
    ],
  );
});

test("a middle too large to align is shown as removed, then added", () => {
  const side = Math.ceil(Math.sqrt(MAX_DIFF_CELLS)) + 1;
  const a = Array.from({ length: side }, (_, i) => `a${i}`).join(" ");
  const b = Array.from({ length: side }, (_, i) => `b${i}`).join(" ");
  const parts = wordDiff(`start ${a} end`, `start ${b} end`);
  assert.deepEqual(
    parts.map((p) => [p.kind, p.words.length]),
    [
      ["same", 1],
      ["extra", side],
      ["missing", side],
      ["same", 1],
    ],
  );
});
