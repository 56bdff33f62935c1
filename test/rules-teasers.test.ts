/**
 * The teaser rule: on article pages, kept leaves in a list of linked headlines named by a teaser
 * heading ("Related stories", "Lesen Sie auch", "関連記事", …) or by its box (`<aside>`, a
 * related-posts class) are dropped, in several languages; the article, prose under such a
 * heading, a pull quote in an aside and a page that is all list stay. The classifier is taken
 * out of the question: every row is kept before the rule runs.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { textOf } from "../src/dom/text.ts";
import { runOptionsFrom } from "../src/pipeline/extractor.ts";
import { RULES } from "../src/pipeline/rules/index.ts";
import { dropTeasers, headingKey, TEASER_HEADING } from "../src/pipeline/rules/teasers.ts";
import { coalesce } from "../src/pipeline/select.ts";
import { staticRows } from "./helpers.ts";

interface Lang {
  lang: string;
  heading: string;
  article: string[];
  headlines: string[];
}

const LANGS: Lang[] = [
  {
    lang: "en",
    heading: "Related stories",
    article: [
      "The city council voted on Tuesday to extend the tram line to the northern suburbs by 2030.",
      "Construction is expected to start next spring, and the council estimates the cost at 240 million.",
    ],
    headlines: ["Bus fares to rise in June", "New bridge opens to cyclists", "Council election date set"],
  },
  {
    lang: "de",
    heading: "Lesen Sie auch:",
    article: [
      "Der Stadtrat hat am Dienstag beschlossen, die Straßenbahnlinie bis 2030 in die nördlichen Vororte zu verlängern.",
      "Die Bauarbeiten sollen im nächsten Frühjahr beginnen, die Kosten werden auf 240 Millionen geschätzt.",
    ],
    headlines: [
      "Busfahrpreise steigen im Juni",
      "Neue Brücke für Radfahrer geöffnet",
      "Termin der Stadtratswahl steht",
    ],
  },
  {
    lang: "fr",
    heading: "À lire aussi",
    article: [
      "Le conseil municipal a voté mardi le prolongement de la ligne de tramway vers les banlieues nord d'ici 2030.",
      "Les travaux devraient commencer au printemps prochain pour un coût estimé à 240 millions d'euros.",
    ],
    headlines: [
      "Les tarifs des bus augmentent en juin",
      "Un nouveau pont ouvert aux cyclistes",
      "La date des élections fixée",
    ],
  },
  {
    lang: "es",
    heading: "Noticias relacionadas",
    article: [
      "El ayuntamiento aprobó el martes ampliar la línea de tranvía hasta los barrios del norte antes de 2030.",
      "Las obras comenzarán la próxima primavera y el coste se estima en 240 millones de euros.",
    ],
    headlines: [
      "Suben las tarifas del autobús en junio",
      "Abre un nuevo puente para ciclistas",
      "Fijada la fecha de las elecciones",
    ],
  },
  {
    lang: "ru",
    heading: "Читайте также",
    article: [
      "Городской совет во вторник проголосовал за продление трамвайной линии в северные пригороды к 2030 году.",
      "Строительство начнётся следующей весной, а его стоимость оценивается в 240 миллионов.",
    ],
    headlines: [
      "Тарифы на автобусы вырастут в июне",
      "Новый мост открыт для велосипедистов",
      "Назначена дата выборов в совет",
    ],
  },
  {
    lang: "ar",
    heading: "اقرأ أيضا",
    article: [
      "صوت مجلس المدينة يوم الثلاثاء على تمديد خط الترام إلى الضواحي الشمالية بحلول عام 2030.",
      "ومن المتوقع أن تبدأ أعمال البناء في الربيع المقبل بتكلفة تقدر بنحو 240 مليون.",
    ],
    headlines: [
      "ارتفاع أسعار الحافلات في يونيو",
      "افتتاح جسر جديد لراكبي الدراجات",
      "تحديد موعد انتخابات المجلس",
    ],
  },
  {
    lang: "ja",
    heading: "関連記事",
    article: [
      "市議会は火曜日、路面電車の路線を2030年までに北部郊外へ延伸することを可決した。",
      "工事は来年春に始まる予定で、費用は2億4000万と見積もられている。",
    ],
    headlines: ["6月からバス運賃値上げ", "自転車専用の新しい橋が開通", "市議会選挙の日程が決定"],
  },
  {
    lang: "zh",
    heading: "相关新闻",
    article: [
      "市议会周二投票决定在2030年前将有轨电车线路延伸至北部郊区。",
      "工程预计明年春天开工，费用估计为2.4亿。",
      "市长表示，新线路将大大缩短北部居民前往市中心的通勤时间，并减少道路拥堵。",
    ],
    headlines: ["六月起本市公交票价将上涨两成", "城北新桥今日起向骑车人开放", "市议会选举日期正式确定"],
  },
];

/** An article, then a heading and a list of linked headlines with dates, then a footer line. */
function articleWithList(l: Lang): string {
  const items = l.headlines.map(
    (h, k) => `<li><a href="/n/${k}">${h}</a> <span>2024-05-0${k + 1}</span></li>`,
  );
  return `<html lang="${l.lang}"><body><article><h1>${l.headlines[0]}</h1>${l.article.map((p) => `<p>${p}</p>`).join("")}</article>
<section><h2>${l.heading}</h2><ul>${items.join("")}</ul></section><footer><p>© 2024</p></footer></body></html>`;
}

/** Runs the rule with every row kept; the text that stays and the trace. */
function run(html: string): { kept: string; trace: ReturnType<typeof dropTeasers> } {
  const rows = staticRows(html);
  const keep = new Uint8Array(rows.nodes.length).fill(1);
  const trace = dropTeasers({ ...rows, keep });
  const roots = coalesce(rows.nodes, rows.own, keep).map((r) => rows.nodes[r] as number);
  return { kept: textOf(rows.page, rows.tree, roots), trace };
}

for (const l of LANGS) {
  test(`teasers (${l.lang}): the list under "${l.heading}" is dropped with its heading; the article stays`, () => {
    const { kept, trace } = run(articleWithList(l));
    for (const p of l.article) assert.ok(kept.includes(p), p);
    for (const h of l.headlines.slice(1)) assert.ok(!kept.includes(h), h);
    assert.ok(!kept.includes(l.heading.replace(":", "")), "the heading goes with its list");
    assert.ok(kept.includes("© 2024"), "what follows the list is not the list");
    assert.ok(trace.length >= 4 && trace.every((t) => t.step === "teaser-rule" && t.action === "drop"));
    assert.match(trace[0]!.reason, /teaser list under the heading .* \(3 links\)/);
  });
}

test("teasers: a heading alone in a box with a 'see all' link names the list after the box", () => {
  const l = LANGS[0] as Lang;
  const html = articleWithList(l).replace(
    `<h2>${l.heading}</h2>`,
    `<div class="hd"><h3>Most read</h3><a href="/popular">See all</a></div>`,
  );
  const { kept } = run(html);
  assert.ok(!kept.includes("Most read") && !kept.includes("See all") && !kept.includes(l.headlines[1]!));
  assert.ok(kept.includes(l.article[1]!));
});

test("teasers: an <aside> or a related-posts box of links goes without a heading; a pull quote in an aside stays", () => {
  const l = LANGS[0] as Lang;
  const links = l.headlines.map((h, k) => `<a href="/n/${k}"><img src="t${k}.jpg" alt="">${h}</a>`).join("");
  const quote = "The tram will change how the whole north of the city lives and works, the mayor said.";
  const html = `<html><body><article>${l.article.map((p) => `<p>${p}</p>`).join("")}
<aside><blockquote>${quote}</blockquote></aside></article>
<aside><div>${links}</div></aside><div class="related-posts"><p>${links.replaceAll("/n/", "/m/")}</p></div></body></html>`;
  const { kept, trace } = run(html);
  assert.ok(kept.includes(quote), "prose in an aside is not a list of links");
  for (const h of l.headlines) assert.ok(!kept.includes(h), h);
  assert.deepEqual(
    trace.map((t) => /in <(aside|div related-posts)>/.test(t.reason)),
    [true, true],
  );
});

test("teasers: prose under a teaser heading, a short list and a page that is all list stay", () => {
  const l = LANGS[0] as Lang;
  const prose = `<h2>Related coverage</h2><p>Our reporters covered the <a href="/a">first vote</a>, the
<a href="/b">public hearing</a> and the <a href="/c">budget debate</a> last year, when the council
first discussed the plan and residents of the northern suburbs asked for more frequent trams.</p>`;
  assert.deepEqual(
    run(
      `<html><body><article>${l.article.map((p) => `<p>${p}</p>`).join("")}${prose}</article></body></html>`,
    ).trace,
    [],
  );
  const short = articleWithList({ ...l, headlines: l.headlines.slice(0, 2) });
  assert.deepEqual(run(short).trace, [], `fewer than 3 links`);
  const many = Array.from(
    { length: 30 },
    (_, k) => `<li><a href="/n/${k}">Story number ${k} of the most read list today</a></li>`,
  );
  const list = `<html><body><p>Intro.</p><h1>Most read</h1><ul>${many.join("")}</ul></body></html>`;
  assert.deepEqual(run(list).trace, [], "the list is the page's content: it holds most of the kept words");
});

test("teasers: a labelled link line in the article goes; a source credit and a labelled sentence stay", () => {
  const l = LANGS[0] as Lang;
  const lines = [
    `<p><strong>RELATED:</strong> <a href="/n/1">${l.headlines[1]}</a></p>`,
    `<p>Lesen Sie auch: <a href="/n/2">${l.headlines[2]}</a></p>`,
    `<p>Read more at Reuters: <a href="https://reuters.example/tram">Tram line extended</a></p>`,
    `<p>Related: the council also voted on <a href="/n/3">bus fares</a> and on the budget for the coming two years.</p>`,
  ];
  const title = `<h1><a href="/tram">TRENDING: Tram line to reach the northern suburbs</a></h1>`;
  const html = `<html><body><article>${title}${l.article.map((p) => `<p>${p}</p>`).join("")}${lines.join("")}</article></body></html>`;
  const { kept, trace } = run(html);
  assert.ok(!kept.includes(l.headlines[1]!) && !kept.includes(l.headlines[2]!));
  assert.ok(kept.includes("Tram line extended"), "a source credit stays");
  assert.ok(kept.includes("TRENDING: Tram line"), "a linked title is the article's own");
  assert.ok(kept.includes("bus fares"), "a sentence after the label is not a link line");
  assert.deepEqual(
    trace.map((t) => t.reason),
    [
      'in a teaser list after the label "related" (1 link)',
      'in a teaser list after the label "lesen sie auch" (1 link)',
    ],
  );
});

test("teasers: heading keys and the phrases they match", () => {
  assert.equal(headingKey("  Related Stories »"), "related stories");
  assert.equal(headingKey("MORE FROM  The Times:"), "more from the times");
  for (const h of [
    "you may also like",
    "most read",
    "lo más leído",
    "i più letti",
    "관련 기사",
    "meistgelesen",
  ])
    assert.ok(TEASER_HEADING.test(headingKey(h)), h);
  for (const h of ["related research", "more", "see also", "the most read book of 2020 was a novel"])
    assert.ok(!TEASER_HEADING.test(headingKey(h)), h);
});

test("teasers: on by default on article pages only, off with --param teasers=false", () => {
  const rule = RULES.find((r) => r.name === "teasers");
  assert.ok(rule);
  const ctx = (pageType: string, params: Record<string, boolean>) =>
    ({ pageType, options: runOptionsFrom({ params }) }) as Parameters<typeof rule.appliesTo>[0];
  assert.equal(rule.appliesTo(ctx("article", {})), true);
  assert.equal(rule.appliesTo(ctx("listing", {})), false);
  assert.equal(rule.appliesTo(ctx("article", { teasers: false })), false);
});
