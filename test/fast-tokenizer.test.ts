import assert from "node:assert/strict";
import test from "node:test";
import { Parser, Tokenizer } from "htmlparser2";
import { fastTokenizer, fastTokenizerApplies } from "../src/render/fast-tokenizer.ts";
import { createRng, type Rng } from "../src/ml/prng.ts";
import { hugePage, parserFixtures } from "./helpers.ts";

/** Every parser event with its data and source offsets, as static.ts's options produce them. */
function events(html: string | string[], tokenizer: typeof Tokenizer): string[] {
  const log: string[] = [];
  const at = () => `@${parser.startIndex}-${parser.endIndex}`;
  const parser: Parser = new Parser(
    {
      onopentagname: (name) => log.push(`<${name}${at()}`),
      onattribute: (name, value, quote) =>
        log.push(`a ${name}=${JSON.stringify(value)} ${String(quote)}${at()}`),
      onopentag: (name, attrs, implied) => log.push(`> ${name} ${JSON.stringify(attrs)} ${implied}${at()}`),
      onclosetag: (name, implied) => log.push(`/${name} ${implied}${at()}`),
      ontext: (text) => log.push(`t ${JSON.stringify(text)}${at()}`),
      oncomment: (text) => log.push(`c ${JSON.stringify(text)}${at()}`),
      oncdatastart: () => log.push(`cdata${at()}`),
      onprocessinginstruction: (name, data) => log.push(`pi ${name} ${JSON.stringify(data)}${at()}`),
    },
    {
      decodeEntities: true,
      lowerCaseTags: true,
      lowerCaseAttributeNames: false,
      recognizeSelfClosing: false,
      Tokenizer: tokenizer,
    },
  );
  for (const chunk of typeof html === "string" ? [] : html) parser.write(chunk);
  parser.end(typeof html === "string" ? html : undefined);
  return log;
}

function assertSameEvents(html: string | string[], what: string): void {
  const stock = events(html, Tokenizer);
  const fast = events(html, fastTokenizer());
  if (stock.length === fast.length && stock.every((e, i) => e === fast[i])) return;
  const i = stock.findIndex((e, k) => e !== fast[k]);
  assert.fail(`${what}: event ${i} differs: stock ${stock[i]} vs fast ${fast[i]}`);
}

/** Pieces that drive the tokenizer through every state it has: tags, attributes, entities, raw text, comments, CDATA. */
const PIECES = [
  "<",
  ">",
  "</",
  "/>",
  "&",
  "&amp;",
  "&amp",
  "&#x41;",
  "&#65",
  "&notit;",
  "&lt",
  '"',
  "'",
  "=",
  " ",
  "\n",
  "a",
  "word ",
  "é",
  "😀",
  "<p>",
  "</p>",
  '<div class="x y">',
  "<a href='/q?a=1&b=2'>",
  '<img src=x alt="a &amp; b">',
  "<br/>",
  "<input value=a&amp>",
  "<script>",
  "</script>",
  "</script ",
  "<style>",
  "</style>",
  "<title>",
  "</title>",
  "<textarea>",
  "</textarea>",
  "<!--",
  "-->",
  "--!>",
  "<!-->",
  "<![CDATA[",
  "]]>",
  "<!doctype html>",
  "<?xml x?>",
  "<svg>",
  "</svg>",
  "<math>",
  "<plaintext>",
  "<noscript>",
  "</noscript>",
  "<table><tr><td>",
  "<li>",
  "<form>",
  "</form>",
  '<div data-long-name="v" Hidden>',
  "<x-el\tdata-a\n=b\fc\r/>",
  "</div\n>",
  "</DIV x>",
  "<a b=c d e=f>",
  "<p/x>",
  "<i\fid=x>",
  "</i\f>",
  "<b c\fd\r\ne>",
];

function fuzzHtml(rng: Rng, pieces: number): string {
  let html = "";
  for (let k = 0; k < pieces; k++) html += PIECES[rng.int(PIECES.length)];
  return html;
}

test("the fast tokenizer replaces htmlparser2's character loop (the installed version still has the methods it overrides)", () => {
  assert.ok(
    fastTokenizerApplies(),
    "htmlparser2's Tokenizer changed: src/render/fast-tokenizer.ts falls back to the slow stock tokenizer",
  );
  assert.notEqual(fastTokenizer(), Tokenizer);
});

test("fast tokenizer: the same events as htmlparser2's on the fixture pages and bad inputs", () => {
  for (const { html, what } of parserFixtures()) assertSameEvents(html, what);
  assertSameEvents(hugePage(2_000_000), "a 2 MB page");
  assertSameEvents("", "empty");
  assertSameEvents("no markup & no end", "text only");
  assertSameEvents('<p title="never closed', "unterminated attribute");
  assertSameEvents("<script>var s = '</scr' + 'ipt>'; if (a<b) {}</script>tail", "script body with `<`");
});

test("fast tokenizer: the same events as htmlparser2's on 400 fuzzed documents, whole and in chunks", () => {
  const rng = createRng(20261123);
  for (let k = 0; k < 400; k++) {
    const html = fuzzHtml(rng, 5 + rng.int(120));
    const shown = JSON.stringify(html.length > 300 ? `${html.slice(0, 300)}…` : html);
    assertSameEvents(html, `fuzz ${k}: ${shown}`);
    const cut1 = rng.int(html.length + 1);
    const cut2 = cut1 + rng.int(html.length - cut1 + 1);
    assertSameEvents(
      [html.slice(0, cut1), html.slice(cut1, cut2), html.slice(cut2)],
      `fuzz ${k} in chunks at ${cut1}, ${cut2}: ${shown}`,
    );
  }
});
