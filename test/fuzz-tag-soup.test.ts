/**
 * Random tag soup (seeded, so a failure reproduces): unclosed and stray tags, CDATA, comments,
 * NULs and lone surrogates, raw-text and foreign elements, hostile attributes. Every extractor
 * that needs no other pages of the site must return, every output format must render it, and every
 * word of the learned pipeline's text must come from the page's visible text (as the pipeline read
 * it: with markup-hidden text, Extraction.view).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import "../src/methods.ts";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";
import { extractorNames, getExtractor } from "../src/extractors.ts";
import { formatExtraction } from "../src/output/index.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { FORMATS } from "../src/output/index.ts";
import { createRng } from "../src/ml/prng.ts";

const TAGS = [
  "div",
  "p",
  "a",
  "span",
  "table",
  "tr",
  "td",
  "li",
  "ul",
  "ol",
  "h1",
  "h2",
  "article",
  "main",
  "nav",
  "footer",
  "script",
  "style",
  "noscript",
  "iframe",
  "svg",
  "math",
  "template",
  "pre",
  "code",
  "b",
  "i",
  "form",
  "select",
  "option",
  "textarea",
  "title",
  "head",
  "body",
  "html",
  "br",
  "img",
  "!--",
  "![CDATA[",
  "plaintext",
  "xmp",
  "object",
  "button",
  "figure",
  "section",
  "aside",
];
const ATTRS = [
  'class="a b c"',
  'id="x"',
  "hidden",
  'style="display:none"',
  'aria-hidden="true"',
  'href="javascript:x"',
  'src="data:x"',
  'lang="fr"',
  'role="main"',
  'itemprop="articleBody"',
  'onclick="x"',
  "class",
  '="',
  "'",
  "data-x=\u0000",
];
const WORDS = [
  "the",
  "river",
  "é",
  "日本",
  "<",
  ">",
  "&amp;",
  "&#0;",
  "&#xD800;",
  "\u0000",
  "\ud800",
  "word",
  "  ",
  "\n",
  "...",
  "—",
  "&nbsp;",
];

function tagSoup(next: (n: number) => number): string {
  let s = next(3) ? "<!doctype html>" : "";
  for (let k = 20 + next(300); k > 0; k--) {
    const r = next(10);
    if (r < 4)
      s += `<${TAGS[next(TAGS.length)]}${next(2) ? ` ${ATTRS[next(ATTRS.length)]}` : ""}${next(8) ? "" : "/"}>`;
    else if (r < 6) s += `</${TAGS[next(TAGS.length)]}>`;
    else s += Array.from({ length: 1 + next(12) }, () => WORDS[next(WORDS.length)]).join(" ");
  }
  return s;
}

test(
  "tag soup: every site-free extractor returns, every format renders, and ml's words come from the page's visible text",
  { timeout: 120_000 },
  async () => {
    const rng = createRng(21);
    const next = (n: number): number => rng.int(n);
    const extractors = extractorNames()
      .map((n) => getExtractor(n))
      .filter((e) => !e.needsSite && e.name !== "oracle");
    assert.ok(
      extractors.some((e) => e.name === "ml") && extractors.length >= 5,
      extractors.map((e) => e.name).join(","),
    );
    let withText = 0;
    for (let i = 0; i < 400; i++) {
      const html = tagSoup(next);
      const page = staticSnapshot({
        id: `soup-${i}`,
        source: "soup",
        url: null,
        html,
        encoding: "utf-8",
        remote: false,
      });
      const tree = buildTree(page);
      const roots = [...tree.parent.keys()].filter((k) => tree.parent[k] === -1);
      // a word of a chosen node may sit against a neighbour's in the whole text (">river")
      const visible = textOf(page, tree, roots);
      for (const extractor of extractors) {
        const e = await extractor.extract(page, {
          ...(extractor.name === "ml" ? { mode: "static" as const } : {}),
        });
        for (const format of FORMATS) assert.equal(typeof formatExtraction(format, page, tree, e), "string");
        if (extractor.name !== "ml") continue;
        if (e.text) withText++;
        // the text the extractor read: the bundled static model reads markup-hidden text too (src/pipeline/hidden-text.ts)
        const read = e.view ? textOf(e.view, tree, roots) : visible;
        for (const w of e.text.split(/\s+/).filter(Boolean))
          assert.ok(read.includes(w), `soup ${i}: "${w}" is not in the page's visible text`);
      }
    }
    assert.ok(
      withText > 100,
      `ml kept text on ${withText} of 400 soups: the word check must not pass on empty outputs`,
    );
  },
);
