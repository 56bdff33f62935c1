/**
 * Hidden copies: a kept line (a leaf, or the pieces of one line) that markup hides and whose
 * words are mostly already in the rest of the kept text, in any order, is dropped. A static
 * model reads markup-hidden text as candidates (../hidden-text.ts: collapsed accordions and tabs
 * are often content), so it also reads the copies a page keeps hidden: the whole article again as
 * one flattened paragraph, a carousel's cloned slides, one product variant's tab per variant. A
 * reader sees each once, gold holds each once, and the word metrics count every copy. dedupe.ts
 * drops word-for-word copies of a leaf; these are copies of a line in another shape.
 *
 * Containment is Broder's (A. Z. Broder, "On the resemblance and containment of documents",
 * SEQUENCES 1997), counted in words: the share of the line's words that lie in one of its word
 * 4-shingles found elsewhere in the kept text. Shingles, not single words, so a paragraph that
 * merely shares the article's vocabulary is not contained; their order across lines does not
 * matter, so a copy that reorders or runs paragraphs together is. Lines are tested in the order
 * that loses least (testOrder), each against what is still kept.
 *
 * Only markup-hidden lines are tested: text a page shows twice is the page's own repetition (terms
 * restated per offer, a listing that repeats a description, a test page's lorem ipsum), and
 * gold keeps it. Pages routed to the forum model skip the rule (QUOTING_TYPES). The threshold and
 * the measurement that set it: docs/rules.md.
 */
import { keptInherited, type RuleRows } from "./rule.ts";
import { continuesLine, textOf } from "../../dom/text.ts";
import { markupHiding } from "../../dom/hiding.ts";
import type { TraceEntry } from "../../types.ts";
import { traceTarget } from "../trace.ts";

/** A hidden line is dropped when at least this share of its words is in the rest of the kept text. */
export const CONTAINMENT = 0.8;
/** Only blocks of at least this many words are tested: a short line repeats by chance or by design. */
export const MIN_CONTAINED_WORDS = 10;
/** Words per shingle (Broder's w). */
export const SHINGLE_WORDS = 4;

/**
 * Words for shingling: letters and digits runs, lower-cased; each Han or kana character is a word
 * of its own, since those scripts do not separate words with spaces.
 */
const WORD =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]|[^\s\p{P}\p{S}\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]+/gu;

/** The word tokens of `text` (WORD). */
export function shingleWords(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** The SHINGLE_WORDS-word windows of `words`, as keys (one window when there are fewer words). */
export function shinglesOf(words: readonly string[]): string[] {
  const n = Math.max(1, words.length - SHINGLE_WORDS + 1);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(words.slice(i, i + SHINGLE_WORDS).join(" "));
  return out;
}

/** A line of kept leaves (one leaf, or the pieces of one line: dom/text.ts continuesLine), its words and shingles. */
interface Block {
  rows: number[];
  words: number;
  shingles: string[];
  text: string;
  /** Its lines (a leaf with <br>s has several). */
  lines: number;
  /** Whether markup hides one of its leaves (read only because the model reads hidden text). */
  hidden: boolean;
  /** Its words found nowhere else in the kept text when the rule starts (containedShare). */
  unique: number;
}

function counts(shingles: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  count(m, shingles, 1);
  return m;
}

/** Adds (sign 1) or removes (sign -1) a block's shingles from the counts. */
function count(pool: Map<string, number>, shingles: readonly string[], sign: 1 | -1): void {
  for (const s of shingles) pool.set(s, (pool.get(s) ?? 0) + sign);
}

/**
 * The share of a block's words (of `words`, whose shingles are `shingles`) that lie in one of its
 * shingles found in `pool` beyond `own` (by default the block's own): its words already in the rest of the kept text,
 * phrase by phrase. Words, not shingles, so a copy that runs paragraphs together (whose shingles
 * across a seam are nowhere else) still counts as wholly contained.
 */
export function containedShare(
  words: number,
  shingles: readonly string[],
  pool: ReadonlyMap<string, number>,
  own: ReadonlyMap<string, number> = counts(shingles),
): number {
  if (words === 0) return 0;
  let covered = 0;
  let coveredTo = 0; // words before this index are counted
  shingles.forEach((s, i) => {
    if ((pool.get(s) ?? 0) <= (own.get(s) ?? 0)) return;
    const end = Math.min(words, i + SHINGLE_WORDS);
    covered += end - Math.max(coveredTo, i);
    coveredTo = end;
  });
  return covered / words;
}

/**
 * The kept leaves as the lines they make, document order: text straight in a
 * container is segmented piece by piece (a sentence, a link, the rest of the sentence), and a
 * copy is a line, not a piece.
 */
function keptBlocks(rows: RuleRows, hidden: ArrayLike<number>): Block[] {
  const { page, tree, nodes, own, keep } = rows;
  const lines: number[][] = [];
  let last = -1;
  for (let r = 0; r < nodes.length; r++) {
    const node = nodes[r] as number;
    const w = own.ownWords[r] as number;
    if (keep[r] !== 1 || w === 0 || w !== (own.subtreeWords[r] as number)) continue;
    if (last >= 0 && continuesLine(page, tree, nodes[last] as number, node))
      (lines.at(-1) as number[]).push(r);
    else lines.push([r]);
    last = r;
  }
  return lines.map((line) => {
    const text = textOf(
      page,
      tree,
      line.map((r) => nodes[r] as number),
    );
    const words = shingleWords(text);
    const breaks = text.split("\n").length;
    return {
      rows: line,
      words: words.length,
      shingles: shinglesOf(words),
      text,
      lines: breaks,
      hidden: line.some((r) => hidden[nodes[r] as number] === 1),
      unique: 0,
    };
  });
}

/**
 * The blocks to test, in the order they are tested: those that would lose the fewest words of
 * their own first (a paragraph whose longer copy adds a sentence goes before that copy), then the
 * largest (a flattened copy of many paragraphs goes before the paragraphs), then the one of
 * fewer lines (a copy without its line breaks before the one with them), then the later.
 */
function testOrder(blocks: Block[], pool: ReadonlyMap<string, number>): Block[] {
  const tested = blocks.filter((b) => b.hidden && b.words >= MIN_CONTAINED_WORDS);
  for (const b of tested) b.unique = Math.round(b.words * (1 - containedShare(b.words, b.shingles, pool)));
  return tested.sort(
    (a, b) =>
      a.unique - b.unique ||
      b.words - a.words ||
      a.lines - b.lines ||
      (b.rows[0] as number) - (a.rows[0] as number),
  );
}

/** Drops markup-hidden kept lines contained in the rest of the kept text (in place); returns the trace. */
export function dropContained(rows: RuleRows): TraceEntry[] {
  const { page, tree, nodes, keep } = rows;
  const hidden = keptInherited(
    rows,
    (node) => node.type === 1 && node.attrs !== undefined && markupHiding(node.attrs) !== 0,
  );
  // most pages keep no hidden text: nothing to test, no shingles to make
  if (!nodes.some((node, r) => keep[r] === 1 && hidden[node] === 1)) return [];
  const blocks = keptBlocks(rows, hidden);
  const pool = new Map<string, number>();
  for (const b of blocks) count(pool, b.shingles, 1);
  const trace: TraceEntry[] = [];
  for (const b of testOrder(blocks, pool)) {
    const share = containedShare(b.words, b.shingles, pool);
    if (share < CONTAINMENT) continue;
    count(pool, b.shingles, -1);
    for (const r of b.rows) {
      keep[r] = 0;
      const { node, path, text } = traceTarget(page, tree, nodes[r] as number);
      trace.push({
        step: "containment-rule",
        node,
        path,
        action: "drop",
        reason: `${Math.round(share * 100)} % of the words of its line are in the rest of the kept text`,
        text,
      });
    }
  }
  return trace;
}
