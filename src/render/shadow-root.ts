/**
 * Declarative shadow DOM (`<template shadowrootmode="open|closed">`, HTML Living Standard
 * §4.12.3 and "The template element" parsing rules; Chrome ≥ 111, Firefox ≥ 123, Safari ≥ 16.4):
 * the parser attaches the template's content to its parent element as a shadow root, and the
 * browser renders it. Both renderers put the shadow root into the snapshot as an element named
 * SHADOW_ROOT_TAG (DevTools' name for it) between the host and the shadow content, in front of the
 * host's own (light DOM) children, so its text is page text like any other.
 *
 * Choices where the snapshot cannot follow the browser exactly:
 * - Slots are not resolved: light children keep their place after the shadow content instead of
 *   moving into the `<slot>` that shows them, and a light child no slot shows stays in the
 *   static snapshot (Chromium gives it no layout box, so there it is invisible, as on screen).
 * - Statically, only the first shadow template of a host attaches, and only to an element that
 *   may host a shadow root (SHADOW_HOSTS or a custom element); any other template stays inert,
 *   as in the browser. Closed roots attach statically; Chromium's DOM walk can read open roots
 *   only (a closed root is not reachable from page script).
 */
export const SHADOW_ROOT_TAG = "#shadow-root";

/** Elements `attachShadow` accepts besides custom elements (DOM Standard, "valid shadow host name"). */
export const SHADOW_HOSTS: ReadonlySet<string> = new Set([
  "article",
  "aside",
  "blockquote",
  "body",
  "div",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "main",
  "nav",
  "p",
  "section",
  "span",
]);

/** Whether an element of this (lower-case) tag may host a shadow root. */
export function canHostShadow(tag: string): boolean {
  return SHADOW_HOSTS.has(tag) || (tag.includes("-") && /^[a-z][a-z0-9._-]*-[a-z0-9._-]*$/.test(tag));
}

/** A `shadowrootmode` value that makes a template a declarative shadow root (ASCII case-insensitive). */
export function isShadowRootMode(value: string): boolean {
  const v = value.toLowerCase();
  return v === "open" || v === "closed";
}
