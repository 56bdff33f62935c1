/**
 * The learned pipeline with the bundled default model: it loads, keeps the fixture article's
 * paragraphs and drops its nav, footer and related box; bad model files give one-line
 * ModelLoadErrors; an empty page gives an empty extraction with a reason; an unknown export
 * domain is a one-line usage error; a page in a language without stop words is extracted; a
 * dataset folder without gold is a one-line usage error for train and evaluate.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, test } from "node:test";
import { ModelLoadError } from "../src/ml/artifact.ts";
import { loadPipelineModel } from "../src/pipeline/model/model.ts";
import { mlExtractor } from "../src/pipeline/extractor.ts";
import { buildTree } from "../src/dom/tree.ts";
import { textOf } from "../src/dom/text.ts";
import { structuralNodes } from "../src/features/structural.ts";
import { dropComments } from "../src/pipeline/rules/comments.ts";
import { dropConsentBoxes } from "../src/pipeline/rules/consent.ts";
import { dropNavigationLandmarks } from "../src/pipeline/rules/landmarks.ts";
import { dropReviews, REVIEW_PAGE_SHARE, reviewShare } from "../src/pipeline/rules/reviews.ts";
import { keepLineGaps } from "../src/pipeline/rules/line-gaps.ts";
import {
  dropNoticePage,
  FALLBACK_MAX_WORDS,
  keepBestWhenEmpty,
  noticeOf,
} from "../src/pipeline/rules/fallback.ts";
import { ownership } from "../src/pipeline/own-text.ts";
import { modelView, runOnTable, runPipeline } from "../src/pipeline/run.ts";
import { computeFeatures } from "../src/features/index.ts";
import { coalesce } from "../src/pipeline/select.ts";
import { defaultModelPath, domainModelPath, resolveModelFile } from "../src/pipeline/model/resolve.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { Extraction, PageSnapshot } from "../src/types.ts";
import { fixtureText, pageFromHtml, staticRows, tempDir } from "./helpers.ts";

const ROOT = resolve(import.meta.dirname, "..");
const FIXTURE = join(ROOT, "test/fixtures/pages/article.html");
const tmp = tempDir("pith-pipeline-");
after(() => rmSync(tmp, { recursive: true, force: true }));

function snapshot(html: string, url: string | null = null): PageSnapshot {
  return staticSnapshot({ id: "t", source: "t", url, html, encoding: "utf-8", remote: false });
}

/** A page's rows with every row kept, as a rule after the classifier would see them. */
function everythingKept(html: string) {
  const rows = staticRows(html);
  return { ...rows, keep: new Uint8Array(rows.nodes.length).fill(1) };
}

test("the bundled static model extracts the fixture article and drops the boilerplate", async () => {
  const e = await mlExtractor.extract(snapshot(readFileSync(FIXTURE, "utf8")), {
    mode: "static",
  });
  for (const s of [
    "Rivers rarely run straight",
    "Over decades this process",
    "Geologists have measured",
    "The main factors are",
  ]) {
    assert.ok(e.text.includes(s), `keeps "${s}":\n${e.text}`);
  }
  for (const s of ["About us", "Related stories", "How deltas form", "All rights reserved", "Privacy"]) {
    assert.ok(!e.text.includes(s), `drops "${s}":\n${e.text}`);
  }
  assert.match(e.model ?? "", /default/);
  assert.ok(e.nodes.length > 0 && e.trace.length > 0);
});

test("extraction fills only the feature rows its classifiers read, and decides as it would on the full table", async () => {
  const model = await loadPipelineModel(defaultModelPath("static"), "static");
  const pages = [
    readFileSync(FIXTURE, "utf8"),
    readFileSync(FIXTURE, "utf8").replace(
      "</article>",
      `</article><div class="comments"><p>${"A reader's long reply to the story. ".repeat(12)}</p></div>`,
    ),
  ];
  for (const html of pages) {
    const page = snapshot(html, "https://example.org/2024/05/rivers");
    const partial = runPipeline(model, page);
    const view = modelView(model, page);
    const tree = buildTree(view);
    const full = computeFeatures(view, tree);
    const whole = runOnTable(model, view, tree, {
      nodes: full.nodes,
      values: full.values,
      nCols: full.schema.names.length,
    });
    assert.equal(partial.pageType, whole.pageType);
    assert.deepEqual([...partial.scores], [...whole.scores]);
    assert.deepEqual(partial.extraction.nodes, whole.extraction.nodes);
    assert.equal(partial.extraction.text, whole.extraction.text);
    assert.deepEqual(partial.extraction.trace, whole.extraction.trace);
    assert.ok(partial.extraction.text.includes("Rivers rarely run straight"));
  }
});

test("ownership from the feature statistics' word counts equals ownership counted afresh", () => {
  const html = `<html><body><nav>Home · News</nav><div hidden><p>hidden words here</p></div><main><p>Visible <b>bold</b>words, ünïcödé and 日本語 text.</p><script>var not = "words";</script><p style="display:none">styled away</p><div>x<span>y</span> z</div></main></body></html>`;
  for (const page of [snapshot(html), snapshot(readFileSync(FIXTURE, "utf8"))]) {
    const tree = buildTree(page);
    let fromStats: ReturnType<typeof ownership> | null = null;
    const table = computeFeatures(page, tree, {
      fillRows: (rows, nodeWords) => {
        fromStats = ownership(page, tree, rows, nodeWords);
        return new Uint8Array(rows.length).fill(1);
      },
    });
    const afresh = ownership(page, tree, table.nodes);
    assert.ok(fromStats);
    assert.ok(afresh.totalWords > 5);
    assert.deepEqual(fromStats, afresh);
  }
});

test("a cookie banner in the body is dropped: by the consent rule when kept, and the trace says why", async () => {
  const html = readFileSync(FIXTURE, "utf8");
  const e = await mlExtractor.extract(snapshot(html), { mode: "static" });
  assert.ok(!e.text.includes("We use cookies"), e.text);
  const { page, tree, nodes, own, keep } = everythingKept(html);
  const trace = dropConsentBoxes({ page, tree, nodes, own, keep });
  const entry = trace.find((t) => t.step === "consent-rule");
  assert.ok(entry, "a consent-rule trace entry");
  assert.equal(entry.action, "drop");
  assert.match(entry.path, /^html>body>/);
  assert.ok(
    trace.some((t) => t.text.includes("cookies")),
    `an entry shows the banner's text: ${JSON.stringify(trace)}`,
  );
  const kept = coalesce(nodes, own, keep).map((r) => nodes[r] as number);
  assert.ok(!textOf(page, tree, kept).includes("We use cookies"), "the banner's words are dropped");
  assert.ok(textOf(page, tree, kept).includes("Rivers rarely run straight"), "the article stays");
});
test("landmark rule: kept leaves inside <nav> or role navigation/banner/contentinfo are dropped and traced; <aside>, and a landmark holding most of the page, are not", () => {
  const prose =
    "Compression streams are built around the streams interface and can be piped through a transform.";
  const html = `<html><body><header role="banner"><p>Site name and tagline here</p></header>
    <details role="navigation"><summary>Table of contents</summary><ul><li><a href="#a">Class: zlib.ZlibBase</a></li></ul></details>
    <main><h1>Zlib</h1><p>${prose}</p><p>${prose}</p><aside><p>Note: an aside that documentation keeps.</p></aside></main>
    <nav><a href="/">Home</a> <a href="/api">API index</a></nav><div role="contentinfo">Copyright holders and the license</div></body></html>`;
  const { page, tree, nodes, own, keep } = everythingKept(html);
  const trace = dropNavigationLandmarks({ page, tree, nodes, own, keep });
  assert.ok(
    trace.length >= 4 && trace.every((t) => t.step === "landmark-rule" && t.action === "drop"),
    JSON.stringify(trace),
  );
  const text = textOf(
    page,
    tree,
    coalesce(nodes, own, keep).map((r) => nodes[r] as number),
  );
  for (const gone of ["Site name", "Table of contents", "ZlibBase", "API index", "Copyright"])
    assert.ok(!text.includes(gone), `${gone} dropped: ${text}`);
  for (const kept of ["Compression streams", "an aside that documentation keeps"])
    assert.ok(text.includes(kept), `${kept} kept: ${text}`);
  // a page whose whole content sits in a <nav> (an index page) keeps it
  const index = everythingKept(
    `<html><body><nav><h1>All modules</h1><p>${prose}</p><ul><li><a href="a.html">Assert</a></li><li><a href="b.html">Buffer</a></li></ul></nav><p>Footer line.</p></body></html>`,
  );
  assert.deepEqual(dropNavigationLandmarks(index), []);
});

test("the landmark rule runs on documentation-routed pages: a Node.js API page keeps its prose and loses its table of contents", async () => {
  const html = readFileSync(join(ROOT, "test/fixtures/pages/docs-landmarks.html"), "utf8");
  const e = await mlExtractor.extract(snapshot(html), {
    mode: "static",
    params: { pageType: "documentation" },
  });
  assert.match(e.text, /provides compression functionality/);
  assert.doesNotMatch(e.text, /Table of contents/);
  assert.ok(
    (e.trace ?? []).some((t) => t.step === "landmark-rule" && /details#toc/.test(t.path)),
    "the table of contents is dropped by the rule, traced",
  );
  const article = await mlExtractor.extract(snapshot(html), {
    mode: "static",
    params: { pageType: "article" },
  });
  assert.ok(!(article.trace ?? []).some((t) => t.step === "landmark-rule"), "not on other page types");
});

test("review rule: kept leaves inside a customer-review section are dropped and traced; the product description, and a review box holding most of the page, are not", () => {
  const description =
    "This waterproof daypack holds twenty five litres and has a padded back panel, two side pockets and a rain cover.";
  const review =
    "Fantastic bag that just falls short of five stars for me: spacious, well built and comfortable on long walks.";
  const html = `<html><body><main><h1>Trail 25 pack</h1><div class="product-description"><p>${description}</p><p>${description}</p><p>${description}</p></div>
    <div id="product-reviews-accordion"><h2>Reviews</h2><section class="individual-review__body"><p>${review}</p></section></div>
    <div itemprop="review" itemscope><p>Second opinion: the hip belt is thin but the pack carries well.</p></div>
    <div class="bv_main_container"><p>Rated 4.6 out of 5 by 120 reviewers.</p></div></main></body></html>`;
  const { page, tree, nodes, own, keep } = everythingKept(html);
  const trace = dropReviews({ page, tree, nodes, own, keep });
  assert.ok(
    trace.length >= 4 && trace.every((t) => t.step === "review-rule" && t.action === "drop"),
    JSON.stringify(trace),
  );
  const text = textOf(
    page,
    tree,
    coalesce(nodes, own, keep).map((r) => nodes[r] as number),
  );
  for (const gone of ["Fantastic bag", "Second opinion", "Rated 4.6", "Reviews"])
    assert.ok(!text.includes(gone), `${gone} dropped: ${text}`);
  for (const kept of ["Trail 25 pack", "waterproof daypack"])
    assert.ok(text.includes(kept), `${kept} kept: ${text}`);
  // a page that is a review page (the box holds most of its words) keeps it
  const reviewPage = everythingKept(
    `<html><body><div class="reviews-page"><h1>What customers say</h1><p>${review}</p><p>${review}</p></div><p>Footer line.</p></body></html>`,
  );
  assert.deepEqual(dropReviews(reviewPage), []);
  // a buyer's guide whose sections are named after the products they review is a review page: left alone
  const guide = everythingKept(
    `<html><body><main><h1>The best dishwashers</h1>${["bosch-shp78", "lg-ldfn4542", "ge-profile-pdt"].map((id) => `<div id="${id}-review"><h2>${id}</h2><p>${review}</p><p>${description}</p></div>`).join("")}<p>${description}</p></main></body></html>`,
  );
  assert.ok(reviewShare(guide.page, guide.nodes, guide.own) >= REVIEW_PAGE_SHARE);
  assert.deepEqual(dropReviews(guide), []);
  assert.ok(reviewShare(page, nodes, own) > 0 && reviewShare(page, nodes, own) < REVIEW_PAGE_SHARE);
  // "preview", "reviewer-tools": whole tokens only
  const tokens = everythingKept(
    `<html><body><div class="preview"><p>${description}</p></div><div class="reviewer-tools"><p>${description}</p></div><p>${review}</p></body></html>`,
  );
  assert.deepEqual(dropReviews(tokens), []);
});

test("the review rule runs on product-routed pages unless reviews=keep, and not on other page types", async () => {
  const description =
    "This waterproof daypack holds twenty five litres and has a padded back panel, two side pockets and a rain cover that stows away.";
  const review =
    "Fantastic bag that just falls short of five stars for me. It is spacious, well built and comfortable, and I used it as a courier bag for a week of wet commutes.";
  const html = `<html><head><title>Trail 25 pack</title></head><body><main><h1>Trail 25 pack</h1><div class="product-description"><p>${description}</p><p>${description}</p><p>${description}</p><p>${description}</p></div>
    <div id="reviews"><h2>Customer reviews</h2><article class="review"><p>${review}</p><p>${review}</p></article></div></main></body></html>`;
  const product = await mlExtractor.extract(snapshot(html), {
    mode: "static",
    params: { pageType: "product" },
  });
  assert.match(product.text, /waterproof daypack/);
  assert.doesNotMatch(product.text, /Fantastic bag/);
  const kept = await mlExtractor.extract(snapshot(html), {
    mode: "static",
    params: { pageType: "product", reviews: "keep" },
  });
  const article = await mlExtractor.extract(snapshot(html), {
    mode: "static",
    params: { pageType: "article" },
  });
  for (const e of [kept, article])
    assert.ok(!(e.trace ?? []).some((t) => t.step === "review-rule"), "no review-rule entry");
  // the rule is what removed it: with the rule off the model keeps the review text
  assert.match(kept.text, /Fantastic bag/);
  await assert.rejects(
    async () => mlExtractor.extract(snapshot(html), { mode: "static", params: { reviews: "maybe" } }),
    /--param reviews must be keep or drop, not "maybe"/,
  );
});

test("a per-domain model in the model directory is used for pages of its host", async () => {
  const dir = join(tmp, "models");
  mkdirSync(join(dir, "domains"), { recursive: true });
  copyFileSync(defaultModelPath("static"), join(dir, "domains", "example.org.json"));
  const html = readFileSync(FIXTURE, "utf8");
  const e = await mlExtractor.extract(snapshot(html, "https://news.example.org/a/b"), {
    mode: "static",
    modelDir: dir,
  });
  assert.match(e.model ?? "", /domain:example\.org/);
  const d = await mlExtractor.extract(snapshot(html, "https://other.example.com/"), {
    mode: "static",
    modelDir: dir,
  });
  assert.match(d.model ?? "", /\(default,/);
  // a saved page without a URL: its canonical link names the site
  const saved = html.replace("<head>", `<head><link rel="canonical" href="https://www.example.org/a/b">`);
  assert.ok(saved !== html, "fixture has a <head>");
  const c = await mlExtractor.extract(snapshot(saved), { mode: "static", modelDir: dir });
  assert.match(c.model ?? "", /domain:example\.org/);
  // a static domain model is not a chromium one: a chromium run of the site uses the chromium default, or its own HOST.chromium.json
  assert.deepEqual(resolveModelFile("https://news.example.org/a", "chromium", { modelDir: dir }), {
    file: defaultModelPath("chromium"),
    why: "default",
  });
  copyFileSync(defaultModelPath("chromium"), join(dir, "domains", "example.org.chromium.json"));
  assert.deepEqual(resolveModelFile("https://news.example.org/a", "chromium", { modelDir: dir }), {
    file: join(dir, "domains", "example.org.chromium.json"),
    why: "domain:example.org",
  });
  assert.equal(
    resolveModelFile("https://news.example.org/a", "static", { modelDir: dir }).file,
    join(dir, "domains", "example.org.json"),
  );
});

test("a --domain that is no host name (a path out of the model directory) is refused", () => {
  for (const bad of ["../../m1", "a/b", "", ".."])
    assert.throws(() => domainModelPath("/models", bad), /is not a domain/, bad);
  assert.equal(domainModelPath("/models", "https://www.Example.org/x"), "/models/domains/example.org.json");
  assert.equal(
    domainModelPath("/models", "bücher.de"),
    "/models/domains/xn--bcher-kva.de.json",
    "an internationalised name in the form a page URL's host has",
  );
  assert.equal(
    domainModelPath("/models", "example.com."),
    "/models/domains/example.com.json",
    "a fully qualified name's dot",
  );
  assert.deepEqual(
    resolveModelFile("http://a..b/", "static", {}),
    { file: defaultModelPath("static"), why: "default" },
    "a page whose host names no model uses the default, it does not fail",
  );
  const x = spawnSync(
    process.execPath,
    [join(ROOT, "bin/pith.js"), "export", "--domain", "../../m1", "--out", join(tmp, "trav.json")],
    { encoding: "utf8" },
  );
  assert.equal(x.status, 2);
  assert.match(x.stderr, /^pith: export: "\.\.\/\.\.\/m1" is not a domain/);
});

test("notice pages: noticeOf names the notice of a small page; an empty 404 page says it is a notice", async () => {
  const notice = (html: string) => {
    const page = snapshot(html);
    const tree = buildTree(page);
    return noticeOf(page, tree, ownership(page, tree, structuralNodes(page, tree)));
  };
  assert.equal(
    notice("<html><body><p>You need to enable JavaScript to run this app.</p></body></html>"),
    "enable javascript",
  );
  assert.equal(
    notice("<html><body><p>Rivers carve valleys over thousands of years.</p></body></html>"),
    null,
  );
  assert.equal(
    notice(
      `<html><body>${"<p>page not found is a phrase in this long article text here</p>".repeat(20)}</body></html>`,
    ),
    null,
    "large pages are no notices",
  );
  const e = await mlExtractor.extract(
    snapshot("<html><head><title>404</title></head><body><div>404 : Page Not Found</div></body></html>"),
    { mode: "static" },
  );
  assert.equal(e.text, "");
  assert.match(e.emptyReason ?? "", /notice page \("404"\)/);
});

test("notice rule: a small page saying 'not found' or 'access denied' is emptied even when kept; prose with a status number is not", () => {
  const run = (html: string) => {
    const { page, tree, nodes, own, keep } = everythingKept(html);
    const trace = dropNoticePage({ page, tree, nodes, own, keep });
    return { kept: keep.filter((k, r) => k === 1 && (own.ownWords[r] as number) > 0).length, trace };
  };
  const notFound = run("<html><body><h1>Oops</h1><p>404 : Page Not Found</p></body></html>");
  assert.equal(notFound.kept, 0);
  assert.ok(
    notFound.trace.length > 0 &&
      notFound.trace.every(
        (t) => t.step === "notice-rule" && /notice page \("page not found"\)/.test(t.reason),
      ),
  );
  assert.equal(
    run("<html><body><p>Access denied. You do not have permission.</p></body></html>").kept > 0,
    false,
  );
  assert.ok(
    run("<html><body><p>About 500 people came to the river festival on Sunday.</p></body></html>").kept > 0,
    "a bare status number is no notice",
  );
  assert.ok(
    run(
      `<html><body><p>${"The missing ring was not found by the divers that week. ".repeat(4)}</p></body></html>`,
    ).kept > 0,
    "longer pages are no notices",
  );
});

test("an empty page gives an empty extraction with a reason", async () => {
  const e = await mlExtractor.extract(snapshot("<html><body>   </body></html>"), {
    mode: "static",
  });
  assert.equal(e.text, "");
  assert.ok(e.emptyReason && e.emptyReason.length > 0);
});

test("fallback: a small page where nothing reaches the threshold keeps its best leaves; notice pages and large pages stay empty unless routed to article", () => {
  const run = (html: string, scoreOf: (text: string) => number, pageType = "general") => {
    const { page, tree, nodes, own } = staticRows(html);
    const scores = Float32Array.from(nodes, (n) => scoreOf(textOf(page, tree, [n])));
    const keep = new Uint8Array(nodes.length);
    const trace = keepBestWhenEmpty({ page, tree, nodes, own, scores, keep, pageType });
    return {
      text: textOf(
        page,
        tree,
        coalesce(nodes, own, keep).map((r) => nodes[r] as number),
      ),
      trace,
    };
  };
  const small = run(
    "<html><body><div><p>Alpha beta gamma</p><p>Delta</p><nav>Home</nav></div></body></html>",
    (t) => (t === "Alpha beta gamma" ? 0.3 : t === "Delta" ? 0.2 : 0.05),
  );
  assert.equal(small.text, "Alpha beta gamma\nDelta");
  assert.equal(small.trace.length, 2);
  assert.ok(
    small.trace.every((e) => e.step === "fallback" && e.action === "keep" && e.reason.includes("best")),
  );
  assert.equal(run("<html><body><h1>404</h1><p>Page not found</p></body></html>", () => 0.3).text, "");
  assert.equal(
    run("<html><body><div>You need to enable JavaScript to run this app.</div></body></html>", () => 0.3)
      .text,
    "",
  );
  const large = `<html><body>${"<p>word word word word word word word word word word</p>".repeat(FALLBACK_MAX_WORDS / 10 + 1)}</body></html>`;
  assert.equal(run(large, () => 0.3).text, "");
  assert.equal(run(large, () => 0.3, "listing").text, "");
  assert.equal(
    run(large, () => 0.3, "article").text.split(/\s+/).length,
    FALLBACK_MAX_WORDS + 10,
    "an article page keeps its best leaves at any size",
  );
});

async function loadError(file: string, mode: "static" | "chromium" = "static"): Promise<ModelLoadError> {
  try {
    await loadPipelineModel(file, mode);
  } catch (e) {
    assert.ok(e instanceof ModelLoadError, String(e));
    assert.ok(!e.message.includes("\n"), "one line");
    return e;
  }
  throw new Error("expected a ModelLoadError");
}

test("corrupt, schema-mismatched and mode-mismatched models give one-line ModelLoadErrors", async () => {
  const corrupt = join(tmp, "corrupt.json");
  writeFileSync(corrupt, '{"format": "pith-model", "formatVersion": 1, "kind": ');
  assert.match((await loadError(corrupt)).message, /corrupt/);
  const good = JSON.parse(readFileSync(defaultModelPath("static"), "utf8")) as {
    featureSchema: { hash: string };
  };
  good.featureSchema.hash = "0000000000000000";
  const schema = join(tmp, "schema.json");
  writeFileSync(schema, JSON.stringify(good));
  assert.match((await loadError(schema)).message, /feature schema/);
  assert.match((await loadError(defaultModelPath("static"), "chromium")).message, /static mode/);
  assert.match((await loadError(join(tmp, "missing.json"))).message, /not found/);
});

test("extract with a bad --model is one fatal line (exit 3); export of an unknown domain is a usage error", () => {
  const bad = join(tmp, "bad.json");
  writeFileSync(bad, "not json");
  const r = spawnSync(process.execPath, [join(ROOT, "bin/pith.js"), "extract", FIXTURE, "--model", bad], {
    encoding: "utf8",
  });
  assert.equal(r.status, 3);
  assert.equal(r.stderr.trim().split("\n").length, 1);
  assert.match(r.stderr, /^pith: model .* is corrupt/);
  const x = spawnSync(
    process.execPath,
    [join(ROOT, "bin/pith.js"), "export", "--domain", "nowhere.example", "--out", join(tmp, "x.json")],
    { encoding: "utf8" },
  );
  assert.equal(x.status, 2);
  assert.match(x.stderr, /unknown domain "nowhere.example"/);
  assert.equal(x.stderr.trim().split("\n").length, 1);
});

test("line-gap rule: a short dropped piece between kept pieces of one line is kept and traced; not across a <br>, nor a long stretch", () => {
  const { page, tree, nodes, own } = staticRows(
    `<html><body><div>Version 2.0 makes the importer <b>twice as fast</b> on large files, and <a href="/l">links</a> work.<br>Next <i>line</i> here.<p>A paragraph.</p></div></body></html>`,
  );
  const rowOf = (pred: (i: number) => boolean) => Array.from(nodes).findIndex((i) => pred(i));
  const text = (t: string) =>
    rowOf((i) => page.nodes[i]?.type === 3 && (page.nodes[i]?.text ?? "").includes(t));
  const tag = (t: string) => rowOf((i) => page.nodes[i]?.tag === t);
  const keep = new Uint8Array(nodes.length);
  for (const r of [text("Version"), text("on large"), text("work."), text("Next"), tag("p")]) keep[r] = 1;
  const trace = keepLineGaps({ page, tree, nodes, own, keep });
  assert.deepEqual(
    [keep[tag("b")], keep[tag("a")], keep[tag("i")]],
    [1, 1, 0],
    "b and a bridge kept pieces; i has no kept piece after it on its line",
  );
  assert.deepEqual(
    trace.map((t) => [t.step, t.action, t.text]),
    [
      ["line-gap", "keep", "twice as fast"],
      ["line-gap", "keep", "links"],
    ],
  );
  const across = new Uint8Array(nodes.length);
  for (const r of [text("work."), text("here.")]) across[r] = 1;
  keepLineGaps({ page, tree, nodes, own, keep: across });
  assert.equal(across[text("Next")], 0, "a <br> ends the line: nothing is bridged across it");
  const long = staticRows(
    `<html><body><div>Start of it <b>${"many words in bold ".repeat(4)}</b> end of it.<p>x</p></div></body></html>`,
  );
  const k = new Uint8Array(long.nodes.length).fill(1);
  const b = Array.from(long.nodes).findIndex((i) => long.page.nodes[i]?.tag === "b");
  k[b] = 0;
  keepLineGaps({ ...long, keep: k });
  assert.equal(k[b], 0, "a 16-word stretch is more than a gap");
});

test("line-gap rule: a piece its markup hides (keyword stuffing mid-sentence) is never bridged, and the kept pieces' trace says a rule kept what the classifier dropped", async () => {
  for (const hide of [`style="display:none"`, "hidden", `aria-hidden="true"`]) {
    const html = `<html><body><div id="main"><h1>Release notes for version two</h1>
Version 2 is twice as fast on large inputs and it also <span ${hide}>BUY CHEAP PILLS NOW</span> handles the larger files much better than the old version did before.<p>This is a paragraph of the article with enough words to be kept as main content by the extractor.</p></div></body></html>`;
    const e = await mlExtractor.extract(snapshot(html), { mode: "static" });
    assert.match(e.text, /handles the larger files/, hide);
    assert.ok(
      !e.trace.some((t) => t.step === "line-gap" && /PILLS/.test(t.text)),
      `${hide}: the rule does not keep hidden text (the classifier may, reading markup-hidden text as a candidate; hidden=false never)`,
    );
    if (hide.startsWith("style"))
      assert.doesNotMatch(e.text, /PILLS/, "dropped by the classifier, not bridged by the rule");
  }
  const visible = await mlExtractor.extract(
    snapshot(
      `<html><body><div>Version 2.0 makes the importer <a href="/x">twice</a> as fast on large files, and the exporter too, says the team.<p>More text of the article follows in this paragraph here.</p></div></body></html>`,
    ),
    { mode: "static" },
  );
  assert.ok(
    visible.trace.some((t) => t.step === "line-gap" && t.text === "twice"),
    "the link is bridged",
  );
  assert.match(
    visible.trace.find((t) => t.step === "content-classifier" && t.text === "twice")?.reason ?? "",
    /^P\(main\)=[\d.]+ < [\d.]+, kept by a rule or the refiner/,
  );
  for (const t of visible.trace)
    if (t.step === "content-classifier" && t.score !== undefined)
      assert.equal(
        /P\(main\)=[\d.]+ ≥/.test(t.reason),
        t.score >= Number(/ [≥<] ([\d.]+)/.exec(t.reason)?.[1]),
        `the inequality is the true one: ${t.reason}`,
      );
});

test("comment rule: kept leaves inside a comment section are dropped with a trace; a page-wide wrapper never fires", async () => {
  const comments = `<section id="comments" class="comments-area"><h3>2 comments</h3><ol class="comment-list">
<li class="comment"><p>Great piece, rivers have always fascinated me.</p></li><li class="comment"><p>I walked along the river last summer.</p></li></ol></section>`;
  const html = readFileSync(FIXTURE, "utf8").replace("</article>", `</article>${comments}`);
  assert.ok(html.includes('id="comments"'), "the fixture has an </article> to append comments after");
  const { page, tree, nodes, own, keep } = everythingKept(html);
  const trace = dropComments({ page, tree, nodes, own, keep });
  const kept = textOf(
    page,
    tree,
    coalesce(nodes, own, keep).map((r) => nodes[r] as number),
  );
  assert.ok(kept.includes("Rivers rarely run straight"), kept);
  assert.ok(!kept.includes("walked along the river") && !kept.includes("2 comments"), kept);
  assert.ok(trace.length >= 3 && trace.every((t) => t.step === "comment-rule" && t.action === "drop"));
  const wrapped = snapshot(
    `<html><body><div class="post-with-comments"><p>${"Body text of the whole page. ".repeat(20)}</p></div></body></html>`,
  );
  const wt = buildTree(wrapped);
  const wn = structuralNodes(wrapped, wt);
  const wk = new Uint8Array(wn.length).fill(1);
  assert.equal(
    dropComments({ page: wrapped, tree: wt, nodes: wn, own: ownership(wrapped, wt, wn), keep: wk }).length,
    0,
  );
  // the extractor takes the switch and refuses other values
  const e = await mlExtractor.extract(page, {
    mode: "static",
    params: { pageType: "article", comments: "drop" },
  });
  assert.ok(!e.text.includes("walked along the river"));
  await assert.rejects(
    async () => mlExtractor.extract(page, { mode: "static", params: { comments: "maybe" } }),
    /comments must be keep or drop/,
  );
});

test("--param refiner forces a refiner on every page type and refuses unknown names", async () => {
  const cards = [
    "Red wool scarf for cold winter days",
    "Blue cotton shirt with long sleeves",
    "Green linen trousers for hot summers",
    "Black leather belt with a brass buckle",
  ];
  const html = `<html><body><main><h1>Winter clothes</h1><ul class="results">${cards.map((c) => `<li class="result"><h3>${c}</h3><p>Ships today from our warehouse in Leeds.</p></li>`).join("")}</ul></main></body></html>`;
  const plain = await mlExtractor.extract(snapshot(html), { mode: "static", params: { refiner: "none" } });
  const records = await mlExtractor.extract(snapshot(html), {
    mode: "static",
    params: { refiner: "records" },
  });
  assert.ok(plain.text.length > 0);
  for (const line of plain.text.split("\n"))
    assert.ok(records.text.includes(line), `the records refiner only adds: lost "${line}"`);
  assert.ok(records.trace?.every((t) => t.step !== "records-refiner" || t.action === "keep"));
  await assert.rejects(
    async () => mlExtractor.extract(snapshot(html), { mode: "static", params: { refiner: "magic" } }),
    /refiner must be one of none, lbs, sls, tp, region, records/,
  );
});

test("Louvan's parts inside ml: refiner=sls keeps what string-length smoothing keeps (traced as sls); segments=on smooths within segments, segments=off does not, other values are refused", async () => {
  const page = staticSnapshot(pageFromHtml(fixtureText("pages/article.html"), "article"));
  const plain = await mlExtractor.extract(page, { mode: "static", params: { refiner: "none" } });
  const sls = await mlExtractor.extract(page, { mode: "static", params: { refiner: "sls" } });
  assert.ok(
    sls.trace.some((t) => t.step === "sls"),
    "the SLS refiner traces its blocks",
  );
  for (const line of sls.text.split("\n"))
    assert.ok(plain.text.includes(line), `sls only removes: "${line}"`);
  const off = await mlExtractor.extract(page, { mode: "static", params: { segments: "off" } });
  const on = await mlExtractor.extract(page, { mode: "static", params: { segments: "on" } });
  const scoreOf = (e: Extraction) =>
    e.trace.filter((t) => t.step === "content-classifier").map((t) => t.score);
  assert.notDeepEqual(scoreOf(on), scoreOf(off), "segment smoothing moves the leaves' scores");
  assert.deepEqual(
    scoreOf(off),
    scoreOf(await mlExtractor.extract(page, { mode: "static" })),
    "the bundled model ships it off",
  );
  await assert.rejects(
    async () => mlExtractor.extract(page, { mode: "static", params: { segments: "maybe" } }),
    /--param segments must be on or off, not "maybe"/,
  );
});

test("a page in a language without a stop-word list is extracted (stop words fall back to the page's own frequent words)", async () => {
  const para =
    "ქართული ენა არის ქართველური ენების ოჯახის ყველაზე გავრცელებული ენა და საქართველოს სახელმწიფო ენა, რომელზეც ლაპარაკობს დაახლოებით ოთხი მილიონი ადამიანი.";
  const html = `<html lang="ka"><head><title>ქართული ენა</title></head><body><nav><a href="/">მთავარი</a> <a href="/b">ბლოგი</a></nav>
<article><h1>ქართული ენა</h1><p>${para}</p><p>${para.replace("ოთხი", "ხუთი")}</p><p>${para.replace("ენა,", "ენაა,")}</p></article></body></html>`;
  const e = await mlExtractor.extract(snapshot(html), { mode: "static" });
  assert.ok(
    e.text.includes("ოთხი მილიონი ადამიანი") && e.text.includes("ხუთი მილიონი"),
    `keeps the article:\n${e.text}`,
  );
  assert.ok(!e.text.includes("ბლოგი"), `drops the menu:\n${e.text}`);
  assert.match(e.model ?? "", /default-static/);
});

test("training or evaluating on a dataset folder without gold/, or with a bad index line, is a one-line usage error (exit 2)", () => {
  const dir = join(tmp, "nogold");
  mkdirSync(join(dir, "html"), { recursive: true });
  writeFileSync(
    join(dir, "index.jsonl"),
    `${JSON.stringify({ id: "p1", url: "https://a.test/p1", domain: "a.test", genre: "news", lang: "en" })}\n`,
  );
  writeFileSync(join(dir, "html", "p1.html"), "<html><body><p>Hello world text here.</p></body></html>");
  const r = spawnSync(
    process.execPath,
    [join(ROOT, "bin/pith.js"), "train", "--data", dir, "--out", join(tmp, "ng.json")],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /has no gold\/ folder/);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  const ev = spawnSync(
    process.execPath,
    [join(ROOT, "bin/pith.js"), "evaluate", "--method", "ml", "--data", dir],
    { encoding: "utf8" },
  );
  assert.equal(ev.status, 2, ev.stderr);
  assert.match(ev.stderr, /^pith: evaluate: dataset "nogold" has no gold\/ folder/m);
  // a folder that is not a dataset is named as the folder given, not looked up under PITH_DATA
  const missing = spawnSync(
    process.execPath,
    [join(ROOT, "bin/pith.js"), "evaluate", "--method", "cnr", "--data", join(tmp, "no-such-set")],
    { encoding: "utf8" },
  );
  assert.equal(missing.status, 2, missing.stderr);
  assert.equal(
    missing.stderr.trim(),
    `pith: evaluate: no dataset at ${join(tmp, "no-such-set")}: expected ${join(tmp, "no-such-set", "index.jsonl")}`,
  );
  // an index line that is not JSON, or a row without an id: the file and line, not a bare parser message
  mkdirSync(join(dir, "gold"));
  for (const [bad, message] of [
    ['{"id": "p2", "url": null', /index\.jsonl line 2: not JSON/],
    ['{"url": "https://a.test/p3"}', /index\.jsonl: row 2 has no "id"/],
  ] as const) {
    writeFileSync(join(dir, "index.jsonl"), `${JSON.stringify({ id: "p1" })}\n${bad}\n`);
    const res = spawnSync(
      process.execPath,
      [join(ROOT, "bin/pith.js"), "evaluate", "--method", "cnr", "--data", dir],
      { encoding: "utf8" },
    );
    assert.equal(res.status, 2, res.stderr);
    assert.equal(res.stderr.trim().split("\n").length, 1, res.stderr);
    assert.match(res.stderr, message);
  }
});

test("bias=precision keeps no more words than the tuned threshold, bias=recall no fewer; another bias is an error", async () => {
  const words = (t: string): number => t.split(/\s+/).filter(Boolean).length;
  const pages = ["features/mixed.html", "refine/forum.html", "pages/article.html"].map((f) =>
    snapshot(fixtureText(f)),
  );
  let moved = 0;
  for (const page of pages) {
    // without the fallback: an empty result at the higher threshold would bring the page's best leaves back
    const at = async (bias?: string) =>
      words(
        (
          await mlExtractor.extract(page, {
            mode: "static",
            params: { fallback: false, ...(bias ? { bias } : {}) },
          })
        ).text,
      );
    const [precision, tuned, recall] = [await at("precision"), await at(), await at("recall")];
    assert.ok(precision <= tuned && tuned <= recall, `${page.id}: ${precision} ≤ ${tuned} ≤ ${recall}`);
    if (precision !== recall) moved++;
  }
  assert.ok(moved > 0, "the bias moves at least one page's extraction");
  await assert.rejects(
    async () => mlExtractor.extract(pages[0] as PageSnapshot, { mode: "static", params: { bias: "speed" } }),
    /bias must be precision or recall/,
  );
});
