/** Shared test helpers: page inputs from strings and fixture files, generated bad pages. */
import { readFileSync } from "node:fs";
import type { PageInput } from "../src/types.ts";

export function pageFromHtml(html: string, id = "test-page", url: string | null = null): PageInput {
  return { id, source: id, url, html, encoding: "utf-8", remote: false };
}

export function fixturePath(rel: string): string {
  return new URL(`./fixtures/${rel}`, import.meta.url).pathname;
}

/** Reads a fixture; a missing fixture fails the test that asked for it. */
export function fixtureText(rel: string): string {
  return readFileSync(fixturePath(rel), "utf8");
}

/** `depth` nested divs around one paragraph. */
export function deeplyNested(depth: number): string {
  return `<html><body>${"<div>".repeat(depth)}<p>deep text at the bottom</p>${"</div>".repeat(depth)}</body></html>`;
}

/** A page of roughly `bytes` bytes made of many paragraphs. */
export function hugePage(bytes: number): string {
  const para = "<div class=\"c\"><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p></div>\n";
  return `<html><body>${para.repeat(Math.ceil(bytes / para.length))}</body></html>`;
}
