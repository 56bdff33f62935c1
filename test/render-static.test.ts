import assert from "node:assert/strict";
import test from "node:test";
import { buildTree, childrenOf, outermost } from "../src/dom/tree.ts";
import { nodePath } from "../src/dom/path.ts";
import { textOf } from "../src/dom/text.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { xhtmlAsHtml } from "../src/render/xhtml.ts";
import { SNAPSHOT_VERSION } from "../src/types.ts";
import { deeplyNested, fixtureText, hugePage, pageFromHtml } from "./helpers.ts";

const SMALL = `<!doctype html><html lang="fr"><head><title> Le  titre </title><style>p{}</style><script>var x = "<p>not text</p>";</script></head>
<body><div id="main" class="a b" data-x="dropped" onclick="dropped()"><h1>Titre</h1><p>Un <a href="/x">lien</a> &amp; du texte.</p>
<p hidden>caché</p><p style="display: none">aussi caché</p><div aria-hidden="true"><span>masqué</span></div></div>
<noscript><div class="post">Discourse thread in noscript</div></noscript><svg><text>svg text</text></svg></body></html>`;

const XHTML_CHAPTER = `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Ch 1</title><script src="x.js"/><style type="text/css"/></head>
<body><h1>Chapter One</h1><div class="sep"/><p><![CDATA[Fish & <chips>]]> and the story goes on.</p><script>//<![CDATA[
var a = 1 < 2;
//]]></script></body></html>`;

test("static snapshot: parents precede children, tags, kept attributes only", () => {
  const s = staticSnapshot(pageFromHtml(SMALL));
  assert.equal(s.version, SNAPSHOT_VERSION);
  assert.equal(s.mode, "static");
  assert.equal(s.title, "Le titre");
  assert.equal(s.lang, "fr");
  s.nodes.forEach((n, i) => assert.ok(n.parent < i, `node ${i} has parent ${n.parent}`));
  const main = s.nodes.find((n) => n.attrs?.["id"] === "main");
  assert.deepEqual(main?.attrs, { id: "main", class: "a b" });
  assert.equal(s.nodes.filter((n) => n.tag === "html").length, 1);
  assert.equal(s.nodes[0]?.attrs?.["lang"], "fr");
  assert.equal(
    s.nodes.some((n) => n.box !== undefined || n.style !== undefined),
    false,
    "no geometry in static mode",
  );
});

test("static snapshot: script/style bodies dropped, entities decoded, svg children dropped, noscript kept", () => {
  const s = staticSnapshot(pageFromHtml(SMALL));
  const texts = s.nodes.filter((n) => n.type === 3).map((n) => n.text);
  assert.ok(!texts.some((t) => t?.includes("not text")));
  assert.ok(!texts.some((t) => t?.includes("svg text")));
  assert.ok(texts.includes(" & du texte."));
  assert.ok(texts.includes("Discourse thread in noscript"));
  assert.ok(s.nodes.some((n) => n.tag === "svg"));
});

test("static snapshot: escaped markup text in <noscript> is hidden; noscript markup and plain messages are not", () => {
  const html = `<html><body><noscript>&lt;div style="position:absolute"&gt;&lt;img src="https://pixel.example/b?P=1"&gt;&lt;/div&gt;</noscript>
<noscript><p>Posts are below.</p></noscript><noscript>Please enable JavaScript.</noscript><p>&lt;b&gt; is the bold tag.</p></body></html>`;
  const s = staticSnapshot(pageFromHtml(html));
  const visible = s.nodes
    .filter((n) => n.type === 3 && n.visible)
    .map((n) => n.text)
    .join(" ");
  assert.doesNotMatch(visible, /pixel\.example/);
  assert.match(visible, /Posts are below/);
  assert.match(visible, /Please enable JavaScript/);
  assert.match(visible, /<b> is the bold tag/, "escaped markup outside <noscript> is prose");
});

test("static snapshot: hidden, display:none and aria-hidden subtrees are invisible; text follows its parent", () => {
  const s = staticSnapshot(pageFromHtml(SMALL));
  const tree = buildTree(s);
  const text = textOf(s, tree, [0]);
  assert.match(text, /Titre\nUn lien & du texte\./);
  assert.doesNotMatch(text, /caché|masqué/);
  assert.equal(textOf(s, tree, [0], { visibleOnly: false }).includes("aussi caché"), true);
});

test("tree index: subtree ranges, children, depth, height, outermost, paths", () => {
  const s = staticSnapshot(
    pageFromHtml("<html><body><div id=a><p>x</p><p>y</p></div><ul><li>1</li><li>2</li></ul></body></html>"),
  );
  const tree = buildTree(s);
  const body = s.nodes.findIndex((n) => n.tag === "body");
  const div = s.nodes.findIndex((n) => n.attrs?.["id"] === "a");
  const ps = s.nodes.flatMap((n, i) => (n.tag === "p" ? [i] : []));
  assert.deepEqual([...childrenOf(tree, div)], ps);
  assert.equal(tree.end[div], (ps[1] as number) + 2);
  assert.equal(tree.depth[div], (tree.depth[body] as number) + 1);
  assert.equal(tree.height[div], 2);
  assert.deepEqual(outermost(tree, [ps[1] as number, div, ps[0] as number]), [div]);
  assert.equal(nodePath(s, tree, ps[1] as number), "html>body>div#a>p:2");
  const lis = s.nodes.flatMap((n, i) => (n.tag === "li" ? [i] : []));
  assert.equal(nodePath(s, tree, lis[0] as number), "html>body>ul>li:1");
});

test("10,000-level nesting: snapshot, tree and text without stack overflow", () => {
  const s = staticSnapshot(pageFromHtml(deeplyNested(10_000)));
  const tree = buildTree(s);
  assert.ok(s.nodes.length > 10_000);
  assert.ok((tree.height[0] as number) >= 10_000);
  assert.equal(textOf(s, tree, [0]), "deep text at the bottom");
  const deep = nodePath(s, tree, s.nodes.length - 1);
  assert.match(deep, /^…>(?:div>)+p>#text$/, "a deep node's path keeps its last parts");
  assert.equal(deep.split(">").length, 1 + 32);
});

test("a 10 MB page becomes a snapshot with every paragraph", () => {
  const html = hugePage(10 * 1024 * 1024);
  const s = staticSnapshot(pageFromHtml(html));
  const paragraphs = s.nodes.filter((n) => n.tag === "p").length;
  assert.equal(paragraphs, (html.match(/<p>/g) ?? []).length);
  assert.ok(paragraphs > 90_000);
});

test("empty and text-only documents give a valid snapshot", () => {
  const empty = staticSnapshot(pageFromHtml(""));
  assert.equal(empty.nodes.length, 1);
  assert.equal(textOf(empty, buildTree(empty), [0]), "");
  const bare = staticSnapshot(pageFromHtml("just words, no markup"));
  assert.equal(textOf(bare, buildTree(bare), [0]), "just words, no markup");
});

test("a page without <body> (valid HTML) or plain text gets the body a browser implies: its text is in it, head elements stay out", () => {
  for (const html of [
    "<!doctype html>\n<title>T</title>\n<h1>Release notes</h1>\nVersion 2.0 is <b>twice as fast</b>.\n<p>Thanks.",
    "<html><head><title>T</title></head><h1>Release notes</h1>\nVersion 2.0 is <b>twice as fast</b>.\n<p>Thanks.</html>",
  ]) {
    const s = staticSnapshot(pageFromHtml(html));
    const tree = buildTree(s);
    const body = s.nodes.findIndex((n) => n.tag === "body");
    assert.ok(body > 0, "a body is implied");
    assert.equal(textOf(s, tree, [body]), "Release notes\nVersion 2.0 is twice as fast.\nThanks.");
    assert.equal(s.title, "T");
    assert.ok(
      s.nodes.every((n, i) => n.tag !== "title" || tree.parent[i] !== body),
      "the title stays out of the body",
    );
  }
  const bare = staticSnapshot(pageFromHtml("just words"));
  assert.equal(
    nodePath(
      bare,
      buildTree(bare),
      bare.nodes.findIndex((n) => n.type === 3),
    ),
    "html>body>#text",
  );
  const frames = staticSnapshot(pageFromHtml("<html><frameset><frame src=a.html></frameset></html>"));
  assert.equal(
    frames.nodes.some((n) => n.tag === "body"),
    false,
    "a frameset implies no body",
  );
});

test("an XHTML document (.xhtml, or an XML declaration with the XHTML namespace) is read as XML: <script/> and <style/> close, CDATA is text", () => {
  for (const input of [
    { ...pageFromHtml(XHTML_CHAPTER), source: "book/ch1.xhtml" },
    pageFromHtml(XHTML_CHAPTER, "saved-page"),
  ]) {
    const s = staticSnapshot(input);
    assert.equal(
      textOf(s, buildTree(s), [0]),
      "Chapter One\nFish & <chips> and the story goes on.",
      input.source,
    );
  }
  // the same markup served as HTML (no prolog, not a .xhtml file) is parsed as a browser parses HTML: the <style/> stays open
  const html = staticSnapshot(pageFromHtml(XHTML_CHAPTER.replace(/^<\?xml[^>]*>\n/, "")));
  assert.equal(textOf(html, buildTree(html), [0]), "");
  assert.equal(xhtmlAsHtml(`<p>a<br/>b<span class="x/y"/>c</p>`), `<p>a<br/>b<span class="x/y"></span>c</p>`);
  assert.equal(
    xhtmlAsHtml(`<p>a <![CDATA[b]]> c<br></br>d</p>`),
    `<p>a b c<br>d</p>`,
    "the space before a CDATA stays; <br></br> is one break",
  );
});

test("the bundled sample page: text has one line per block", () => {
  const s = staticSnapshot(pageFromHtml(fixtureText("pages/article.html")));
  const text = textOf(s, buildTree(s), [0]);
  assert.match(text, /^Home\nNews\nScience/m);
  assert.match(text, /\nWhy rivers meander\nBy Ada Lovelace, 12 March 2024\nRivers rarely run straight/);
});

test("markup repairs: a stray <![CDATA[ and an unclosed <title> do not swallow the page", () => {
  const cdata = staticSnapshot(
    pageFromHtml(
      "<html><body><p>first</p><![CDATA[\n<div><p>second post</p></div><p>third</p></body></html>",
    ),
  );
  assert.equal(textOf(cdata, buildTree(cdata), [0]), "first\nsecond post\nthird");
  const title = staticSnapshot(
    pageFromHtml(
      "<html><head><title>Broken title\nvar x = 1;</script></head><body><p>The article body.</p></body></html>",
    ),
  );
  assert.equal(title.title, "Broken title");
  assert.match(textOf(title, buildTree(title), [0]), /The article body\./);
});

test("body content inside an unclosed <head> starts the body, as in a browser", () => {
  const s = staticSnapshot(
    pageFromHtml(
      "<html><head><title>t</title><meta name=x><table><tr><td><p>Story text.</p></td></tr></table></head><body class=b><p>More.</p></body></html>",
    ),
  );
  const tree = buildTree(s);
  assert.equal(textOf(s, tree, [0]), "Story text.\nMore.");
  assert.equal(s.nodes.filter((n) => n.tag === "body").length, 1);
  const p = s.nodes.findIndex((n) => n.tag === "p");
  assert.match(nodePath(s, tree, p), /^html>body>table>tr>td>p$/);
});

test("a self-closed <iframe/> in <noscript> does not swallow the page; React streamed boundaries are visible", () => {
  const gtm = staticSnapshot(
    pageFromHtml(
      '<html><body><noscript><iframe src="https://gtm.example/ns" height="0" width="0"/></noscript><p>after</p></body></html>',
    ),
  );
  assert.equal(textOf(gtm, buildTree(gtm), [0]), "after");
  const streamed = staticSnapshot(
    pageFromHtml(
      '<html><body><template id="B:0"></template><div hidden id="S:0"><p>Streamed article.</p></div><div hidden><p>really hidden</p></div></body></html>',
    ),
  );
  assert.equal(textOf(streamed, buildTree(streamed), [0]), "Streamed article.");
});

test("a page hidden whole by a script's starting state (anti-flicker wrapper, aria-hidden main) is read; small hidden parts stay hidden", () => {
  const article = "<p>" + "Rivers carve their valleys over many thousands of years. ".repeat(12) + "</p>";
  const wrapped = staticSnapshot(
    pageFromHtml(
      `<html><head><title>t</title></head><body><div style="visibility:hidden;min-height:100vh"><nav style="display:none">Menu</nav>${article}</div><input type="hidden" value="secret"></body></html>`,
    ),
  );
  const text = textOf(wrapped, buildTree(wrapped), [0]);
  assert.match(text, /Rivers carve their valleys/);
  assert.match(text, /Menu/, "inline display:none is a script's state too on such a page");
  assert.doesNotMatch(text, /secret|\bt\b/, "head elements and hidden inputs stay hidden");
  const modal = staticSnapshot(
    pageFromHtml(
      `<html><body><main aria-hidden="true">${article}</main><div role="dialog">Accept cookies?</div></body></html>`,
    ),
  );
  assert.match(textOf(modal, buildTree(modal), [0]), /Rivers carve/);
  // a normal page with a hidden menu keeps the menu hidden
  const normal = staticSnapshot(
    pageFromHtml(`<html><body><div aria-hidden="true">Off-canvas menu links</div>${article}</body></html>`),
  );
  const normalText = textOf(normal, buildTree(normal), [0]);
  assert.match(normalText, /Rivers carve/);
  assert.doesNotMatch(normalText, /Off-canvas/);
});

test("static snapshot: attributes belong to their own start tag (ignored second <form>, duplicates, merged <body>, `/>`, svg)", () => {
  const html =
    `<html lang=en><body class=a><form id=f1 class=x><form id=f2 class=y hidden><p id=p1 id=p2 class="k">x</p></form>` +
    `<body class=b data-x=1><div hidden/>after</div><input type=hidden name=q><svg aria-hidden=true><g class=z hidden><text>s</text></g></svg><p>t</p></body></html>`;
  const s = staticSnapshot(pageFromHtml(html));
  const tagged = (tag: string) => s.nodes.filter((n) => n.tag === tag);
  // the parser ignores a <form> inside a form: its attributes must not land on the open one, nor hide what follows
  assert.deepEqual(
    tagged("form").map((n) => n.attrs),
    [{ id: "f1", class: "x" }],
  );
  assert.deepEqual(
    tagged("p")[0]?.attrs,
    { id: "p1", class: "k" },
    "the first of two same-named attributes wins; unknown ones are dropped",
  );
  assert.equal(tagged("p")[0]?.visible, true);
  assert.deepEqual(
    tagged("body").map((n) => n.attrs),
    [{ class: "b" }],
    "a second <body> merges its kept attributes into the first",
  );
  assert.equal(s.lang, "en");
  const div = tagged("div")[0];
  assert.equal(div?.visible, false, "`<div hidden/>` is an open div, hidden");
  assert.equal(s.nodes.find((n) => n.text === "after")?.visible, false);
  assert.equal(tagged("input")[0]?.visible, false);
  assert.deepEqual(tagged("svg")[0]?.attrs, { "aria-hidden": "true" });
  assert.equal(tagged("g").length, 0, "svg children are dropped, their attributes with them");
  assert.equal(tagged("p")[1]?.visible, true);
});

test("unclosed elements: 20,000 open <b><i> pairs give the same text and depth as a browser's nesting", () => {
  const page = staticSnapshot(pageFromHtml(`<html><body>${"<p><b><i>x ".repeat(20_000)}</body></html>`));
  const tree = buildTree(page);
  assert.equal(textOf(page, tree, [0]).split("\n").length, 20_000, "one line per paragraph");
  assert.ok(
    tree.depth.reduce((a, d) => Math.max(a, d), 0) > 20_000,
    "the formatting elements stay open and nest",
  );
});

test("a second <body> or <html> tag, or a stray <head>, inside the body keeps the tree whole: each node's parent is the innermost subtree around it", () => {
  for (const html of [
    `<html><body><div id="d"><p>one</p><body class="late"><p>two</p></div><p>three</p></body></html>`,
    `<html><body><div id="d"><p>one</p><html lang="fr"><p>two</p></div><p>three</p></body></html>`,
    `<html><head><title>t</title></head><body><div id="d"><p>one</p><head><meta charset="utf-8"></head><p>two</p></div><p>three</p></body></html>`,
  ]) {
    const page = staticSnapshot(pageFromHtml(html));
    const tree = buildTree(page);
    const open: number[] = [];
    for (let i = 0; i < page.nodes.length; i++) {
      while (open.length && (tree.end[open[open.length - 1] as number] as number) <= i) open.pop();
      assert.equal(
        tree.parent[i],
        open.length ? open[open.length - 1] : -1,
        `${html}\nnode ${i} (${page.nodes[i]?.tag})`,
      );
      open.push(i);
    }
    const div = page.nodes.findIndex((n) => n.attrs?.["id"] === "d");
    assert.equal(
      textOf(page, tree, [div]),
      "one\ntwo",
      "the text after the stray tag stays in the <div>, as a browser places it",
    );
  }
});

/** Visible text of a snapshot, one string per text node, with its parent's tag. */
function visibleTexts(s: {
  nodes: { type: number; visible: boolean; text?: string; parent: number; tag: string }[];
}): string[] {
  return s.nodes
    .filter((n) => n.type === 3 && n.visible && n.text?.trim())
    .map((n) => `${s.nodes[n.parent]?.tag}: ${n.text?.trim()}`);
}

test("declarative shadow DOM: a host's shadow template is page text under #shadow-root, before the light children; inert templates stay hidden", () => {
  const s = staticSnapshot(pageFromHtml(fixtureText("pages/shadow-dom.html")));
  s.nodes.forEach((n, i) => assert.ok(n.parent < i));
  const texts = visibleTexts(s);
  assert.ok(texts.includes("h1: The Ridgeline 25 trail pack"), texts.join("\n"));
  assert.ok(texts.includes("p: Closed roots attach in the parser too."));
  const shadow = texts.findIndex((t) => t.startsWith("p: The Ridgeline 25 is a light daypack"));
  const light = texts.findIndex((t) => t.startsWith("p: Made from recycled nylon"));
  assert.ok(shadow >= 0 && light > shadow, "shadow content first, then the host's light children");
  for (const inert of [
    "never attaches",
    "second root",
    "inside a plain template",
    "cannot host",
    "invalid mode",
    "font-size",
  ]) {
    assert.ok(!texts.some((t) => t.includes(inert)), `${inert} must stay hidden`);
  }
  const roots = s.nodes.filter((n) => n.tag === "#shadow-root");
  assert.equal(roots.length, 2);
  assert.deepEqual(
    roots.map((r) => s.nodes[r.parent]?.tag),
    ["product-details", "div"],
  );
  // the tags after the templates still nest where they should: </template> closed the right element
  const footer = s.nodes.findIndex((n) => n.tag === "footer");
  assert.equal(s.nodes[s.nodes[footer]?.parent ?? -1]?.tag, "body");
  assert.match(
    textOf(s, buildTree(s), [0]),
    /The Ridgeline 25 is a light daypack[^]*Made from recycled nylon[^]*Copyright Ridgeline Outdoor/,
  );
});

test("MathML: a formula is one text child of <math> as a browser shows it; annotations, layout whitespace and hidden copies are not text", () => {
  const html = `<p>It states that <math><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup>
    <mo>+</mo><mn>1</mn><mo>=</mo><mn>0</mn></math>, linking five constants.</p>
<math display="block"><semantics><mrow><mi>a</mi><mtext>  for  all </mtext><mi>b</mi><mspace/></mrow><annotation encoding="application/x-tex">a \\text{ for all } b</annotation></semantics></math>
<span style="display:none"><math><mi>hidden</mi></math></span><p>After <math></math>the end.</p>`;
  const snap = staticSnapshot(pageFromHtml(html, "math"));
  const maths = snap.nodes.map((n, i) => [n, i] as const).filter(([n]) => n.tag === "math");
  assert.equal(maths.length, 4);
  const childTexts = maths.map(([, i]) =>
    snap.nodes.filter((n) => n.parent === i).map((n) => [n.type, n.text, n.visible]),
  );
  assert.deepEqual(childTexts, [
    [[3, "eiπ+1=0", true]],
    [[3, "a for all b", true]],
    [[3, "hidden", false]],
    [],
  ]);
  assert.equal(
    textOf(snap, buildTree(snap), [0]),
    "It states that eiπ+1=0, linking five constants.\na for all b\nAfter the end.",
  );
  snap.nodes.forEach((n, i) => assert.ok(n.parent < i));
});
