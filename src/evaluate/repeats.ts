/**
 * Repeated paragraphs in an output: the reader's view of duplicated text. A paragraph (an output
 * line) of at least REPEAT_MIN_WORDS words is repeated when at least REPEAT_SHARE of its word
 * 4-shingles occur elsewhere in the output (Broder's containment, as the pipeline's containment
 * rule measures it: src/pipeline/rules/containment.ts), whatever the order. It is the page's own
 * repetition, not the extractor's, when the page's visible text holds those shingles at least
 * twice too (a page that says a paragraph again, a forum post quoting another). `npm run
 * check:duplicates` counts the outputs with a repeat of the extractor's own.
 */
import { shinglesOf, shingleWords } from "../pipeline/rules/containment.ts";

/** Paragraphs shorter than this are not counted (a repeated byline or button is not a reader's complaint). */
export const REPEAT_MIN_WORDS = 20;
/** Share of a paragraph's shingles found again that makes it a repeat. */
export const REPEAT_SHARE = 0.8;

function counts(shingles: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of shingles) m.set(s, (m.get(s) ?? 0) + 1);
  return m;
}

/** Shingle counts of every line of `text`. */
function lineShingles(text: string): { shingles: string[]; words: number }[] {
  return text.split("\n").map((line) => {
    const words = shingleWords(line);
    return { shingles: words.length ? shinglesOf(words) : [], words: words.length };
  });
}

/** Whether at least REPEAT_SHARE of `shingles` occur `times` times or more in `pool` (beyond `minus`). */
function foundAgain(
  shingles: readonly string[],
  pool: ReadonlyMap<string, number>,
  times: number,
  minus: ReadonlyMap<string, number> = new Map(),
): boolean {
  let found = 0;
  for (const s of shingles) if ((pool.get(s) ?? 0) - (minus.get(s) ?? 0) >= times) found++;
  return found >= REPEAT_SHARE * shingles.length;
}

export interface Repeats {
  /** Paragraphs of the output repeated elsewhere in it. */
  repeated: string[];
  /** Those the page's visible text does not repeat: the extractor's doing. */
  introduced: string[];
}

/** The output's repeated paragraphs, and those the page itself does not repeat. */
export function repeatedParagraphs(output: string, pageText: string): Repeats {
  const lines = lineShingles(output);
  const pool = counts(lines.flatMap((l) => l.shingles));
  const outLines = output.split("\n");
  const repeated: string[] = [];
  const introduced: string[] = [];
  let page: Map<string, number> | null = null;
  lines.forEach((l, k) => {
    if (l.words < REPEAT_MIN_WORDS || !foundAgain(l.shingles, pool, 1, counts(l.shingles))) return;
    const text = outLines[k] as string;
    repeated.push(text);
    page ??= counts(shinglesOf(shingleWords(pageText)));
    if (!foundAgain(l.shingles, page, 2)) introduced.push(text);
  });
  return { repeated, introduced };
}
