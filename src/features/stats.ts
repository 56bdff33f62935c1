/**
 * Per-node subtree statistics every feature family reads, computed once per page in linear time
 * (one forward pass for inherited flags, one tokenising pass over text nodes, one reverse pass
 * that sums each node into its parent). Definitions follow Louvan et al. (§3.1, DOM and text
 * properties) and Insa et al. (Algorithm 1: chars-nodes ratio, with non-content nodes weighing 1
 * and holding no text). Words are `words()` from src/dom/text.ts (Unicode \w+ runs, those in
 * scripts without spaces split by Intl.Segmenter), lower-cased.
 */
import { NON_CONTENT_TAGS } from "../dom/blocks.ts";
import { isSpace, nextWordStart, runEnd, segmentRun, words } from "../dom/text.ts";
import type { Tree } from "../dom/tree.ts";
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { analyzeStructure, nonSpaceLength, type Structure } from "./structural.ts";
import { isStopword, stopwordSet, detectLanguage, type StopwordChoice } from "./language.ts";

/**
 * Insa et al. §3: "nonContentNode" — no text (img), menus (nav, a) and irrelevant nodes (script, video, svg).
 */
export const CNR_NON_CONTENT_TAGS: ReadonlySet<string> = new Set([
  ...NON_CONTENT_TAGS,
  "a",
  "nav",
  "img",
  "video",
  "audio",
  "picture",
]);
export const HEADING_TAGS: ReadonlySet<string> = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
export const INPUT_TAGS: ReadonlySet<string> = new Set(["input", "select", "textarea", "button"]);

/** Counted element kinds (Louvan: number of images, forms, table elements, links, …). */
export const COUNTED = ["a", "img", "form", "input", "table", "li", "heading", "p"] as const;
export type Counted = (typeof COUNTED)[number];

function countedKind(tag: string): number {
  if (tag === "a") return 0;
  if (tag === "img" || tag === "picture") return 1;
  if (tag === "form") return 2;
  if (INPUT_TAGS.has(tag)) return 3;
  if (tag === "table") return 4;
  if (tag === "li") return 5;
  if (HEADING_TAGS.has(tag)) return 6;
  if (tag === "p") return 7;
  return -1;
}

export interface NodeStats {
  structure: Structure;
  /** Detected or given language (ISO 639-1), null when unknown. */
  lang: string | null;
  /** True when a stop-word list for `lang` exists (else the page's most frequent words stand in). */
  langKnown: boolean;
  /** Per node (length n), subtree sums over content text: */
  words: Int32Array;
  stopwords: Int32Array;
  wordChars: Int32Array;
  digits: Int32Array;
  sentenceEnds: Int32Array;
  anchorChars: Int32Array;
  /** Subtree counts of visible elements, COUNTED.length per node: counts[i * COUNTED.length + k]. */
  counts: Int32Array;
  /** Approximate inner-HTML length (tags, kept attributes, text). */
  htmlChars: Float64Array;
  /** Insa Algorithm 1: weight (descendants + 1), textLength and CNR. */
  cnrWeight: Int32Array;
  cnrChars: Int32Array;
  cnr: Float32Array;
  /** Non-space characters of content text before node i in document order. */
  charsBefore: Int32Array;
  /** Page totals. */
  pageChars: number;
  pageWords: number;
}

/** Language sample: text nodes of at least this many characters, up to LANG_SAMPLE_CHARS. */
export const LANG_SAMPLE_MIN_NODE_CHARS = 40;
export const LANG_SAMPLE_CHARS = 1000;
/**
 * The node that crosses LANG_SAMPLE_CHARS still goes in whole, up to this many characters in all:
 * tinyld's time grows with its input, and a page whose text is one 15 MB node took 97 s, 78 % of
 * it detecting the language. High enough that the samples of the training pages are unchanged.
 */
export const LANG_SAMPLE_MAX_CHARS = 20_000;

/** Language sample: the first longer text nodes (no tokenising, no per-node storage). */
export function languageSample(page: PageSnapshot, tree: Tree, content: Uint8Array): string {
  let sample = "";
  for (let i = 0; i < tree.n && sample.length < LANG_SAMPLE_CHARS; i++) {
    const node = page.nodes[i] as SnapshotNode;
    if (node.type !== 3 || content[i] !== 1) continue;
    const text = node.text ?? "";
    if (text.length >= LANG_SAMPLE_MIN_NODE_CHARS)
      sample +=
        (text.length > LANG_SAMPLE_MAX_CHARS - sample.length
          ? text.slice(0, LANG_SAMPLE_MAX_CHARS - sample.length)
          : text) + " ";
  }
  return sample;
}

/** Lower-cased words of every content text node, for the language-free stop-word fallback. */
function* allContentWords(page: PageSnapshot, tree: Tree, content: Uint8Array): Generator<string> {
  for (let i = 0; i < tree.n; i++) {
    const node = page.nodes[i] as SnapshotNode;
    if (node.type === 3 && content[i] === 1 && node.text) yield* words(node.text.toLowerCase());
  }
}

function anchorMask(page: PageSnapshot, tree: Tree): Uint8Array {
  const inA = new Uint8Array(tree.n);
  for (let i = 0; i < tree.n; i++) {
    const p = tree.parent[i] as number;
    inA[i] = (p >= 0 && inA[p] === 1) || (page.nodes[i] as SnapshotNode).tag === "a" ? 1 : 0;
  }
  return inA;
}

/**
 * Whether text is whitespace only and longer than one character (only
 * preformatted elements keep such text: static.ts).
 */
function longWhitespace(text: string): boolean {
  // most text nodes: no regular expression run
  if (text.length < 2 || !isSpace(text.charCodeAt(0))) return false;
  for (let k = 1; k < text.length; k++) if (!isSpace(text.charCodeAt(k))) return false;
  return true;
}

function htmlLength(node: SnapshotNode): number {
  // whitespace-only text counts as the one space renderers collapse it to, also where a <pre> keeps
  // it (features do not see layout)
  if (node.type === 3) return longWhitespace(node.text ?? "") ? 1 : (node.text ?? "").length;
  let k = 2 * node.tag.length + 5;
  const attrs = node.attrs;
  if (attrs) for (const a in attrs) k += a.length + (attrs[a] as string).length + 4;
  return k;
}

/** A text's digits 0-9 and sentence ends (. ! ? and their full-width forms), written into `s` at i. */
function countTextChars(text: string, s: Sums, i: number): void {
  let digits = 0;
  let ends = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 || c === 33 || c === 63 || c === 0x3002 || c === 0xff01 || c === 0xff1f) ends++;
  }
  s.digits[i] = digits;
  s.sentenceEnds[i] = ends;
}

export function computeStats(page: PageSnapshot, tree: Tree, givenLang?: string | null): NodeStats {
  const n = tree.n;
  const structure = analyzeStructure(page, tree);
  const { content, chars } = structure;
  const lang = normalizeLang(givenLang ?? page.lang) ?? detectLanguage(languageSample(page, tree, content));
  const stop = stopwordSet(lang, () => allContentWords(page, tree, content));
  const inA = anchorMask(page, tree);
  const s = allocate(n);
  const K = COUNTED.length;
  const leaves: LeafInput = { content, inA, stop, chars };
  for (let i = n - 1; i >= 0; i--) {
    const node = page.nodes[i] as SnapshotNode;
    s.htmlChars[i] = (s.htmlChars[i] as number) + htmlLength(node);
    if (node.type === 3) leafText(i, node, leaves, s);
    else {
      const kind = node.visible ? countedKind(node.tag) : -1;
      if (kind >= 0) s.counts[i * K + kind] = (s.counts[i * K + kind] as number) + 1;
      s.cnrWeight[i] = (s.cnrWeight[i] as number) + 1;
      if (CNR_NON_CONTENT_TAGS.has(node.tag) || content[i] !== 1) {
        s.cnrWeight[i] = 1;
        s.cnrChars[i] = 0;
      }
    }
    s.cnr[i] = (s.cnrChars[i] as number) / (s.cnrWeight[i] as number);
    const p = tree.parent[i] as number;
    if (p >= 0) addInto(s, p, i, K);
  }
  const charsBefore = new Int32Array(n);
  let acc = 0;
  for (let i = 0; i < n; i++) {
    charsBefore[i] = acc;
    if ((page.nodes[i] as SnapshotNode).type === 3 && content[i] === 1) acc += chars[i] as number;
  }
  let pageChars = 0;
  let pageWords = 0;
  for (let i = 0; i < n; i = tree.end[i] as number) {
    pageChars += chars[i] as number; // top-level nodes (normally just <html>)
    pageWords += s.words[i] as number;
  }
  return { structure, lang, langKnown: stop.known, ...s, charsBefore, pageChars, pageWords };
}

type Sums = ReturnType<typeof allocate>;

function allocate(n: number) {
  return {
    words: new Int32Array(n),
    stopwords: new Int32Array(n),
    wordChars: new Int32Array(n),
    digits: new Int32Array(n),
    sentenceEnds: new Int32Array(n),
    anchorChars: new Int32Array(n),
    counts: new Int32Array(n * COUNTED.length),
    htmlChars: new Float64Array(n),
    cnrWeight: new Int32Array(n),
    cnrChars: new Int32Array(n),
    cnr: new Float32Array(n),
  };
}

/** What leafText reads of the page: content and in-anchor masks, the stop words, each text's characters. */
interface LeafInput {
  content: Uint8Array;
  inA: Uint8Array;
  stop: StopwordChoice;
  chars: Int32Array;
}

/** Adds text node i's words, stop words, characters, digits and sentence ends into `s`. */
function leafText(i: number, node: SnapshotNode, leaves: LeafInput, s: Sums): void {
  const { stop, chars } = leaves;
  const isContent = leaves.content[i] === 1;
  const inAnchor = leaves.inA[i] === 1;
  s.cnrWeight[i] = 1;
  if (!isContent) return;
  const c = chars[i] as number;
  s.cnrChars[i] = inAnchor ? 0 : c;
  if (inAnchor) s.anchorChars[i] = c;
  const text = node.text ?? "";
  textWords(text, stop, s, i);
  countTextChars(text, s, i);
}

/**
 * A text's words (words()'s tokens, found by the allocation-free scanner), their characters and
 * its stop words, written into `s` at i (no object per text node).
 */
function textWords(text: string, stop: StopwordChoice, s: Sums, i: number): void {
  let n = 0;
  let chars = 0;
  let st = 0;
  for (let a = nextWordStart(text, 0), b = 0; a >= 0; a = nextWordStart(text, b)) {
    const end = runEnd(text, a);
    b = end < 0 ? ~end : end;
    chars += b - a;
    if (end >= 0) {
      n++;
      if (isStopword(stop, text, a, b)) st++;
    } else {
      const seg = segmentedWords(text, a, b, stop);
      n += seg.n;
      st += seg.stop;
    }
  }
  s.words[i] = n;
  s.wordChars[i] = chars;
  s.stopwords[i] = st;
}

/** The words and stop words of a run in a script without spaces (segmentRun). */
function segmentedWords(
  text: string,
  a: number,
  b: number,
  stop: StopwordChoice,
): { n: number; stop: number } {
  let n = 0;
  let st = 0;
  segmentRun(text, a, b, (u, v) => {
    n++;
    if (isStopword(stop, text, u, v)) st++;
  });
  return { n, stop: st };
}

function addInto(s: Sums, p: number, i: number, K: number): void {
  s.words[p] = (s.words[p] as number) + (s.words[i] as number);
  s.stopwords[p] = (s.stopwords[p] as number) + (s.stopwords[i] as number);
  s.wordChars[p] = (s.wordChars[p] as number) + (s.wordChars[i] as number);
  s.digits[p] = (s.digits[p] as number) + (s.digits[i] as number);
  s.sentenceEnds[p] = (s.sentenceEnds[p] as number) + (s.sentenceEnds[i] as number);
  s.anchorChars[p] = (s.anchorChars[p] as number) + (s.anchorChars[i] as number);
  s.htmlChars[p] = (s.htmlChars[p] as number) + (s.htmlChars[i] as number);
  s.cnrWeight[p] = (s.cnrWeight[p] as number) + (s.cnrWeight[i] as number);
  s.cnrChars[p] = (s.cnrChars[p] as number) + (s.cnrChars[i] as number);
  for (let k = 0; k < K; k++)
    s.counts[p * K + k] = (s.counts[p * K + k] as number) + (s.counts[i * K + k] as number);
}

/** "en-US" → "en"; "" / "und" → null. */
export function normalizeLang(lang: string | null | undefined): string | null {
  if (!lang) return null;
  const base = lang.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return /^[a-z]{2,3}$/.test(base) && base !== "und" ? base : null;
}

export { nonSpaceLength };
