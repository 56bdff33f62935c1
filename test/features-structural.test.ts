/** The structural-node rule (src/features/structural.ts) as a table: HTML → structural nodes. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { textOf, words } from "../src/dom/text.ts";
import { buildTree, outermost } from "../src/dom/tree.ts";
import { analyzeStructure } from "../src/features/structural.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { PageSnapshot } from "../src/types.ts";

function snap(body: string): PageSnapshot {
  return staticSnapshot({
    id: "t",
    source: "t",
    url: null,
    html: `<html><body>${body}</body></html>`,
    encoding: "utf-8",
    remote: false,
  });
}

/** Structural nodes as "tag" or "tag*" (* = leaf segment), document order. */
function describe(body: string): string {
  const page = snap(body);
  const s = analyzeStructure(page, buildTree(page));
  return [...s.nodes].map((i) => page.nodes[i]!.tag + (s.leaf[i] ? "*" : "")).join(" ");
}

const TABLE: Array<[string, string, string]> = [
  ["block children", "<div><p>a</p><p>b</p></div>", "body div p* p*"],
  ["inline children stay inside their block", "<div>text <b>bold</b> <a href=x>link</a></div>", "body div*"],
  [
    "anonymous blocks: inline runs beside blocks",
    "<div>head <p>para</p> tail</div>",
    "body div #text* p* #text*",
  ],
  ["inline element beside a block", "<div><span>x</span><div>y</div></div>", "body div span* div*"],
  ["br and hr are not segments", "<p>line<br>line2</p><hr>", "body p*"],
  [
    "inline wrapping blocks (teaser card)",
    "<a href=x><div>card</div><div>text</div></a>",
    "body a div* div*",
  ],
  ["hidden subtrees are skipped", '<div style="display:none"><p>x</p></div><p>y</p>', "body p*"],
  ["scripts are not content", "<div><script>var a = 1;</script><p>y</p></div>", "body div p*"],
  ["lists", "<ul><li>a</li><li>b <a href=x>c</a></li></ul>", "body ul li* li*"],
  ["tables", "<table><tr><td>a</td><td>b</td></tr></table>", "body table tr td* td*"],
  ["whitespace-only text is not a segment", "<div>  <p>x</p>  </div>", "body div p*"],
  ["inline-only body is one leaf", "<span>x</span> y", "body*"],
  ["empty blocks are segments without text", "<div></div><p>x</p>", "body div* p*"],
];

for (const [name, body, expected] of TABLE) {
  test(`structural: ${name}`, () => assert.equal(describe(body), expected));
}

test("structural: containers own no text, so the leaves tile the page's words", () => {
  const page = snap(
    "<div>a <b>b</b><section><h2>c d</h2>e<ul><li>f</li></ul><a href=x><div>g</div>h</a></section>i</div><p>j</p>",
  );
  const tree = buildTree(page);
  const s = analyzeStructure(page, tree);
  const leaves = [...s.nodes].filter((i) => s.leaf[i]);
  assert.deepEqual(words(textOf(page, tree, outermost(tree, leaves))), words(textOf(page, tree, [0])));
  assert.deepEqual(words(textOf(page, tree, [0])), ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]);
  for (const i of s.nodes) {
    if (s.leaf[i]) continue;
    const inLeaves = leaves
      .filter((l) => l > i && l < tree.end[i]!)
      .reduce((k, l) => k + words(textOf(page, tree, [l])).length, 0);
    assert.equal(
      inLeaves,
      words(textOf(page, tree, [i])).length,
      `container ${page.nodes[i]!.tag} holds only its leaves' words`,
    );
  }
});

test("textOf with maxChars: the same start as the whole text, whole lines only, and it stops reading (a trace excerpt of a 5,000-paragraph subtree reads two lines)", () => {
  const html = `<body><div><h2>Title of <b>the</b> list</h2>${Array.from({ length: 5000 }, (_, k) => `<p>Paragraph ${k} with <i>some</i> words in it.</p>`).join("")}<pre>a
  b</pre></div></body>`;
  const page = staticSnapshot({ id: "t", source: "t", url: null, html, encoding: "utf-8", remote: false });
  const tree = buildTree(page);
  const div = page.nodes.findIndex((n) => n.tag === "div");
  const full = textOf(page, tree, [div]);
  for (const maxChars of [0, 10, 60, 61, 200]) {
    const cut = textOf(page, tree, [div], { maxChars });
    assert.equal(cut.slice(0, maxChars), full.slice(0, maxChars), `maxChars ${maxChars}`);
    assert.ok(full.startsWith(cut), "whole lines of the full text");
    assert.ok(
      cut.split("\n").length <= Math.ceil(maxChars / 20) + 1,
      `${cut.split("\n").length} lines for maxChars ${maxChars}`,
    );
  }
  assert.equal(textOf(page, tree, [div], { maxChars: Infinity }), full);
  assert.equal(
    textOf(page, tree, [div], { maxChars: full.length }),
    full,
    "a limit the text does not pass changes nothing",
  );
  assert.equal(
    textOf(page, tree, [div], { preformatted: true, maxChars: 1e9 }),
    textOf(page, tree, [div], { preformatted: true }),
  );
});
