import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import { gzipSync } from "node:zlib";
import { DecodeError, decodeHtml } from "../src/io/decode.ts";
import { looksThai, thaiEvidence } from "../src/io/thai.ts";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/inputs/${name}`, import.meta.url));

test("UTF-8 with a BOM: BOM stripped, text intact", () => {
  const d = decodeHtml(fixture("utf8-bom.html"));
  assert.match(d.html, /Straße été/);
  assert.equal(d.html.charCodeAt(0), "<".charCodeAt(0));
  assert.equal(d.encoding, "utf-8 (bom)");
});

test("Shift-JIS page declared in <meta charset> decodes to the right characters", () => {
  const d = decodeHtml(fixture("shift-jis.html"));
  assert.match(d.html, /日本語のページです。川は蛇行する。/);
  assert.equal(d.encoding, "shift_jis (meta)");
});

test("undeclared Latin-1 bytes are not decoded as UTF-8 mojibake", () => {
  const d = decodeHtml(fixture("latin1-undeclared.html"));
  assert.match(d.html, /Café crème brûlée, déjà vu/);
});

test("invalid UTF-8 without a declaration still yields text (never throws)", () => {
  const d = decodeHtml(fixture("invalid-utf8.html"));
  assert.match(d.html, /ok .* broken .* bytes/);
});

test("an HTTP charset wins over nothing, and valid UTF-8 wins over a wrong label", () => {
  assert.equal(decodeHtml(Buffer.from("<p>\xe9</p>", "latin1"), "iso-8859-1").html, "<p>é</p>");
  const mislabelled = Buffer.from('<meta charset="iso-8859-1"><p>été</p>', "utf8");
  assert.match(decodeHtml(mislabelled).html, /été/);
});

test("a page declared UTF-8 whose non-ASCII bytes are not UTF-8 (a latin-1 page under a utf-8 template) is detected; a few broken bytes among valid UTF-8 stay UTF-8", () => {
  const lying = Buffer.from(
    '<html><head><meta charset="utf-8"></head><body><p>\xdcber die Stra\xdfe gehen wir heute mit den Kindern, und dann essen wir K\xe4se.</p></body></html>',
    "latin1",
  );
  const d = decodeHtml(lying);
  assert.match(d.html, /Über die Straße .* Käse/);
  assert.doesNotMatch(d.html, /\ufffd/);
  assert.doesNotMatch(d.encoding, /meta/);
  const mostly = Buffer.concat([
    Buffer.from('<meta charset="utf-8"><p>Café crème brûlée ', "utf8"),
    Buffer.from([0xff]),
    Buffer.from(" one bad byte</p>", "utf8"),
  ]);
  const m = decodeHtml(mostly);
  assert.match(m.html, /Café crème brûlée \ufffd one bad byte/);
  assert.equal(m.encoding, "utf-8 (meta)");
});

test("an XML declaration's encoding is a declared charset (an XHTML chapter in windows-1251)", () => {
  const head = Buffer.from(
    `<?xml version="1.0" encoding="windows-1251"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>`,
    "latin1",
  );
  const body = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x2c, 0x20, 0xec, 0xe8, 0xf0]); // "Привет, мир" in windows-1251
  assert.match(
    decodeHtml(Buffer.concat([head, body, Buffer.from("</p></body></html>")])).html,
    /Привет, мир/,
  );
});

test("undeclared Cyrillic pages (windows-1251, KOI8-R) are detected, not read as windows-1252 mojibake; undeclared Latin-1 stays Latin-1", async () => {
  const iconv = (await import("iconv-lite")).default;
  const text =
    "Сегодня в Москве ожидается облачная погода с прояснениями, температура воздуха около десяти градусов.";
  for (const [encoding, label] of [
    ["win1251", "windows-1251"],
    ["koi8-r", "koi8-r"],
  ] as const) {
    const d = decodeHtml(
      iconv.encode(
        `<html><head><title>Погода</title></head><body><h1>Погода в Москве</h1><p>${text}</p></body></html>`,
        encoding,
      ),
    );
    assert.match(d.html, /Погода в Москве/);
    assert.equal(d.encoding, `${label} (detected)`);
  }
  const latin = decodeHtml(
    Buffer.from(
      "<html><body><p>El niño comió una manzana en el jardín mientras su mamá leía un libro.</p></body></html>",
      "latin1",
    ),
  );
  assert.match(latin.html, /El niño comió una manzana en el jardín/);
});

test("gzip input is transparently decompressed", () => {
  assert.equal(decodeHtml(gzipSync(Buffer.from("<p>zipped</p>"))).html, "<p>zipped</p>");
});

test("binary garbage is refused with a DecodeError naming the reason", () => {
  assert.throws(
    () => decodeHtml(fixture("binary.bin.html")),
    (e: unknown) => e instanceof DecodeError && /binary/.test((e as Error).message),
  );
});

test("an empty file decodes to an empty page", () => {
  assert.equal(decodeHtml(fixture("empty.html")).html, "");
});

test("UTF-16 without a byte-order mark is told by its NUL bytes (LE and BE), not refused as binary", () => {
  const html = "<!doctype html><html><body><p>Straße été 日本語</p></body></html>";
  const le = Buffer.from(html, "utf16le");
  const be = Buffer.from(le).swap16();
  assert.deepEqual(decodeHtml(le), { html, encoding: "utf-16le (no bom)" });
  assert.deepEqual(decodeHtml(be), { html, encoding: "utf-16be (no bom)" });
  // a NUL run falls on even and odd bytes alike: no UTF-16, padding before the markup (skipped)
  const padded = Buffer.concat([Buffer.alloc(2048), Buffer.from("<p>text after padding</p>")]);
  assert.deepEqual(decodeHtml(padded).warnings, ["skipped 2048 NUL bytes before the markup"]);
});

test("undeclared Thai (TIS-620, windows-874) is recognised, not read as EUC-KR or windows-1252 mojibake; undeclared Korean stays EUC-KR", async () => {
  const iconv = (await import("iconv-lite")).default;
  const thai = "กรุงเทพมหานครเป็นเมืองหลวงและเมืองที่มีประชากรมากที่สุดของประเทศไทย ตั้งอยู่บนฝั่งแม่น้ำเจ้าพระยา ใกล้กับอ่าวไทย";
  const page = (title: string, text: string) =>
    `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
  for (const encoding of ["tis620", "windows874"]) {
    // windows-874 adds punctuation in 0x80-0x9F (the quotes, dash and ellipsis here)
    const html = page("ข่าววันนี้", encoding === "tis620" ? thai : `“${thai}” – ต่อ…`);
    assert.deepEqual(
      decodeHtml(iconv.encode(html, encoding)),
      { html, encoding: "windows-874 (detected)" },
      encoding,
    );
  }
  const korean =
    "서울은 대한민국의 수도이자 최대 도시이다. 한강이 도시를 가로질러 흐르며, 약 천만 명의 인구가 살고 있다.";
  const html = page("오늘의 뉴스", korean);
  assert.deepEqual(decodeHtml(iconv.encode(html, "euc-kr")), { html, encoding: "euc-kr (detected)" });
});

test("text that keeps Thai spelling when read as windows-874 is still not Thai: Korean in EUC-KR (its marks are all second bytes of pairs), lower-case Ukrainian in KOI8-U (no tone marks or leading vowels)", async () => {
  const iconv = (await import("iconv-lite")).default;
  const korean = iconv.encode(
    "잘못된 문자열: 정규식 패턴과 일치해야 합니다. 유효하지 않은 인자입니다. 옵션의 조합이 잘못되었습니다. 알 수 없는 인자들입니다.",
    "euc-kr",
  );
  const k = thaiEvidence(korean);
  assert.ok(k.letters >= 100 && k.misspelt === 0 && k.marks > 10 && k.evenMarks === 0, JSON.stringify(k));
  assert.equal(looksThai(korean), false);
  const ukrainian = iconv.encode(
    "символів матиме байтів матиме елементів матиме елементів матиме байтів",
    "koi8-u",
  );
  const u = thaiEvidence(ukrainian);
  assert.ok(
    u.letters >= 60 && u.misspelt <= 1 && u.evenMarks >= u.marks / 2 && u.core === 0,
    JSON.stringify(u),
  );
  assert.equal(looksThai(ukrainian), false);
});

/** A page long enough that gzip cannot squeeze it to a few bytes: varied sentences. */
function articleBytes(paragraphs: number): Buffer {
  const ps = Array.from(
    { length: paragraphs },
    (_, i) =>
      `<p>Paragraph ${i}: the river bends ${i * 7919} times, carrying ${i % 13} tonnes of gravel.</p>`,
  );
  return Buffer.from(`<html><body><article><h1>River notes</h1>${ps.join("")}</article></body></html>`);
}

test("a truncated gzip gives the text that arrived, with a warning; a whole one has none", () => {
  const whole = gzipSync(articleBytes(400));
  assert.equal(decodeHtml(whole).warnings, undefined);
  const d = decodeHtml(whole.subarray(0, Math.floor(whole.length * 0.6)));
  assert.match(d.html, /<h1>River notes<\/h1><p>Paragraph 0: /);
  assert.ok(d.html.length > articleBytes(400).length * 0.3, "most of what arrived is there");
  assert.equal(d.warnings?.length, 1);
  assert.match(d.warnings?.[0] ?? "", /^gzip data is truncated: extracted from the \d+ bytes that arrived$/);
});

test("a gzip bomb is refused in words: the data expands past the page cap", () => {
  assert.throws(
    () => decodeHtml(gzipSync(Buffer.alloc(70 * 1024 * 1024, 0x20))),
    (e: unknown) => e instanceof DecodeError && e.message === "gzip data expands past the 64 MB cap",
  );
});

test("a run of NUL bytes before valid markup is skipped with a warning; NULs through the data stay binary", () => {
  const d = decodeHtml(Buffer.concat([Buffer.alloc(5000), articleBytes(3)]));
  assert.match(d.html, /^<html><body><article><h1>River notes/);
  assert.deepEqual(d.warnings, ["skipped 5000 NUL bytes before the markup"]);
  const mixed = Buffer.concat([Buffer.alloc(100), articleBytes(3).subarray(0, 40), Buffer.alloc(2000)]);
  assert.throws(
    () => decodeHtml(mixed),
    (e: unknown) => e instanceof DecodeError && /binary data/.test(e.message),
  );
});

test("a gzip file of several members (whose last trailer states only its own size) gives the whole page", () => {
  const page = articleBytes(200);
  const cut = 1000;
  const gz = Buffer.concat([gzipSync(page.subarray(0, page.length - cut)), gzipSync(page.subarray(-cut))]);
  const d = decodeHtml(gz);
  assert.equal(d.html, page.toString("utf8"));
  assert.equal(d.warnings, undefined);
});

test("valid UTF-8 decodes to exactly the text a strict TextDecoder gives (Latin-1-only, astral, CJK, a BOM after leading NULs)", () => {
  const strict = new TextDecoder("utf-8", { fatal: true });
  const texts = [
    "<p>Straße été, déjà vu</p>",
    "<p>emoji 😀 and 𝔘𝔫𝔦 and 中文 and עברית</p>".repeat(50),
    `<p>${"plain ascii ".repeat(100)}</p>`,
  ];
  for (const text of texts) {
    const bytes = Buffer.from(text, "utf8");
    assert.equal(decodeHtml(bytes).html, strict.decode(bytes));
  }
  const afterNuls = Buffer.concat([
    Buffer.alloc(300),
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from(texts[0] ?? ""),
  ]);
  assert.equal(decodeHtml(afterNuls).html, texts[0]);
});
