/**
 * Chromium renderer tests, against the real system Chromium (CI installs it). When no browser
 * is found the suite FAILS with BrowserNotFoundError's one-line fix: it never skips.
 *
 * Run: node --import tsx --test test/render-chromium.test.ts
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { releaseBrowser } from "../src/render/browser-processes.ts";
import { ChromiumRenderer } from "../src/render/chromium.ts";
import { allowRequest } from "../src/render/chromium-policy.ts";
import { injectBase } from "../src/render/chromium-tabs.ts";
import { BROWSER_NOT_FOUND_MESSAGE, BrowserNotFoundError, findChromium } from "../src/render/find-browser.ts";
import puppeteer from "puppeteer-core";
import {
  decodeWalk,
  IN_PAGE_WALK_SOURCE,
  walkConfig,
  walkExpression,
  type WalkResult,
} from "../src/render/in-page.ts";
import { staticSnapshot } from "../src/render/static.ts";
import { buildTree } from "../src/dom/tree.ts";
import { textOf as readerText } from "../src/dom/text.ts";
import { formatExtraction } from "../src/output/index.ts";
import type { PageInput, PageSnapshot, SnapshotNode } from "../src/types.ts";
import { eventually } from "./helpers.ts";

/** A timeout must fire, not hang: the bound is the limit plus a generous margin for a loaded machine (not a speed test). */
const HANG_MARGIN_MS = 10_000;

function page(id: string, html: string, extra: Partial<PageInput> = {}): PageInput {
  return { id, source: `test:${id}`, url: null, html, encoding: "utf-8", remote: false, ...extra };
}

function byTag(snap: PageSnapshot, tag: string): SnapshotNode[] {
  return snap.nodes.filter((n) => n.tag === tag);
}

function textOf(snap: PageSnapshot): string {
  return snap.nodes.map((n) => n.text ?? "").join("");
}

/** A 127.0.0.1 server that counts requests; `hang` paths never answer. */
interface CountingServer {
  server: Server;
  base: string;
  hits: string[];
}

async function countingServer(): Promise<CountingServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    if (req.url?.startsWith("/hang")) return; // never answers
    res.writeHead(200, { "content-type": req.url?.endsWith(".css") ? "text/css" : "text/plain" });
    res.end("p { color: red }");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}`, hits };
}

/** A 127.0.0.1 server whose scripts write the path they were loaded from into #t. */
async function countingScripts(): Promise<CountingServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/javascript" });
    res.end(`document.getElementById("t").textContent = "loaded ${req.url ?? ""}";`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}`, hits };
}

/** A page that references the server in every way a page can fetch something. */
function resourcePage(base: string): string {
  return `<!doctype html><html><head>
<link rel="stylesheet" href="http://example.com/x.css">
<link rel="stylesheet" href="${base}/x.css">
<link rel="preload" as="style" href="${base}/preload.css">
<link rel="preconnect" href="${base}">
<style>@import url("${base}/import.css"); @font-face { font-family: f; src: url("${base}/font.woff2"); }</style>
<script src="${base}/script.js"></script>
</head><body style="font-family: f; background: url('${base}/bg.png')">
<p>local page</p><img src="${base}/img.png"><iframe src="${base}/frame.html"></iframe>
<video src="${base}/video.mp4"></video>
<script>fetch("${base}/fetch"); new Image().src = "${base}/js-img.png";</script>
</body></html>`;
}

let renderer: ChromiumRenderer;
let server: CountingServer;

describe("findChromium", () => {
  test("names the fix in one line when there is no browser", () => {
    assert.throws(
      () => findChromium({}, ["/nonexistent/chromium"]),
      (err: unknown) => {
        assert.ok(err instanceof BrowserNotFoundError);
        assert.equal(err.message, BROWSER_NOT_FOUND_MESSAGE);
        assert.ok(!err.message.includes("\n"));
        assert.match(err.message, /apt-get install -y chromium/);
        return true;
      },
    );
  });

  test("an environment variable pointing at nothing is reported, not ignored", () => {
    assert.throws(
      () => findChromium({ PUPPETEER_EXECUTABLE_PATH: "/nonexistent/chrome" }, []),
      /PUPPETEER_EXECUTABLE_PATH=\/nonexistent\/chrome/,
    );
  });

  test("the environment wins over system paths", () => {
    const found = findChromium();
    assert.equal(findChromium({ CHROME_PATH: found }, []), found);
  });
});

describe("in-page walk source", () => {
  test("is plain JavaScript with no bundler helpers (tsx would inject __name into functions)", () => {
    assert.ok(!IN_PAGE_WALK_SOURCE.includes("__name"));
    assert.ok(!/\b__\w+\(/.test(IN_PAGE_WALK_SOURCE));
    // It compiles as a standalone expression (no DOM here, so it is not called).
    assert.equal(typeof new Function(`return (${IN_PAGE_WALK_SOURCE});`)(), "function");
    assert.doesNotThrow(() => new Function(`return () => ${walkExpression(walkConfig(false))};`));
  });
});

describe("in-page walk in Chromium", () => {
  test("a page past the node cap is refused in the page, with the static parser's message", async () => {
    const browser = await puppeteer.launch({
      executablePath: findChromium(),
      headless: true,
      args: ["--no-sandbox"],
    });
    try {
      const tab = await browser.newPage();
      await tab.setJavaScriptEnabled(false);
      await tab.setContent(`<html><body>${"<p>x</p>".repeat(40)}</body></html>`);
      const run = (maxNodes: number) =>
        tab.evaluate(walkExpression({ ...walkConfig(false), maxNodes })) as Promise<WalkResult>;
      const whole = await run(1000);
      assert.equal(decodeWalk(whole).length, 83, "html, head, body, 40 p and their 40 texts");
      const capped = await run(50);
      assert.equal(capped.p.length, 0, "nothing of the page is sent back");
      assert.throws(
        () => decodeWalk(capped),
        /^Error: page too large: more than 50 elements and text nodes$/,
      );
    } finally {
      await browser.close();
    }
  });
});

describe("resource policy", () => {
  const off = { network: false, javascript: true, loadResources: true };
  const remote = { network: true, javascript: false, loadResources: false };
  test("no network: only data:/about:/blob:", () => {
    assert.equal(allowRequest(off, "http://127.0.0.1/x.css", "stylesheet"), false);
    assert.equal(allowRequest(off, "data:text/css,p{}", "stylesheet"), true);
  });
  test("network: DOM-building requests only with JavaScript, heavy ones only with loadResources", () => {
    assert.equal(allowRequest(remote, "https://a.test/x.js", "script"), false);
    assert.equal(allowRequest({ ...remote, javascript: true }, "https://a.test/x.js", "script"), true);
    assert.equal(allowRequest({ ...remote, javascript: true }, "https://a.test/x.png", "image"), false);
    assert.equal(allowRequest({ ...remote, loadResources: true }, "https://a.test/x.woff", "font"), true);
  });
  test("<base> goes after the doctype and honours the page's own base", () => {
    const html = injectBase("<!DOCTYPE html><p>x", "https://a.test/dir/page.html");
    assert.match(html, /^<!DOCTYPE html><base data-pith-injected href="https:\/\/a\.test\/dir\/page\.html">/);
    const own = injectBase('<head><base href="/other/">', "https://a.test/dir/page.html");
    assert.match(own, /^<base data-pith-injected href="https:\/\/a\.test\/other\/">/);
    assert.equal(injectBase("<p>x", null), "<p>x");
    assert.match(
      injectBase(`${"<!--c-->".repeat(60)}<p>`, "https://a.test/"),
      /^<base /,
      "many comments, no doctype",
    );
  });
});

const SMALL_PAGE = `<!doctype html><html lang="de"><head><title> Small   page </title>
<style>h1 { font-size: 32px; font-weight: 700 } .gone { display: none } .ghost { visibility: hidden }</style>
<script>var notText = "script body";</script></head>
<body><h1 id="t" class="title" aria-label="Heading" data-x="dropped">Hello</h1>
<p style="font-size: 20px">First <b>bold</b> paragraph.</p>
<div class="gone"><p>hidden text</p></div>
<span class="ghost">ghost text</span>
<noscript><p>noscript thread</p></noscript>
<svg width="10" height="10"><text>svg text</text></svg>
<a href="${"a".repeat(400)}">long</a>
</body></html>`;

describe("ChromiumRenderer", () => {
  // No browser: this hook fails with BrowserNotFoundError's message and so does every test below.
  before(async () => {
    renderer = await ChromiumRenderer.launch({ concurrency: 2 });
    server = await countingServer();
  });

  after(async () => {
    await renderer?.close();
    server?.server.closeAllConnections();
    server?.server.close();
  });

  test("JS off: GTM's self-closed <noscript><iframe/> does not swallow the page; <img name=title> does not shadow the title", async () => {
    const html = `<html><head><title>Real title</title></head><body><noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" style="display:none"/></noscript>
<img name="title" src="data:,"><p>Forum post text survives the snippet.</p></body></html>`;
    const snap = await renderer.render(page("gtm", html));
    assert.equal(snap.title, "Real title");
    assert.match(textOf(snap), /Forum post text survives the snippet/);
  });

  test("JS off: a page its scripts would reveal (anti-flicker visibility:hidden wrapper) is read; metadata comes along", async () => {
    const body = "<p>" + "Rivers carve their valleys over many thousands of years. ".repeat(12) + "</p>";
    const html = `<html><head><title>t</title><meta property="og:type" content="article"><script type="application/ld+json">{"@type":"NewsArticle"}</script></head><body><div style="visibility:hidden;min-height:100vh">${body}</div></body></html>`;
    const snap = await renderer.render(page("fouc", html));
    const visibleText = snap.nodes
      .filter((n) => n.type === 3 && n.visible)
      .map((n) => n.text)
      .join("");
    assert.match(visibleText, /Rivers carve their valleys/);
    assert.deepEqual(
      { ...snap.meta, declared: undefined },
      { canonicalUrl: null, ogType: "article", schemaTypes: ["NewsArticle"], declared: undefined },
    );
  });

  test("JS off: escaped markup text in <noscript> is hidden, a plain noscript message is not", async () => {
    const html = `<html><body><p>Article text stays.</p><noscript>&lt;img src="https://pixel.example/b?P=1&amp;T=2" width=1&gt;</noscript><noscript>Please enable JavaScript.</noscript></body></html>`;
    const snap = await renderer.render(page("escaped", html));
    const visibleText = snap.nodes
      .filter((n) => n.type === 3 && n.visible)
      .map((n) => n.text)
      .join(" ");
    assert.match(visibleText, /Article text stays/);
    assert.match(visibleText, /Please enable JavaScript/);
    assert.doesNotMatch(visibleText, /pixel\.example/);
  });

  test("a small page gives the expected tree", async () => {
    const snap = await renderer.render(page("small", SMALL_PAGE, { url: "https://a.test/p.html" }));
    assert.equal(snap.mode, "chromium");
    assert.equal(snap.title, "Small page");
    assert.equal(snap.lang, "de");
    assert.deepEqual(snap.viewport, { width: 1366, height: 768 });
    assert.ok(snap.document && snap.document.width >= 1366 && snap.document.height > 0);
    const nodes = snap.nodes;
    assert.equal(nodes[0]?.tag, "html");
    assert.equal(nodes[0]?.parent, -1);
    nodes.forEach((n, i) => assert.ok(n.parent < i, `parent precedes child at ${i}`));
    assert.equal(byTag(snap, "base").length, 0, "the injected <base> is not part of the page");
    const h1 = byTag(snap, "h1")[0];
    assert.ok(h1 && h1.visible && h1.box && h1.box.w > 0 && h1.box.h > 0);
    assert.deepEqual(h1.attrs, { id: "t", class: "title", "aria-label": "Heading" });
    assert.equal(h1.style?.fontSize, 32);
    assert.equal(h1.style?.fontWeight, 700);
    const hello = nodes[nodes.indexOf(h1) + 1];
    assert.equal(hello?.text, "Hello");
    assert.equal(hello?.parent, nodes.indexOf(h1));
    assert.ok(hello?.visible && hello.box && hello.box.w > 0);
    const p = byTag(snap, "p")[0];
    assert.equal(p?.style?.fontSize, 20);
    assert.equal(byTag(snap, "b")[0]?.style?.fontWeight, 700);
    const gone = nodes.find((n) => n.attrs?.["class"] === "gone");
    assert.ok(gone && !gone.visible && gone.style?.display === "none");
    assert.ok(nodes.some((n) => n.text === "hidden text" && !n.visible));
    assert.ok(nodes.some((n) => n.text === "ghost text" && !n.visible));
    assert.ok(
      nodes.some((n) => n.text === "noscript thread" && n.visible),
      "noscript content is DOM with JS off",
    );
    assert.ok(!textOf(snap).includes("script body"));
    assert.ok(!textOf(snap).includes("svg text"));
    assert.equal(byTag(snap, "svg").length, 1);
    assert.equal(byTag(snap, "a")[0]?.attrs?.["href"]?.length, 300);
  });

  test("10,000-level nesting renders", async () => {
    const depth = 10_000;
    const snap = await renderer.render(
      page("deep", `${"<div>".repeat(depth)}deep text${"</div>".repeat(depth)}`),
    );
    assert.ok(snap.nodes.some((n) => n.text === "deep text"));
    assert.ok(byTag(snap, "div").length === depth);
  });

  test("empty file", async () => {
    const snap = await renderer.render(page("empty", ""));
    assert.deepEqual(
      snap.nodes.map((n) => n.tag),
      ["html", "head", "body"],
    );
    assert.equal(snap.title, "");
  });

  test("binary garbage", async () => {
    let seed = 42;
    const bytes = Buffer.alloc(200_000, 0).map(() => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
    const snap = await renderer.render(page("garbage", new TextDecoder().decode(bytes)));
    assert.equal(snap.nodes[0]?.tag, "html");
    assert.ok(snap.nodes.length > 3);
  });

  test("invalid UTF-8 and lone surrogates", async () => {
    const bytes = Buffer.concat([
      Buffer.from("<p>caf"),
      Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
      Buffer.from("é ok</p>"),
    ]);
    const html = `${new TextDecoder().decode(bytes)}<p>half \uD800 pair \uDFFF end</p>`;
    const snap = await renderer.render(page("utf8", html));
    const text = textOf(snap);
    assert.match(text, /caf\uFFFD.*é ok/);
    assert.match(text, /half .* pair .* end/);
  });

  test("a 10 MB page", async () => {
    const paragraph = `<p>${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(180)}</p>\n`;
    const html = `<html><body>${paragraph.repeat(Math.ceil(10_000_000 / paragraph.length))}</body></html>`;
    assert.ok(html.length >= 10_000_000);
    const snap = await renderer.render(page("big", html), { timeoutMs: 40_000 });
    assert.ok(byTag(snap, "p").length >= 900);
    assert.ok((snap.document?.height ?? 0) > 100_000);
  });

  test("pages render concurrently into their own snapshots", async () => {
    const snaps = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => renderer.render(page(`c${i}`, `<title>t${i}</title><p>page ${i}</p>`))),
    );
    snaps.forEach((s, i) => {
      assert.equal(s.title, `t${i + 1}`);
      assert.ok(s.nodes.some((n) => n.text === `page ${i + 1}`));
    });
  });

  test("an infinite script loop times out within the limit and the next page still renders", async () => {
    const timeoutMs = 2_000;
    const started = performance.now();
    await assert.rejects(
      renderer.render(page("loop", "<p>x</p><script>for (;;) {}</script>"), { javascript: true, timeoutMs }),
      /^Error: timeout: loop /,
    );
    assert.ok(performance.now() - started < timeoutMs + HANG_MARGIN_MS, "rejected, not hung");
    const next = await renderer.render(page("after-loop", "<p>still alive</p>"), { timeoutMs: 10_000 });
    assert.ok(next.nodes.some((n) => n.text === "still alive"));
    const nextJs = await renderer.render(
      page("after-loop-js", "<p id=a></p><script>a.textContent = 'js ran'</script>"),
      { javascript: true },
    );
    assert.ok(nextJs.nodes.some((n) => n.text === "js ran"));
  });

  test("shadow roots: the declarative fixture reads as in static mode (same texts under the same hosts); a script's open root with JS on", async () => {
    const html = readFileSync(new URL("./fixtures/pages/shadow-dom.html", import.meta.url), "utf8");
    const texts = (snap: PageSnapshot) =>
      snap.nodes
        .filter((n) => n.type === 3 && n.visible && n.text?.trim())
        .map(
          (n) =>
            `${snap.nodes[n.parent]?.tag}<${snap.nodes[snap.nodes[n.parent]?.parent ?? -1]?.tag}: ${n.text?.trim()}`,
        );
    const chromium = await renderer.render(page("dsd", html));
    // a closed root is rendered but out of reach of page script, so only the static parser reads it (shadow-root.ts)
    const closed = "p<#shadow-root: Closed roots attach in the parser too.";
    const inStatic = texts(staticSnapshot(page("dsd", html)));
    assert.ok(inStatic.includes(closed));
    assert.deepEqual(
      texts(chromium),
      inStatic.filter((t) => t !== closed),
    );
    assert.ok(
      texts(chromium).includes("h1<#shadow-root: The Ridgeline 25 trail pack"),
      texts(chromium).join("\n"),
    );
    chromium.nodes.forEach((n, i) => assert.ok(n.parent < i));
    const scripted = `<p>Light intro.</p><my-card id="c"><span slot="x">slotted light text</span></my-card>
<script>document.getElementById("c").attachShadow({ mode: "open" }).innerHTML = "<h2>Card heading</h2><p>Built by a script.</p><slot name=x></slot>";</script>`;
    assert.doesNotMatch(textOf(await renderer.render(page("shadow-js-off", scripted))), /Built by a script/);
    const on = await renderer.render(page("shadow-js-on", scripted), { javascript: true });
    assert.deepEqual(texts(on), [
      "p<body: Light intro.",
      "h2<#shadow-root: Card heading",
      "p<#shadow-root: Built by a script.",
      "span<my-card: slotted light text",
    ]);
  });

  test("whitespace between a highlighter's spans in <pre> (or under CSS white-space: pre) is kept, as the static parser keeps it in <pre>; elsewhere it collapses", async () => {
    const html = `<pre><span>def</span> <span>f</span>():\n    <span>return</span> <span>1</span>\n\n<span>f</span>()</pre><div style="white-space:pre-wrap"><span>a</span>\n<span>b</span></div><p><span>x</span>\n   <span>y</span></p>`;
    const texts = (snap: PageSnapshot) => snap.nodes.filter((n) => n.type === 3).map((n) => n.text);
    const chromium = texts(await renderer.render(page("pre", html)));
    assert.deepEqual(chromium, [
      "def",
      " ",
      "f",
      "():\n    ",
      "return",
      " ",
      "1",
      "\n\n",
      "f",
      "()",
      "a",
      "\n",
      "b",
      "x",
      " ",
      "y",
    ]);
    // static mode has no CSS: the same except the styled div
    assert.deepEqual(
      texts(staticSnapshot(page("pre", html))),
      chromium.map((t, i) => (i === 11 ? " " : t)),
    );
  });

  test("MathML: a formula's text reads as in static mode (one text child, inline unless display=block); annotations are not text", async () => {
    const html = `<p>It states that <math><msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup>
    <mo>+</mo><mn>1</mn><mo>=</mo><mn>0</mn></math>, linking five constants.</p>
<math display="block"><semantics><mrow><mi>a</mi><mtext>  for  all </mtext><mi>b</mi><mspace/></mrow><annotation encoding="application/x-tex">a \\text{ for all } b</annotation></semantics></math>
<span style="display:none"><math><mi>hidden</mi></math></span><p>After <math></math>the end.</p>`;
    const texts = (snap: PageSnapshot) =>
      snap.nodes
        .filter((n) => n.type === 3 && n.text?.trim())
        .map((n) => [snap.nodes[n.parent]?.tag, n.text?.trim(), n.visible]);
    const chromium = await renderer.render(page("math", html));
    assert.deepEqual(texts(chromium), texts(staticSnapshot(page("math", html))));
    assert.equal(
      readerText(chromium, buildTree(chromium), [0]),
      "It states that eiπ+1=0, linking five constants.\na for all b\nAfter the end.",
    );
  });

  test("<xmp> text (raw, shown as preformatted) is page text in both modes, markup inside it unparsed", async () => {
    const html = `<p>Config:</p><xmp># <b>SSID</b> &amp; key\n  ssid: x</xmp>`;
    const texts = (snap: PageSnapshot) => snap.nodes.filter((n) => n.type === 3).map((n) => n.text);
    const chromium = texts(await renderer.render(page("xmp", html)));
    assert.deepEqual(chromium, ["Config:", "# <b>SSID</b> &amp; key\n  ssid: x"]);
    assert.deepEqual(texts(staticSnapshot(page("xmp", html))), chromium);
  });

  test("control characters (ESC sequences, NUL, BEL, DEL) are not page text in either mode, nor in the title or attributes; tab and line feed stay; a C1 control is read as the windows-1252 character it stood for", async () => {
    const html = `<html><head><title>Ti\u001b[2Jtle</title></head><body><pre>a\u001b[31mred\u0007\u0000\tb\nc\u007f\u009b1m\u0081</pre><p title="x" aria-label="lab\u001bel">&#x1b;]8;;evil&#x7;link don\u0092t</p></body></html>`;
    const view = (snap: PageSnapshot) => ({
      texts: snap.nodes.filter((n) => n.type === 3).map((n) => n.text),
      label: snap.nodes.find((n) => n.tag === "p")?.attrs?.["aria-label"],
      title: snap.title,
    });
    const chromium = view(await renderer.render(page("controls", html)));
    assert.deepEqual(chromium.texts, ["a[31mred\tb\nc\u203A1m", "]8;;evillink don\u2019t"]);
    assert.equal(chromium.label, "label");
    assert.deepEqual(view(staticSnapshot(page("controls", html))), { ...chromium, title: "Ti[2Jtle" });
    assert.match(chromium.title, /^Ti ?\[2Jtle$/, "Chromium's document.title turns the ESC into a space");
  });

  test("Markdown of a Chromium render: a table cell whose <div> is styled inline is still a data table; one holding a real block lays out", async () => {
    const html = (cell: string) =>
      `<table><tr><th>Model</th><th>Price</th></tr><tr><td>${cell}</td><td>$10</td></tr></table>`;
    const markdown = async (name: string, cell: string) => {
      const snap = await renderer.render(page(name, html(cell)));
      const tree = buildTree(snap);
      const table = snap.nodes.findIndex((n) => n.tag === "table");
      return formatExtraction("markdown", snap, tree, {
        method: "test",
        text: "",
        nodes: [table],
        scores: [1],
        trace: [],
      });
    };
    assert.equal(
      await markdown("inline-div", `<div style="display:inline">A</div>`),
      "| Model | Price |\n| --- | --- |\n| A | $10 |",
    );
    assert.equal(await markdown("block-p", `<p>A</p>`), "Model\n\nPrice\n\nA\n\n$10");
  });

  test("JavaScript is off by default and on when asked", async () => {
    const html =
      "<p id=a>static</p><script>document.getElementById('a').textContent = 'scripted'</script><noscript><i>ns</i></noscript>";
    const off = await renderer.render(page("js-off", html));
    assert.ok(off.nodes.some((n) => n.text === "static"));
    assert.ok(byTag(off, "i").length === 1);
    const on = await renderer.render(page("js-on", html), { javascript: true });
    assert.ok(on.nodes.some((n) => n.text === "scripted"));
    assert.ok(byTag(on, "i").length === 0, "with JS on, <noscript> holds raw markup, which is dropped");
    const dialogs = await renderer.render(
      page(
        "dialogs",
        "<p id=a>before</p><script>alert(1); confirm('?'); prompt('?'); a.textContent = 'after dialogs'</script>",
      ),
      { javascript: true, timeoutMs: 5_000 },
    );
    assert.ok(
      dialogs.nodes.some((n) => n.text === "after dialogs"),
      "dialogs are dismissed, not waited on",
    );
  });

  test("a local page makes no network request, even to 127.0.0.1 (JS off and on)", async () => {
    server.hits.length = 0;
    const html = resourcePage(server.base);
    const url = `${server.base}/dir/page.html`;
    await renderer.render(page("offline", html, { url }));
    await renderer.render(page("offline-js", html, { url }), { javascript: true, loadResources: true });
    await new Promise((resolve) => setTimeout(resolve, 300)); // late requests would land here
    assert.deepEqual(server.hits, []);
  });

  test("with network allowed, the same page does fetch (the server above is reachable)", async () => {
    server.hits.length = 0;
    const html = `<link rel="stylesheet" href="rel.css"><p>x</p>`;
    const snap = await renderer.render(page("online", html, { url: `${server.base}/dir/page.html` }), {
      network: true,
      javascript: true,
    });
    assert.ok(snap.nodes.some((n) => n.text === "x"));
    assert.ok(
      server.hits.includes("/dir/rel.css"),
      `relative URL resolved against input.url: ${server.hits.join(",")}`,
    );
  });

  test("with network and JavaScript, every page's scripts load (reused tabs too)", async () => {
    const js = await countingScripts();
    try {
      for (const i of [1, 2, 3]) {
        const html = `<p id="t">not loaded</p><script src="/s${i}.js"></script>`;
        const snap = await renderer.render(
          page(`js-${i}`, html, { url: `${js.base}/p${i}.html`, remote: true }),
          { javascript: true },
        );
        assert.ok(
          snap.nodes.some((n) => n.text === `loaded /s${i}.js`),
          `page ${i}`,
        );
      }
    } finally {
      js.server.close();
    }
  });

  test("a page that never finishes loading gives a snapshot or a timeout, never a hang", async () => {
    const timeoutMs = 3_000;
    const cases = [
      { html: `<p>before</p><img src="${server.base}/hang.png"><p>after</p>`, options: {} },
      {
        html: `<p>before</p><img src="${server.base}/hang.png"><p>after</p>`,
        options: { network: true, loadResources: true },
      },
      {
        html: `<p>before</p><script src="${server.base}/hang.js"></script><p>after</p>`,
        options: { network: true, javascript: true },
      },
    ];
    const outcomes: string[] = [];
    // Start the browsers these options need outside the measured time.
    await renderer.render(page("warm-up", "<p>x</p>"), { network: true, loadResources: true });
    for (const { html, options } of cases) {
      const started = performance.now();
      try {
        // The page lives on 127.0.0.1 too: Chromium's Local Network Access checks stop public
        // (or stand-in) origins from reaching local addresses.
        const snap = await renderer.render(page("never-loads", html, { url: `${server.base}/never.html` }), {
          ...options,
          timeoutMs,
        });
        assert.ok(snap.nodes.some((n) => n.text === "before"));
        outcomes.push("snapshot");
      } catch (err) {
        assert.match(String(err), /^Error: timeout: never-loads/);
        outcomes.push("timeout");
      }
      assert.ok(
        performance.now() - started < timeoutMs + HANG_MARGIN_MS,
        `bounded, not hung: ${JSON.stringify(options)}`,
      );
    }
    // Offline, nothing is fetched; online, the load event is given up on after a share of the
    // time limit and the DOM is walked as it stands (parsing stopped at the hanging script).
    assert.deepEqual(outcomes, ["snapshot", "snapshot", "snapshot"]);
    assert.ok(
      server.hits.includes("/hang.png") && server.hits.includes("/hang.js"),
      "the online cases did try",
    );
  });

  test("a page that sends the browser elsewhere (script, meta refresh, JS on and off, offline and with network) is read as it stood; pith does not follow", async () => {
    server.hits.length = 0;
    const text = "the page as written";
    const pages = [
      `<p>${text}</p><script>location.href = "${server.base}/away-script"</script>`,
      `<meta http-equiv="refresh" content="0; url=${server.base}/away-refresh"><p>${text}</p>`,
      `<p>${text}</p><script>location.href = "other-page.html"</script>`,
    ];
    const optionSets = [{ javascript: true }, {}, { network: true, javascript: true }, { network: true }];
    const lost: string[] = [];
    for (const options of optionSets) {
      for (const [i, html] of pages.entries()) {
        const snap = await renderer.render(page(`away-${i}`, html, { url: `${server.base}/dir/page.html` }), {
          ...options,
          timeoutMs: 5_000,
        });
        if (!snap.nodes.some((n) => n.text === text))
          lost.push(`${JSON.stringify(options)} page ${i}: ${JSON.stringify(textOf(snap).slice(0, 60))}`);
      }
    }
    assert.deepEqual(lost, [], "every page read as written");
    assert.deepEqual(
      server.hits.filter((h) => h.includes("away") || h.includes("other-page")),
      [],
      "no navigation request left the browser",
    );
  });

  test("a crashed tab (its renderer killed, as an out-of-memory page's is) fails its page at once as a crash, not at the time limit; the next page renders", async () => {
    const own = await ChromiumRenderer.launch({ concurrency: 1 });
    try {
      for (const options of [{ javascript: true }, { javascript: true, network: true }]) {
        let settled: string | undefined;
        void own
          .render(page("crash", "<p>x</p><script>for (;;) {}</script>"), { ...options, timeoutMs: 30_000 })
          .then(
            () => (settled = "rendered"),
            (err: unknown) => (settled = String(err)),
          );
        // Kill the renderer that runs the page's loop: one seen running (not sleeping) at
        // BUSY_POLLS polls in a row. Killing renderers at any moment also hit tabs being opened or
        // navigated, where no crash is reported for the page (it then timed out, under load).
        const busy = new Map<number, number>();
        while (settled === undefined) {
          for (const pid of own.processIds().filter(isRenderer)) {
            busy.set(pid, isRunning(pid) ? (busy.get(pid) ?? 0) + 1 : 0);
            if ((busy.get(pid) ?? 0) >= BUSY_POLLS) killQuietly(pid);
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.match(settled, /^Error: render failed for crash: the tab crashed/, JSON.stringify(options));
        const next = await own.render(page("after-crash-tab", "<p>next page</p>"), options);
        assert.ok(
          next.nodes.some((n) => n.text === "next page"),
          JSON.stringify(options),
        );
      }
    } finally {
      await own.close();
    }
  });

  test("an idle tab whose renderer died (killed between pages) is not reused: the next page renders", async () => {
    const own = await ChromiumRenderer.launch({ concurrency: 1 });
    try {
      await own.render(page("before-kill", "<p>x</p>")); // JS off: its tab is kept for the next page
      const renderers = own.processIds().filter(isRenderer);
      assert.ok(renderers.length > 0);
      renderers.forEach(killQuietly);
      await eventually(() => !renderers.some(running), "the renderers ended");
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the crash event follows the exit (ms later; a margin for a loaded machine)
      const next = await own.render(page("after-kill", "<p>next page</p>"));
      assert.ok(next.nodes.some((n) => n.text === "next page"));
    } finally {
      await own.close();
    }
  });

  test("a page that closes its own window (window.close()) fails as one, saying so; the next page renders", async () => {
    await assert.rejects(
      renderer.render(page("closer", "<p>x</p><script>window.close()</script>"), {
        javascript: true,
        timeoutMs: 5_000,
      }),
      /^Error: render failed for closer: the page closed its own window \(window\.close\(\)\)$/,
    );
    const next = await renderer.render(page("after-closer", "<p>next page</p>"), { javascript: true });
    assert.ok(next.nodes.some((n) => n.text === "next page"));
  });

  test("popups a page opens (window.open, many, noopener ones running scripts) are closed: the browser keeps only its own tabs", async () => {
    const own = await ChromiumRenderer.launch({ concurrency: 1 });
    try {
      const modes = [{ javascript: true }, { javascript: true, network: true }];
      for (const options of modes)
        await own.render(page("plain", "<p>plain</p><script>void 0</script>"), options);
      const tabs = await own.openTabs(); // the browsers' own
      const spinner =
        "URL.createObjectURL(new Blob(['<p>popup</p><script>for (;;) {}<\\/script>'], { type: 'text/html' }))";
      const html = `<p>opener</p><script>for (let i = 0; i < 20; i++) window.open("about:blank#" + i); window.open(${spinner}, "_blank", "noopener");</script>`;
      for (const options of modes) {
        const snap = await own.render(page("popups", html), options);
        assert.ok(snap.nodes.some((n) => n.text === "opener"));
      }
      let open = await own.openTabs();
      // Closing takes a moment: wait for it, up to a bound that only a leak reaches.
      for (const end = Date.now() + 5_000; open > tabs && Date.now() < end; open = await own.openTabs())
        await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(open <= tabs, `${open} tabs open, ${tabs} before the popups`);
    } finally {
      await own.close();
    }
  });

  test("a page's popups (and theirs) stay open while it renders: a page finishing beside it closes only its own; none are left after both", async () => {
    // Page B opens a popup, which opens one, and keeps rendering for HOLD_MS; once both popups
    // are open, page A, in the other tab, opens a popup and finishes. Then B writes whether its
    // popups are still open (and when) into its text, and finishes. Offline, B holds its walk back
    // by reporting document.readyState "loading" until then (the renderer polls it); with network,
    // B's load waits for a script that the server answers after HOLD_MS and that writes it.
    const HOLD_MS = 2_000;
    const check = `document.getElementById("s").textContent = "checked at " + Date.now() + ": popup " + (w.closed ? "closed" : "open") + ", its popup " + (w2.closed ? "closed" : "open");`;
    const open = `<p id="s">not checked</p><script>var w = window.open("about:blank"); var w2 = w.open("about:blank");</script>`;
    const offlineB = `${open}<script>var checked = false;
      Object.defineProperty(document, "readyState", { get: () => (checked ? "complete" : "loading") });
      setTimeout(() => { ${check} checked = true; }, ${HOLD_MS});</script>`;
    const slow = createServer((req, res) => {
      setTimeout(() => {
        res.writeHead(200, { "content-type": "text/javascript" });
        res.end(check);
      }, HOLD_MS);
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    const modes = [
      { options: { javascript: true, timeoutMs: 20_000 }, b: page("b", offlineB) },
      {
        options: { javascript: true, network: true, timeoutMs: 20_000 },
        b: page("b", `${open}<script async src="/check.js"></script>`, {
          url: `${base}/b.html`,
          remote: true,
        }),
      },
    ];
    try {
      for (const { options, b } of modes) {
        const own = await ChromiumRenderer.launch({ concurrency: 2 });
        try {
          // Two idle tabs for A and B: a JS-off page's tab is kept for the next page (a network tab always is).
          const plain = page("plain", "<p>plain</p>");
          const warm = { ...options, javascript: false };
          await Promise.all([own.render(plain, warm), own.render(plain, warm)]);
          const tabs = await own.openTabs();
          const rendering = own.render(b, options);
          for (
            const end = Date.now() + 5_000;
            (await own.openTabs()) < tabs + 2;
            await new Promise((resolve) => setTimeout(resolve, 20))
          ) {
            assert.ok(Date.now() < end, `${JSON.stringify(options)}: B's popups did not open`);
          }
          const a = await own.render(
            page("a", `<p>a</p><script>window.open("about:blank")</script>`),
            options,
          );
          const aDone = Date.now();
          assert.ok(a.nodes.some((n) => n.text === "a"));
          const text = textOf(await rendering);
          const checked = /^checked at (\d+): (.*)$/.exec(text);
          assert.ok(checked, `${JSON.stringify(options)}: ${text}`);
          assert.ok(
            Number(checked[1]) > aDone,
            `${JSON.stringify(options)}: B checked its popups before A finished (a loaded machine?)`,
          );
          assert.equal(checked[2], "popup open, its popup open", JSON.stringify(options));
          let left = await own.openTabs();
          // Closing takes a moment: wait for it, up to a bound that only a leak reaches.
          for (const end = Date.now() + 5_000; left > tabs && Date.now() < end; left = await own.openTabs())
            await new Promise((resolve) => setTimeout(resolve, 100));
          assert.ok(left <= tabs, `${JSON.stringify(options)}: ${left} tabs open, ${tabs} before the popups`);
        } finally {
          await own.close();
        }
      }
    } finally {
      slow.close();
    }
  });

  test("a page whose beforeunload handler asks to stay does not break the next page (JS on, offline and with network)", async () => {
    const stay = `<p>stay</p><script>addEventListener("beforeunload", (e) => { e.preventDefault(); e.returnValue = "stay?"; })</script>`;
    for (const options of [{ javascript: true }, { javascript: true, network: true }]) {
      assert.ok(
        (await renderer.render(page("stay", stay), options)).nodes.some((n) => n.text === "stay"),
        JSON.stringify(options),
      );
      const next = await renderer.render(
        page("after-stay", "<p>next page</p><script>void 0</script>"),
        options,
      );
      assert.ok(
        next.nodes.some((n) => n.text === "next page"),
        JSON.stringify(options),
      );
    }
  });

  test("a killed browser is relaunched for the next page", async () => {
    const pids = renderer.processIds();
    assert.ok(pids.length > 0);
    pids.forEach(killQuietly); // a renderer of a tab closed just before (a popup) may be gone already
    await new Promise((resolve) => setTimeout(resolve, 200));
    let snap: PageSnapshot | undefined;
    try {
      snap = await renderer.render(page("after-crash", "<p>back</p>"));
    } catch {
      // the page in flight when the browser died may fail; the next one must not
      snap = await renderer.render(page("after-crash-2", "<p>back</p>"));
    }
    assert.ok(snap.nodes.some((n) => n.text === "back"));
  });

  test("a browser reported through onBrowsers can be ended from outside: its processes and profile directory go", async () => {
    const reports: string[][] = [];
    const own = await ChromiumRenderer.launch({ concurrency: 1, onBrowsers: (dirs) => reports.push(dirs) });
    try {
      assert.ok((await own.render(page("held", "<p>held</p>"))).nodes.some((n) => n.text === "held"));
      const dirs = reports.at(-1) ?? [];
      assert.equal(dirs.length, 1, JSON.stringify(reports));
      const dir = dirs[0] as string;
      const pids = own.processIds();
      assert.ok(pids.length > 0 && existsSync(dir));
      releaseBrowser(dir); // what a worker pool does for a terminated worker's browser
      await eventually(() => !pids.some(running), "every process of the browser ended").catch(
        () => undefined,
      );
      assert.deepEqual(pids.filter(running), [], "every process of the browser ended");
      assert.equal(existsSync(dir), false, "its profile directory removed");
    } finally {
      await own.close();
    }
    assert.deepEqual(reports.at(-1), [], "closing reports no browser left");
  });
});

/** True when `pid` is a Chromium renderer process (one tab's, or several's). */
function isRenderer(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("--type=renderer");
  } catch {
    return false;
  }
}

/** Polls in a row (100 ms apart) at which a renderer is found running before it counts as busy. */
const BUSY_POLLS = 3;

/** True when `pid` is running or runnable (state R), not sleeping. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] === "R";
  } catch {
    return false;
  }
}

/** SIGKILL to `pid`, which may have exited already. */
function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone
  }
}

/** True while `pid` exists and is not a zombie. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
