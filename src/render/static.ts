/**
 * Static renderer: builds a PageSnapshot from HTML with htmlparser2's tokenizer and no browser.
 * Chosen over parse5 for speed (DEPENDENCIES.md: 2.4 ms vs 6.3 ms on a 96 KB page;
 * `npm run bench:render` measures it again), through fast-tokenizer.ts, which skips runs of
 * inert characters natively (same events, 40 % less parse time), and tree-builder.ts, which does
 * what htmlparser2's Parser did for pith (implied end tags, void elements, foreign content) at
 * less cost. The snapshot is built directly from the builder's events (no intermediate DOM), with
 * an explicit stack, so 10,000-level nesting costs nothing special.
 *
 * No geometry and no computed style: `box`/`style` stay absent. `visible` is false inside
 * elements that are hidden by markup alone: the `hidden` attribute, aria-hidden="true",
 * inline `display:none` / `visibility:hidden`, <template> (except a declarative shadow root,
 * which is page text: shadow-root.ts), <input type=hidden>, and the non-rendered head elements;
 * unless that hides nearly the whole page (revealScriptHiddenPage).
 * Script and style bodies are dropped (the elements stay, empty). <noscript> content is kept
 * as markup: Discourse forums put the whole thread there (MODELING-NOTES.md); escaped markup
 * text in it is hidden (escaped-markup.ts).
 */
import type { PageInput, PageSnapshot, Renderer, RenderOptions, SnapshotNode } from "../types.ts";
import { SNAPSHOT_VERSION } from "../types.ts";
import { isShadowRootModeAt, keptNameAt, SHADOW_ROOT_MODE } from "./attribute-names.ts";
import { keptValue } from "./attributes.ts";
import { htmlOf } from "./xhtml.ts";
import { TreeBuilder } from "./tree-builder.ts";
import { pageMeta } from "./page-meta.ts";
import { repairMarkup } from "./repair.ts";
import { hideEscapedNoscriptMarkup } from "../dom/escaped-markup.ts";
import { HIDDEN_BY, markupHiding, neverRendered } from "../dom/hiding.ts";
import { revealScriptHiddenPage } from "./reveal.ts";
import { canHostShadow, isShadowRootMode, SHADOW_ROOT_TAG } from "./shadow-root.ts";
import { PREFORMATTED_TAGS } from "../dom/blocks.ts";
import { inheritedBits } from "../dom/tree.ts";
import { withoutControls } from "./control-chars.ts";
import { MathText } from "./math-text.ts";

/**
 * Elements whose text content is not page text. `<xmp>` is raw text too, but a browser shows it
 * as preformatted text (WordPress code plugins still emit it, and wcxb-dev's gold keeps it), so
 * its text is kept; htmlparser2 leaves the markup inside it unparsed, as a browser does.
 */
const RAW_TEXT_TAGS = new Set([
  "script",
  "style",
  "template",
  "textarea",
  "title",
  "iframe",
  "noembed",
  "noframes",
]);
/**
 * Subtrees whose descendant elements are dropped (the element itself is kept), as in the Chromium
 * walk. A `<math>` formula keeps its text as one text child (math-text.ts).
 */
const OPAQUE_TAGS = new Set(["svg", "math"]);

/**
 * React/Next.js streaming SSR sends late content as `<div hidden id="S:n">` and an inline script
 * moves it into its `<template id="B:n">` placeholder: the reader sees it, so static mode does too.
 */
const STREAMED_BOUNDARY_ID = /^S:\d+$/;

function hiddenByMarkup(tag: string, attrs: Record<string, string>): boolean {
  if (neverRendered(tag, attrs)) return true;
  const by = markupHiding(attrs);
  // a streamed SSR boundary's `hidden` alone does not hide it (STREAMED_BOUNDARY_ID)
  if (by === HIDDEN_BY.attr && tag === "div" && STREAMED_BOUNDARY_ID.test(attrs["id"] ?? "")) return false;
  return by !== 0;
}

/**
 * Snapshot nodes are made by constructors, not object literals. V8 follows the objects each
 * literal makes, and when most of them outlive a young-generation collection (a page's nodes live
 * until the page is done) it allocates that literal's objects in the old generation from then on
 * ("pretenuring"): one process in three, depending on when its first collections fell, then ran
 * the static renderer about 15 % slower, the allocations and the old
 * generation's collections costing more. Objects a constructor makes are not followed. The
 * constructors' prototype is Object.prototype, so the nodes are the same plain objects as literals make
 * (same properties in the same order).
 */
type ElementNodeConstructor = new (
  parent: number,
  tag: string,
  attrs: Record<string, string>,
  visible: boolean,
) => SnapshotNode;
type TextNodeConstructor = new (parent: number, text: string, visible: boolean) => SnapshotNode;

const ElementNode = function (
  this: SnapshotNode,
  parent: number,
  tag: string,
  attrs: Record<string, string>,
  visible: boolean,
) {
  this.parent = parent;
  this.type = 1;
  this.tag = tag;
  this.attrs = attrs;
  this.visible = visible;
} as unknown as ElementNodeConstructor;
ElementNode.prototype = Object.prototype;

const TextNode = function (this: SnapshotNode, parent: number, text: string, visible: boolean) {
  this.parent = parent;
  this.type = 3;
  this.tag = "#text";
  this.text = text;
  this.visible = visible;
} as unknown as TextNodeConstructor;
TextNode.prototype = Object.prototype;

interface BuildState {
  nodes: SnapshotNode[];
  /** Stack of open element indices. */
  stack: number[];
  /** Depth of open raw-text / opaque elements (text inside is dropped). */
  skipText: number;
  opaqueDepth: number;
  /** The outermost open <math> element and its formula's text so far (math-text.ts), or null. */
  math: { index: number; text: MathText } | null;
  /** The <body> element once opened or implied. */
  body: number | null;
  title: string;
  inTitle: boolean;
  lang: string | null;
  /** The element whose start tag is being read (its attributes arrive one by one), or null. */
  open: OpenTag | null;
  /** Hosts that got a declarative shadow root (shadow-root.ts): a second one stays a template. */
  shadowHosts: Set<number>;
}

/**
 * A start tag until its `>`: the element is in `nodes` already, its kept attributes are filled as
 * they come, and its visibility (which depends on them) is decided when the tag ends. A second
 * <html> or <body> has no element of its own: its attributes are merged into the existing one.
 */
interface OpenTag {
  tag: string;
  attrs: Record<string, string>;
  /** Index of the new element, or of the existing element a second <html>/<body> merges into. */
  index: number;
  merge: boolean;
  /** A <template> with a valid shadowrootmode (shadow-root.ts). */
  shadowRoot?: boolean;
}

function top(state: BuildState): number {
  return state.stack.length ? (state.stack[state.stack.length - 1] as number) : -1;
}

/** Elements that may stay in <head>; any other element there starts the body, as in the HTML tree builder. */
const HEAD_CONTENT_TAGS = new Set([
  "base",
  "basefont",
  "bgsound",
  "link",
  "meta",
  "title",
  "noscript",
  "script",
  "style",
  "template",
  "head",
]);
/** How far down the open-element stack a close tag looks for its element (mismatched markup). */
const MAX_CLOSE_SEARCH = 64;

/**
 * Nodes (elements and text) a snapshot may hold. The largest page of the shared sets has about
 * 16,000 elements; a page of 2 million `<br>` still extracts on a worker (0.7 GB RSS), and a data
 * table of 210,000 rows is a million nodes. Past this a page is refused while it is parsed,
 * before its node list alone (one JavaScript array) outgrows the heap: a worker that runs out of
 * heap inside one allocation aborts the whole process, not just itself (a 55 MB page of `<br>`
 * is 14 million nodes).
 */
export const MAX_SNAPSHOT_NODES = 2_000_000;

/** The render error of a page past the node cap, in both renderers. */
export function tooLargeMessage(cap: number): string {
  return `page too large: more than ${cap.toLocaleString("en")} elements and text nodes`;
}

/** Adds a node to the snapshot; a page past MAX_SNAPSHOT_NODES is an error (a render error record). */
function addNode(state: BuildState, node: SnapshotNode): void {
  if (state.nodes.length >= MAX_SNAPSHOT_NODES) throw new Error(tooLargeMessage(MAX_SNAPSHOT_NODES));
  state.nodes.push(node);
}

function pushElement(state: BuildState, tag: string, attrs: Record<string, string>): number {
  addNode(state, new ElementNode(top(state), tag, attrs, true));
  const index = state.nodes.length - 1;
  state.stack.push(index);
  return index;
}

/** Decide an element's visibility once its attributes are known (parents are decided first). */
function setVisibility(state: BuildState, index: number): void {
  const node = state.nodes[index] as SnapshotNode;
  const parentVisible = node.parent < 0 ? true : (state.nodes[node.parent] as SnapshotNode).visible;
  node.visible = parentVisible && !hiddenByMarkup(node.tag, node.attrs ?? {});
}

/** Leave <head> the way a browser does when body content shows up inside it. */
function leaveHead(state: BuildState): void {
  const headAt = state.stack.findIndex((i) => state.nodes[i]?.tag === "head");
  if (headAt < 0) return;
  state.stack.length = headAt;
  // a stray <head> inside the body: what follows goes back to the element around it
  if (top(state) !== 0) return;
  if (state.body === null) {
    state.body = pushElement(state, "body", {});
    setVisibility(state, state.body);
  }
  if (top(state) !== state.body) state.stack.push(state.body);
}

/**
 * Body content straight in <html> (a page that omits <body>, valid HTML: `<title>T</title><h1>…`,
 * or plain text) goes into a <body> implied there, as the HTML tree builder does; without it the
 * text sat beside the body nowhere a segment could hold it. Only while no <body> exists: content
 * after an explicit </body> stays where htmlparser2 puts it.
 */
function implyBody(state: BuildState): void {
  if (state.body !== null || top(state) !== 0) return;
  state.body = pushElement(state, "body", {}); // and the insertion point
  setVisibility(state, state.body);
}

/** Tags that start no implied <body> at the document's top level. */
const NO_IMPLIED_BODY = new Set(["html", "body", "frameset", "frame"]);

/**
 * A start tag's name: the element is placed now, its attributes follow (addAttribute), then
 * finishStartTag. Tag names come lower-cased from the tree builder, except SVG's camelCase names
 * (`clipPath`) inside <svg>, whose elements the snapshot drops (OPAQUE_TAGS) and which a formula's
 * text (MathText) does not look for; so neither here nor in closeTag are they lower-cased again.
 */
function openTag(state: BuildState, tag: string): void {
  finishStartTag(state);
  if (state.opaqueDepth > 0) {
    state.opaqueDepth++;
    state.math?.text.open(tag);
    return;
  }
  if (!HEAD_CONTENT_TAGS.has(tag) && state.stack.length > 1 && state.nodes[top(state)]?.tag === "head")
    leaveHead(state);
  if (!HEAD_CONTENT_TAGS.has(tag) && !NO_IMPLIED_BODY.has(tag)) implyBody(state);
  const existing = tag === "html" ? 0 : tag === "body" ? state.body : null;
  if (existing !== null && (tag === "html" ? state.nodes.length > 0 : true)) {
    // A second <html>/<body> (or one after an implied body) merges its attributes into the
    // existing element and, as in a browser, does not move the insertion point: what follows stays
    // inside the element now open. (Pushing the existing element instead would put the text after
    // a <body> tag inside a <div> under <body> while it sat inside the <div>'s range: a node whose
    // parent is not the innermost subtree around it.)
    state.open = { tag, attrs: {}, index: existing, merge: true };
    state.stack.push(top(state)); // balanced by the matching close event
    return;
  }
  const attrs: Record<string, string> = {};
  const index = pushElement(state, tag, attrs);
  state.open = { tag, attrs, index, merge: false };
  if (tag === "body") state.body = index;
  if (OPAQUE_TAGS.has(tag)) state.opaqueDepth++;
  if (tag === "math") state.math = { index, text: new MathText() };
  if (RAW_TEXT_TAGS.has(tag)) state.skipText++;
  if (tag === "title") state.inTitle = true;
}

/**
 * The name under which an attribute of the open start tag is kept, read when the builder reaches
 * the name (attribute-names.ts), or null when the snapshot drops it, value unread: the first of
 * two same-named attributes wins, as in htmlparser2's attribute objects, and attributes with no
 * open tag (inside <svg>, or of a second <form>, which the tree builder ignores) are dropped. A
 * <template>'s first shadowrootmode is read for shadow-root.ts, not kept.
 */
function attributeName(state: BuildState, html: string, start: number, end: number): string | null {
  const open = state.open;
  if (open === null) return null;
  if (open.tag === "template" && !("shadowRoot" in open) && isShadowRootModeAt(html, start, end))
    return SHADOW_ROOT_MODE;
  const kept = keptNameAt(html, start, end);
  return kept === null || Object.hasOwn(open.attrs, kept) ? null : kept;
}

/** One attribute of the open start tag, under the name attributeName gave it. */
function addAttribute(state: BuildState, name: string, value: string): void {
  const open = state.open;
  if (open === null) return;
  if (name === SHADOW_ROOT_MODE) open.shadowRoot = isShadowRootMode(value);
  else open.attrs[name] = keptValue(value);
}

/**
 * A <template shadowrootmode> whose parent may host a shadow root becomes the host's shadow root
 * (shadow-root.ts): renamed SHADOW_ROOT_TAG, its content is page text. Only outside other raw-text
 * elements (a shadow template inside a plain <template> stays inert, as in the browser).
 */
function attachShadowRoot(state: BuildState, open: OpenTag): void {
  const node = state.nodes[open.index] as SnapshotNode;
  const host = node.parent;
  const hostTag = state.nodes[host]?.tag ?? "";
  if (!open.shadowRoot || state.skipText !== 1 || state.shadowHosts.has(host) || !canHostShadow(hostTag))
    return;
  state.shadowHosts.add(host);
  node.tag = SHADOW_ROOT_TAG;
  state.skipText--;
}

/**
 * The open start tag's `>`, reported by the tree builder; also called at every other event, since
 * some start tags end without it: one the builder implies (`</p>` with no open <p>) and one cut
 * off by the end of the document.
 */
function finishStartTag(state: BuildState): void {
  const open = state.open;
  if (open === null) return;
  state.open = null;
  if (!open.merge) {
    if (open.tag === "template") attachShadowRoot(state, open);
    return setVisibility(state, open.index);
  }
  Object.assign(state.nodes[open.index]?.attrs ?? {}, open.attrs);
  if (open.tag === "html") state.lang ??= open.attrs["lang"] ?? null;
}

function closeTag(state: BuildState, tag: string): void {
  finishStartTag(state);
  if (state.opaqueDepth > 1) {
    state.opaqueDepth--;
    state.math?.text.close(tag);
    return;
  }
  if (tag === "template") return closeTemplate(state);
  if (RAW_TEXT_TAGS.has(tag) && state.skipText > 0) state.skipText--;
  if (tag === "title") state.inTitle = false;
  if (OPAQUE_TAGS.has(tag) && state.opaqueDepth === 1) {
    state.opaqueDepth = 0;
    closeMath(state);
  }
  popTo(state, tag);
}

/**
 * Pop to the innermost open element named `tag` (or `alias`); a close tag with no open element
 * (e.g. </head> after an implied body) is ignored, as browsers do. Returns the popped element's index, or -1.
 */
function popTo(state: BuildState, tag: string, alias?: string): number {
  const stack = state.stack;
  const lowest = Math.max(1, stack.length - MAX_CLOSE_SEARCH);
  for (let k = stack.length - 1; k >= lowest; k--) {
    const at = stack[k] as number;
    const open = state.nodes[at]?.tag;
    if (open === tag || (alias !== undefined && open === alias)) {
      // pop, not `stack.length = k`: the length setter is a runtime call (1 % of the snapshot's CPU)
      while (stack.length > k) stack.pop();
      return at;
    }
  }
  return -1;
}

/**
 * `</template>` closes a plain template (raw text ends) or a shadow root (its text was page text all along).
 */
function closeTemplate(state: BuildState): void {
  const closed = popTo(state, "template", SHADOW_ROOT_TAG);
  // a plain template's raw text ends; so does an unmatched one's, in case its start was lost
  if (state.skipText > 0 && state.nodes[closed]?.tag !== SHADOW_ROOT_TAG) state.skipText--;
}

/** The formula's text becomes the <math> element's one child (its descendants were not kept). */
function closeMath(state: BuildState): void {
  const math = state.math;
  if (math === null) return;
  state.math = null;
  const text = math.text.result();
  if (text === "") return;
  const visible = (state.nodes[math.index] as SnapshotNode).visible;
  addNode(state, new TextNode(math.index, text, visible));
}

/**
 * A regular expression, not a charCodeAt scan with dom/text.ts isSpace: the scan, in addText and
 * collapseWhitespaceNodes, made the static snapshot 16 % slower (in-process A/B, 200 wcxb-dev
 * pages, two runs each way; why was not found).
 */
const WHITESPACE_ONLY = /^\s+$/;

/**
 * Text inside a raw-text or opaque element, which gets no text node: only the title and a
 * formula read it. Script and style bodies, most of a page's text, are not cleaned of control
 * characters (withoutControls) for nothing.
 */
function addUnkeptText(state: BuildState, raw: string): void {
  if (state.inTitle) state.title += withoutControls(raw);
  if (state.opaqueDepth > 0 && state.skipText === 0) state.math?.text.add(withoutControls(raw));
}

function addText(state: BuildState, raw: string): void {
  finishStartTag(state);
  if (state.skipText > 0 || state.opaqueDepth > 0) return addUnkeptText(state, raw);
  const data = withoutControls(raw);
  const blank = WHITESPACE_ONLY.test(data);
  if (!blank && state.stack.length > 1 && state.nodes[top(state)]?.tag === "head") leaveHead(state);
  if (!blank && data) implyBody(state);
  const parent = top(state);
  const last = state.nodes[state.nodes.length - 1];
  if (last && last.type === 3 && last.parent === parent) {
    last.text = (last.text ?? "") + data; // the tokenizer may split one text node into several events
    return;
  }
  const parentVisible = parent < 0 ? true : (state.nodes[parent] as SnapshotNode).visible;
  addNode(state, new TextNode(parent, data, parentVisible));
}

/**
 * Collapse whitespace-only text nodes to one space, as the Chromium walk does, except inside
 * preformatted elements: there the line breaks and indentation between a highlighter's spans
 * are the code's layout (a syntax-highlighted block otherwise comes out on one line). Chromium
 * reads the computed `white-space` instead, so a `white-space: pre` set by CSS keeps it there
 * only. Features count such text as one character either way (features/stats.ts htmlLength).
 */
function collapseWhitespaceNodes(nodes: SnapshotNode[]): void {
  const inPre = inheritedBits(nodes, (n) => (n.type === 1 && PREFORMATTED_TAGS.has(n.tag) ? 1 : 0));
  nodes.forEach((n, i) => {
    if (n.type === 3 && inPre[i] === 0 && n.text !== undefined && WHITESPACE_ONLY.test(n.text)) n.text = " ";
  });
}

/** Parse HTML into a PageSnapshot (pure, synchronous). */
export function staticSnapshot(
  input: PageInput,
  options: Pick<RenderOptions, "declaredMeta"> = {},
): PageSnapshot {
  const started = performance.now();
  const root = new ElementNode(-1, "html", {}, true);
  const state: BuildState = {
    nodes: [root],
    stack: [0],
    skipText: 0,
    opaqueDepth: 0,
    math: null,
    body: null,
    title: "",
    inTitle: false,
    lang: null,
    open: null,
    shadowHosts: new Set(),
  };
  new TreeBuilder({
    openTag: (name) => openTag(state, name),
    attributeName: (html, start, end) => attributeName(state, html, start, end),
    attribute: (name, value) => addAttribute(state, name, value),
    startTagEnd: () => finishStartTag(state),
    closeTag: (name) => closeTag(state, name),
    text: (data) => addText(state, data),
  }).build(repairMarkup(htmlOf(input)));
  finishStartTag(state);
  collapseWhitespaceNodes(state.nodes);
  hideEscapedNoscriptMarkup(state.nodes);
  revealScriptHiddenPage(state.nodes);
  return {
    version: SNAPSHOT_VERSION,
    mode: "static",
    id: input.id,
    source: input.source,
    url: input.url,
    title: state.title.replace(/\s+/g, " ").trim(),
    lang: state.lang,
    meta: pageMeta(input.html, { declared: options.declaredMeta === true }),
    nodes: state.nodes,
    ms: performance.now() - started,
  };
}

export class StaticRenderer implements Renderer {
  readonly mode = "static" as const;
  async render(input: PageInput, options: RenderOptions = {}): Promise<PageSnapshot> {
    return staticSnapshot(input, options);
  }
  async close(): Promise<void> {}
}
