/**
 * The in-page DOM walk of the Chromium renderer, and its decoding on the Node side.
 *
 * The walk is kept as plain JavaScript SOURCE TEXT, not as a TypeScript function: tsx/esbuild
 * rewrite functions (e.g. inject `__name(...)` helpers) and `fn.toString()` would then ship a
 * reference that does not exist in the page. The test suite checks the shipped source.
 *
 * The walk is iterative (a stack of sibling cursors), so any nesting depth works, and visits
 * elements and text nodes in document order (pre-order). An element's open shadow root (declarative
 * or attached by a script) is walked as an element named SHADOW_ROOT_TAG, the host's first child,
 * before the host's own children (shadow-root.ts); display "contents", no box. It returns compact
 * parallel arrays (interned strings, flat numbers) to keep the CDP transfer small;
 * `decodeWalk` rebuilds `SnapshotNode[]` in Node.
 */
import type { Box, NodeStyle, SnapshotNode } from "../types.ts";
import { KEPT_ATTRIBUTE_PREFIX, KEPT_ATTRIBUTES } from "../types.ts";
import { keptValue, MAX_ATTRIBUTE_LENGTH } from "./attributes.ts";
import { SHADOW_ROOT_TAG } from "./shadow-root.ts";
import { withoutControls } from "./control-chars.ts";
import { MATH_SPACED_TAGS, MATH_UNRENDERED_TAGS } from "./math-text.ts";
import { MAX_SNAPSHOT_NODES, tooLargeMessage } from "./static.ts";

/**
 * Elements whose children are not walked (the element itself is kept). Script/style/template
 * bodies are not page text; svg subtrees are drawings; a <math> formula gets its text as one text
 * child (math-text.ts: the walk's mathText applies the same rule as the static renderer); the others hold raw
 * text (same list as the static renderer's raw-text tags, so both modes agree; `<xmp>`, raw text
 * that a browser shows as preformatted, is walked like a `<pre>`).
 */
export const SKIP_CHILDREN_TAGS = [
  "script",
  "style",
  "template",
  "svg",
  "math",
  "textarea",
  "title",
  "iframe",
  "noembed",
  "noframes",
] as const;

/** Attribute on elements pith adds to a page (the injected <base>); the walk leaves them out. */
export const INJECTED_MARKER = "data-pith-injected";

/** Parameters passed into the page with the walk. */
export interface WalkConfig {
  kept: readonly string[];
  prefix: string;
  maxLen: number;
  skipChildren: readonly string[];
  /** With JavaScript on, <noscript> content is one raw-markup text node: drop it. */
  skipNoscript: boolean;
  /** Elements carrying this attribute are not part of the page (see INJECTED_MARKER). */
  marker: string;
  /** Tag of the element that stands for a shadow root (SHADOW_ROOT_TAG). */
  shadowTag: string;
  /** MathML elements a browser does not render, and text runs whose spaces it shows (math-text.ts). */
  mathUnrendered: readonly string[];
  mathSpaced: readonly string[];
  /** Nodes the walk records before it gives up on the page (MAX_SNAPSHOT_NODES, as the static parser). */
  maxNodes: number;
}

/**
 * What the page returns. Arrays are parallel by node index unless noted; every string that
 * repeats (tags, attribute names and values, style tuples) is an index into `strs`.
 */
export interface WalkResult {
  /** Parent index per node (-1 for <html>). */
  p: number[];
  /** Per node: tag name (elements) or -1 (text). */
  k: number[];
  /** Per node: x, y, w, h (4 numbers, rounded to 1/100 px). */
  b: number[];
  /** Per ELEMENT: "display|visibility|position|fontSize|fontWeight". */
  s: number[];
  /** Per node: "1" visible / "0" not. */
  v: string;
  /**
   * Per TEXT node, in order: its data (whitespace-only data collapsed to " ", except where the
   * parent keeps whitespace: white-space pre*).
   */
  x: string[];
  /** Flat triples: node index, attribute name, attribute value (truncated). */
  a: number[];
  /** Interned strings. */
  strs: string[];
  w: number;
  h: number;
  title: string;
  lang: string | null;
  /** Set when the page had more than `maxNodes` nodes: the walk stopped and the arrays are empty. */
  over?: number;
}

export function walkConfig(javascript: boolean): WalkConfig {
  return {
    kept: KEPT_ATTRIBUTES,
    prefix: KEPT_ATTRIBUTE_PREFIX,
    maxLen: MAX_ATTRIBUTE_LENGTH,
    skipChildren: SKIP_CHILDREN_TAGS,
    skipNoscript: javascript,
    marker: INJECTED_MARKER,
    shadowTag: SHADOW_ROOT_TAG,
    mathUnrendered: MATH_UNRENDERED_TAGS,
    mathSpaced: MATH_SPACED_TAGS,
    maxNodes: MAX_SNAPSHOT_NODES,
  };
}

/**
 * The walk, as source text of a function expression `(cfg) => WalkResult`.
 * ES2020, no helpers, no closures over Node-side values.
 */
export const IN_PAGE_WALK_SOURCE = String.raw`function pithWalk(cfg) {
  var KEPT = new Set(cfg.kept), PREFIX = cfg.prefix, MAXLEN = cfg.maxLen, MARKER = cfg.marker;
  var SKIP = new Set(cfg.skipChildren);
  if (cfg.skipNoscript) SKIP.add("noscript");
  var WS = /^\s+$/;
  var sx = window.scrollX, sy = window.scrollY;
  var P = [], K = [], B = [], S = [], V = [], X = [], A = [], R = [], strs = [], ids = new Map();
  var PRE = []; // PRE[i] = 1: element i keeps its whitespace (white-space: pre, pre-wrap, pre-line, break-spaces)
  function intern(str) {
    var i = ids.get(str);
    if (i === undefined) { i = strs.length; strs.push(str); ids.set(str, i); }
    return i;
  }
  function r2(n) { return Math.round(n * 100) / 100; }
  function pushBox(r) { B.push(r2(r.left + sx), r2(r.top + sy), r2(r.width), r2(r.height)); }
  var range = document.createRange();
  function attributes(el, idx) {
    var names = el.getAttributeNames();
    for (var i = 0; i < names.length; i++) {
      var name = names[i];
      if (KEPT.has(name) || name.startsWith(PREFIX)) {
        var val = el.getAttribute(name);
        A.push(idx, intern(name), intern(val.length > MAXLEN ? val.slice(0, MAXLEN) : val));
      }
    }
  }
  var hostStyle = null;
  function element(el, parent) {
    var idx = P.length, tag = el.localName.toLowerCase();
    var cs = getComputedStyle(el), display = cs.display, visibility = cs.visibility;
    hostStyle = cs;
    if (cs.whiteSpace.startsWith("pre") || cs.whiteSpace === "break-spaces") PRE[idx] = 1;
    var rendered = false;
    P.push(parent); K.push(intern(tag));
    if ((parent < 0 || R[parent] === 1) && display !== "none") {
      if (display === "contents") { rendered = true; B.push(0, 0, 0, 0); }
      else {
        var r = el.getBoundingClientRect();
        rendered = r.width > 0 || r.height > 0 || el.getClientRects().length > 0;
        if (rendered) pushBox(r); else B.push(0, 0, 0, 0);
      }
    } else B.push(0, 0, 0, 0);
    R.push(rendered ? 1 : 0);
    V.push(rendered && visibility === "visible" ? "1" : "0");
    S.push(intern(display + "|" + visibility + "|" + cs.position + "|" + cs.fontSize + "|" + cs.fontWeight));
    attributes(el, idx);
    return tag;
  }
  function text(node, parent) {
    var data = node.data;
    P.push(parent); K.push(-1); R.push(R[parent]);
    X.push(WS.test(data) && PRE[parent] !== 1 ? " " : data); // a code block's line breaks between spans stay
    V.push(V[parent]);
    if (R[parent] === 1 && data.length > 0) {
      range.selectNodeContents(node);
      pushBox(range.getBoundingClientRect());
    } else B.push(0, 0, 0, 0);
  }
  function shadowRoot(host) {
    var idx = P.length, cs = hostStyle;
    P.push(host); K.push(intern(cfg.shadowTag)); B.push(0, 0, 0, 0); R.push(R[host]); V.push(V[host]);
    if (PRE[host] === 1) PRE[idx] = 1;
    S.push(intern("contents|" + cs.visibility + "|static|" + cs.fontSize + "|" + cs.fontWeight));
    return idx;
  }
  var MATH_SKIP = new Set(cfg.mathUnrendered), MATH_SPACED = new Set(cfg.mathSpaced);
  // a formula's text, as math-text.ts's MathText builds it statically: one text child of <math>
  // (an explicit stack, not a TreeWalker: a filter callback is "no longer runnable" after document.write)
  function mathText(el, idx) {
    var out = "", todo = [[el.firstChild, 0]]; // [next sibling to read, inside a spaced run]
    while (todo.length) {
      var cur = todo[todo.length - 1], m = cur[0];
      if (!m) { todo.pop(); continue; }
      cur[0] = m.nextSibling;
      if (m.nodeType === 3) {
        var piece = m.data.replace(/\s+/g, " "); // math-text.ts mathPiece
        out += cur[1] ? piece : piece.trim();
      }
      else if (m.nodeType === 1 && !MATH_SKIP.has(m.localName) && m.firstChild) {
        todo.push([m.firstChild, cur[1] || MATH_SPACED.has(m.localName) ? 1 : 0]);
      }
    }
    out = out.trim();
    if (!out) return;
    P.push(idx); K.push(-1); R.push(R[idx]); X.push(out); V.push(V[idx]);
    if (R[idx] === 1) pushBox(el.getBoundingClientRect()); else B.push(0, 0, 0, 0);
  }
  var root = document.documentElement;
  // sibling cursors: [next node to visit, its parent's index]; the top one is walked first
  var stack = root ? [[root, -1]] : [];
  while (stack.length) {
    var top = stack[stack.length - 1], n = top[0], parent = top[1];
    if (!n) { stack.pop(); continue; }
    top[0] = n === root ? null : n.nextSibling;
    if (P.length >= cfg.maxNodes) return { p: [], k: [], b: [], s: [], v: "", x: [], a: [], strs: [], w: 0, h: 0, title: "", lang: null, over: cfg.maxNodes };
    if (n.nodeType === 1) {
      if (n.hasAttribute(MARKER)) continue;
      var idx = P.length;
      var tag = element(n, parent);
      if (SKIP.has(tag)) {
        if (tag === "math") mathText(n, idx);
        continue;
      }
      var sr = n.shadowRoot;
      var sidx = sr ? shadowRoot(idx) : -1;
      if (n.firstChild) stack.push([n.firstChild, idx]);
      if (sr && sr.firstChild) stack.push([sr.firstChild, sidx]);
    } else if (n.nodeType === 3) {
      text(n, parent);
    }
  }
  var body = document.body;
  var w = Math.max(root ? root.scrollWidth : 0, body ? body.scrollWidth : 0);
  var h = Math.max(root ? root.scrollHeight : 0, body ? body.scrollHeight : 0);
  return { p: P, k: K, b: B, s: S, v: V.join(""), x: X, a: A, strs: strs, w: w, h: h,
    title: Object.getOwnPropertyDescriptor(Document.prototype, "title").get.call(document),
    lang: root ? root.getAttribute("lang") : null };
}`;

/** The expression evaluated in the page: call the walk with its config. */
export function walkExpression(config: WalkConfig): string {
  return `(${IN_PAGE_WALK_SOURCE})(${JSON.stringify(config)})`;
}

/** Replace the document with `html` (what Puppeteer's setContent does), as one expression. */
export function writeExpression(html: string): string {
  return `(function (h) { document.open(); document.write(h); document.close(); })(${JSON.stringify(html)})`;
}

/**
 * One expression that replaces the document with `html` and walks it, for pages that can load
 * nothing and run no script: the DOM is final once the parser is done. It evaluates to null
 * when the parser is still waiting (document.readyState not "complete"); the caller then polls.
 * The HTML travels as a string literal: Runtime.evaluate of a literal is faster than passing it
 * as a call argument. After the walk the document is replaced by an empty one in the same task,
 * so the frame the tab renders next (style, layout, paint) is of an empty page, not of a page
 * already read: 10-15 ms less renderer CPU per wcxb-dev page (Performance.getMetrics
 * TaskDuration over 80 pages).
 */
export function writeAndWalkExpression(html: string, config: WalkConfig): string {
  return (
    `(function (h) { document.open(); document.write(h); document.close(); ` +
    `if (document.readyState !== "complete") return null; ` +
    `var walked = (${IN_PAGE_WALK_SOURCE})(${JSON.stringify(config)}); ` +
    `document.open(); document.close(); return walked; })(${JSON.stringify(html)})`
  );
}

function num(arr: number[], i: number): number {
  return arr[i] ?? 0;
}

function str(r: WalkResult, i: number): string {
  return r.strs[i] ?? "";
}

/** Decode the "display|visibility|position|fontSize|fontWeight" tuples, once per distinct tuple. */
function styleDecoder(r: WalkResult): (id: number) => NodeStyle {
  const cache = new Map<number, NodeStyle>();
  return (id) => {
    let style = cache.get(id);
    if (!style) {
      const [display = "", visibility = "", position = "", fontSize = "", fontWeight = ""] = str(r, id).split(
        "|",
      );
      style = {
        display,
        visibility,
        position,
        fontSize: parseFloat(fontSize) || 0,
        fontWeight: parseFloat(fontWeight) || 0,
      };
      cache.set(id, style);
    }
    return { ...style };
  };
}

function decodeBox(r: WalkResult, i: number): Box {
  const o = i * 4;
  return { x: num(r.b, o), y: num(r.b, o + 1), w: num(r.b, o + 2), h: num(r.b, o + 3) };
}

/** Rebuild SnapshotNode[] from the page's compact arrays. */
export function decodeWalk(r: WalkResult): SnapshotNode[] {
  if (r.over !== undefined) throw new Error(tooLargeMessage(r.over));
  const nodes: SnapshotNode[] = new Array(r.p.length);
  const style = styleDecoder(r);
  let element = 0;
  let textIndex = 0;
  let a = 0;
  for (let i = 0; i < r.p.length; i++) {
    const parent = num(r.p, i);
    const k = num(r.k, i);
    const visible = r.v.charCodeAt(i) === 49; // "1"
    if (k < 0) {
      nodes[i] = {
        parent,
        type: 3,
        tag: "#text",
        text: withoutControls(r.x[textIndex++] ?? ""),
        box: decodeBox(r, i),
        visible,
      };
      continue;
    }
    const attrs: Record<string, string> = {};
    // cut in the page already; the static renderer's filter too
    for (; a < r.a.length && r.a[a] === i; a += 3)
      attrs[str(r, num(r.a, a + 1))] = keptValue(str(r, num(r.a, a + 2)));
    nodes[i] = {
      parent,
      type: 1,
      tag: str(r, k),
      attrs,
      box: decodeBox(r, i),
      style: style(num(r.s, element++)),
      visible,
    };
  }
  return nodes;
}
