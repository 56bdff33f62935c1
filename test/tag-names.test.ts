import assert from "node:assert/strict";
import test from "node:test";
import { lowerCaseName } from "../src/render/tag-names.ts";

test("lowerCaseName is slice().toLowerCase() for known names in any case, unknown names and names beyond ASCII", () => {
  const page =
    "<DIV><div><Div><clipPath><x-el><X-EL><İ><ſvg><svg\u00e9><h7><annotation-XML><fefunca><feFuncA><ab><a>é😀";
  for (const m of page.matchAll(/<([^>]*)>/g)) {
    const start = (m.index ?? 0) + 1;
    const end = start + (m[1] ?? "").length;
    assert.equal(lowerCaseName(page, start, end), page.slice(start, end).toLowerCase(), m[1]);
  }
  assert.equal(lowerCaseName("", 0, 0), "");
});
