import assert from "node:assert/strict";
import test from "node:test";
import { Parser, Tokenizer } from "htmlparser2";
import { fastTokenizer } from "../src/render/fast-tokenizer.ts";
import { TreeBuilder } from "../src/render/tree-builder.ts";
import { createRng, type Rng } from "../src/ml/prng.ts";
import { hugePage, parserFixtures } from "./helpers.ts";

/**
 * The events htmlparser2's Parser hands a handler, with the options static.ts used with it, and
 * the end of each start tag (`>` or `/>`) as the tree builder reports it.
 */
function parserEvents(html: string): string[] {
  const log: string[] = [];
  class Logged extends Parser {
    override onopentagend(endIndex: number): void {
      super.onopentagend(endIndex);
      log.push(">");
    }
    override onselfclosingtag(endIndex: number): void {
      const foreign = this.isInForeignContext();
      super.onselfclosingtag(endIndex);
      if (foreign) log.push(">"); // otherwise Parser went through onopentagend
    }
  }
  new Logged(
    {
      onopentagname: (name) => log.push(`<${name}`),
      onattribute: (name, value) => log.push(`a ${name}=${JSON.stringify(value)}`),
      onclosetag: (name) => log.push(`/${name}`),
      ontext: (text) => log.push(`t ${JSON.stringify(text)}`),
    },
    {
      decodeEntities: true,
      lowerCaseTags: true,
      lowerCaseAttributeNames: false,
      recognizeSelfClosing: false,
      Tokenizer: fastTokenizer(),
    },
  ).end(html);
  return log;
}

function builderEvents(html: string, tokenizer: typeof Tokenizer): string[] {
  const log: string[] = [];
  new TreeBuilder({
    openTag: (name) => log.push(`<${name}`),
    attributeName: (page, start, end) => page.slice(start, end),
    attribute: (name, value) => log.push(`a ${name}=${JSON.stringify(value)}`),
    startTagEnd: () => log.push(">"),
    closeTag: (name) => log.push(`/${name}`),
    text: (text) => log.push(`t ${JSON.stringify(text)}`),
  }).build(html, tokenizer);
  return log;
}

/** The builder's events are Parser's, with pith's tokenizer and with htmlparser2's own (fast-tokenizer.ts's fallback). */
function assertSameEvents(html: string, what: string): void {
  const expected = parserEvents(html);
  for (const tokenizer of [fastTokenizer(), Tokenizer]) {
    const got = builderEvents(html, tokenizer);
    if (expected.length === got.length && expected.every((e, i) => e === got[i])) continue;
    const i = expected.findIndex((e, k) => e !== got[k]);
    assert.fail(
      `${what} (${tokenizer === Tokenizer ? "stock" : "fast"} tokenizer): event ${i} differs: Parser ${expected[i]} vs builder ${got[i]}`,
    );
  }
}

/** Pieces that reach each rule the builder copies from Parser: implied ends, void elements, foreign content, forms. */
const PIECES = [
  "<p>",
  "</p>",
  "<li>",
  "</li>",
  "<table>",
  "<tr>",
  "<td>",
  "</td>",
  "<th>",
  "<thead>",
  "<tbody>",
  "<option>",
  "<optgroup>",
  "<select>",
  "<input value=a&amp;b>",
  "<textarea>",
  "</textarea>",
  "<dd>",
  "<dt>",
  "<rt>",
  "<h1>",
  "</h2>",
  "<div>",
  "</div>",
  "<a href=x>",
  "</a>",
  "<svg>",
  "</svg>",
  "<math>",
  "</math>",
  "<mi>",
  "<foreignObject>",
  "</foreignObject>",
  "</FOREIGNOBJECT>",
  "<clipPath>",
  "</clippath>",
  "<desc>",
  "<title>",
  "</title>",
  "<image>",
  "</image>",
  "<path d=M0/>",
  "<g/>",
  "<br/>",
  "</br>",
  "</BR>",
  "<hr/>",
  "<p/>",
  "<![CDATA[",
  "]]>",
  "<!--",
  "-->",
  "<?x",
  "<!doctype html>",
  "<template shadowrootmode=open>",
  "</template>",
  "<body class=b>",
  "<html lang=fr>",
  "<head>",
  "<script>",
  "</script>",
  "<style>",
  "</style>",
  "<form id=f>",
  "<form class=g>",
  "</form>",
  "<DIV CLASS=Up>",
  "<İ>",
  "<x-el>",
  "&amp;",
  "&lt",
  "&#65;",
  "&notit;",
  "&",
  "<",
  ">",
  "</",
  "/>",
  '"',
  "'",
  "=",
  " ",
  "text",
  "é",
  "😀",
];

function fuzzHtml(rng: Rng): string {
  // a few pieces per document, so that rare sequences (<svg><foreignObject>…</foreignObject><style>) come up
  const vocabulary = Array.from({ length: 3 + rng.int(10) }, () => PIECES[rng.int(PIECES.length)] as string);
  let html = "";
  for (let k = 1 + rng.int(80); k > 0; k--) html += vocabulary[rng.int(vocabulary.length)];
  return html;
}

test("tree builder: the events of htmlparser2's Parser on the fixture pages and bad inputs", () => {
  for (const { html, what } of parserFixtures()) assertSameEvents(html, what);
  assertSameEvents(`${"<svg><foreignObject>".repeat(2_000)}x`, "2,000 nested foreign objects");
  assertSameEvents(hugePage(1_000_000), "a 1 MB page");
  assertSameEvents("", "empty");
  assertSameEvents("</p></br><form><form id=x></form>", "stray end tags, a form in a form");
  assertSameEvents(
    "<svg><foreignObject></foreignObject><style>a</svg><p>x",
    "an SVG end tag inside its HTML content",
  );
});

test("tree builder: Parser's events on pages deep enough that it counts open elements instead of searching them", () => {
  const open = (n: number, tag: string): string => `<${tag}>`.repeat(n);
  const close = (n: number, tag: string): string => `</${tag}>`.repeat(n);
  // deeper than DEEP_STACK (1,024), back under half of it, deep again: stray end tags, a form in a
  // form, end tags of elements deep below, an SVG end tag inside its HTML content
  const html = [
    "<body><form>",
    open(1_500, "div"),
    close(300, "span"),
    "<form id=inner>",
    "<p>a",
    close(1, "form"),
    close(1_200, "div"),
    "<b>",
    open(900, "section"),
    close(1, "p"),
    close(1, "b"),
    "text",
    "<svg>",
    open(1_100, "g"),
    "<foreignObject>",
    "<p>x",
    close(1, "foreignobject"),
    close(1, "svg"),
    open(2_000, "i"),
    close(5, "div"),
    close(1, "body"),
    "after",
    close(3_000, "i"),
    "<form>",
    close(1, "form"),
    "tail",
  ].join("");
  assertSameEvents(html, "a page going deeper than 1,024 open elements and back");
});

test("tree builder: the events of htmlparser2's Parser on 2,000 fuzzed documents", () => {
  const rng = createRng(20261126);
  for (let k = 0; k < 2_000; k++) {
    const html = fuzzHtml(rng);
    assertSameEvents(html, `fuzz ${k}: ${JSON.stringify(html)}`);
  }
});

test("tree builder: 100,000 unclosed <b><i> pairs cost time in proportion", () => {
  const started = performance.now();
  let opened = 0;
  let closed = 0;
  const ignore = (): void => {};
  new TreeBuilder({
    openTag: () => opened++,
    attributeName: () => null,
    attribute: ignore,
    startTagEnd: ignore,
    closeTag: () => closed++,
    text: ignore,
  }).build("<b><i>x".repeat(100_000));
  assert.equal(opened, 200_000);
  assert.equal(closed, 200_000);
  assert.ok(performance.now() - started < 5_000, "the open-element stack moved on every tag");
});
