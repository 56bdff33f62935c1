/** Shared test helpers: page inputs from strings and fixture files, generated bad pages. */
import { readFileSync } from "node:fs";
import { buildTree } from "../src/dom/tree.ts";
import { structuralNodes } from "../src/features/structural.ts";
import { ownership } from "../src/pipeline/own-text.ts";
import { staticSnapshot } from "../src/render/static.ts";
import type { PageInput, PageSnapshot } from "../src/types.ts";

export function pageFromHtml(html: string, id = "test-page", url: string | null = null): PageInput {
  return { id, source: id, url, html, encoding: "utf-8", remote: false };
}

/** A static page's tree, structural rows and word ownership: what the pipeline's rules and refiners read. */
export function staticRows(html: string) {
  const page = staticSnapshot(pageFromHtml(html));
  const tree = buildTree(page);
  const nodes = structuralNodes(page, tree);
  return { page, tree, nodes, own: ownership(page, tree, nodes) };
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

/** The hand-made five-page blog in fixtures/site/blog/: one template, five articles. */
export const BLOG = ["rivers", "bees", "bread", "stars", "tides"];

export function blogPages(): PageSnapshot[] {
  return BLOG.map((n) => staticSnapshot(pageFromHtml(fixtureText(`site/blog/${n}.html`), n, `http://blog.test/posts/${n}.html`)));
}

/** The main text of fixtures/site/blog/rivers.html. */
export const RIVERS_TEXT = [
  "How rivers carve canyons",
  "Water moving over rock for millions of years slowly grinds the stone into sand and gravel.",
  "Floods carry boulders that act like chisels against the canyon walls during storms.",
  "The Colorado river cut the Grand Canyon over roughly six million years of erosion.",
].join("\n");
