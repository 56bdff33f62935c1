import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import { gzipSync } from "node:zlib";
import { DecodeError, decodeHtml } from "../src/io/decode.ts";

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
  const lying = Buffer.from('<html><head><meta charset="utf-8"></head><body><p>\xdcber die Stra\xdfe gehen wir heute mit den Kindern, und dann essen wir K\xe4se.</p></body></html>', "latin1");
  const d = decodeHtml(lying);
  assert.match(d.html, /Über die Straße .* Käse/);
  assert.doesNotMatch(d.html, /\ufffd/);
  assert.doesNotMatch(d.encoding, /meta/);
  const mostly = Buffer.concat([Buffer.from('<meta charset="utf-8"><p>Café crème brûlée ', "utf8"), Buffer.from([0xff]), Buffer.from(" one bad byte</p>", "utf8")]);
  const m = decodeHtml(mostly);
  assert.match(m.html, /Café crème brûlée \ufffd one bad byte/);
  assert.equal(m.encoding, "utf-8 (meta)");
});

test("an XML declaration's encoding is a declared charset (an XHTML chapter in windows-1251)", () => {
  const head = Buffer.from(`<?xml version="1.0" encoding="windows-1251"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>`, "latin1");
  const body = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x2c, 0x20, 0xec, 0xe8, 0xf0]); // "Привет, мир" in windows-1251
  assert.match(decodeHtml(Buffer.concat([head, body, Buffer.from("</p></body></html>")])).html, /Привет, мир/);
});

test("undeclared Cyrillic pages (windows-1251, KOI8-R) are detected, not read as windows-1252 mojibake; undeclared Latin-1 stays Latin-1", async () => {
  const iconv = (await import("iconv-lite")).default;
  const text = "Сегодня в Москве ожидается облачная погода с прояснениями, температура воздуха около десяти градусов.";
  for (const [encoding, label] of [["win1251", "windows-1251"], ["koi8-r", "koi8-r"]] as const) {
    const d = decodeHtml(iconv.encode(`<html><head><title>Погода</title></head><body><h1>Погода в Москве</h1><p>${text}</p></body></html>`, encoding));
    assert.match(d.html, /Погода в Москве/);
    assert.equal(d.encoding, `${label} (detected)`);
  }
  const latin = decodeHtml(Buffer.from("<html><body><p>El niño comió una manzana en el jardín mientras su mamá leía un libro.</p></body></html>", "latin1"));
  assert.match(latin.html, /El niño comió una manzana en el jardín/);
});

test("gzip input is transparently decompressed", () => {
  assert.equal(decodeHtml(gzipSync(Buffer.from("<p>zipped</p>"))).html, "<p>zipped</p>");
});

test("binary garbage is refused with a DecodeError naming the reason", () => {
  assert.throws(() => decodeHtml(fixture("binary.bin.html")), (e: unknown) => e instanceof DecodeError && /binary/.test((e as Error).message));
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
  // NUL runs (padding in a binary format) fall on even and odd bytes alike: still binary
  const padded = Buffer.concat([Buffer.alloc(2048), Buffer.from("<p>text after padding</p>")]);
  assert.throws(() => decodeHtml(padded), (e: unknown) => e instanceof DecodeError && /binary/.test((e as Error).message));
});
