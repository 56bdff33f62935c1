/**
 * Emphasis marks CommonMark would not read as emphasis (CommonMark 0.31, §6.2 "Emphasis and
 * strong emphasis"): a `*` run opens emphasis only when left-flanking and closes it only when
 * right-flanking. Content that starts with punctuation right after a letter (`a**(b)**`), or ends
 * with punctuation right before one (`**重要です。**次に`, `**"best"**way`: Japanese and Chinese
 * put no space after bold text), leaves its marks on screen as literal asterisks. Such marks are
 * left out: the rendered text says what the page says, without the emphasis CommonMark cannot
 * express there.
 */

/** An emphasis pair written in a line: where its opening and closing marks start, and their length. */
export interface EmphasisPair {
  open: number;
  close: number;
  size: number;
}

/** CommonMark's Unicode punctuation: general categories P and S. */
const PUNCTUATION = /[\p{P}\p{S}]/u;
/** Whitespace, or the writer's stand-in for a <br> (a line break). */
const SPACE = /[\s\u0000]/;

type Kind = "space" | "punctuation" | "other";

/** The kind of the character at `i` (the line's ends count as whitespace). */
function kindAt(line: string, i: number): Kind {
  const c = i < 0 || i >= line.length ? " " : (line[i] as string);
  if (SPACE.test(c)) return "space";
  return PUNCTUATION.test(c) ? "punctuation" : "other";
}

/**
 * Left-flanking: not followed by whitespace, and followed by no
 * punctuation unless preceded by whitespace or punctuation.
 */
function leftFlanking(before: Kind, after: Kind): boolean {
  return after !== "space" && (after === "other" || before !== "other");
}

/** Whether a pair's marks are read as emphasis where they stand in `line`. */
function flanked(line: string, p: EmphasisPair): boolean {
  const opens = leftFlanking(kindAt(line, p.open - 1), kindAt(line, p.open + p.size));
  // right-flanking: the mirror image
  const closes = leftFlanking(kindAt(line, p.close + p.size), kindAt(line, p.close - 1));
  return opens && closes;
}

/** `line` without the character ranges `cut` ([start, length], sorted by start, not overlapping). */
function without(line: string, cut: readonly (readonly [number, number])[]): string {
  let out = "";
  let from = 0;
  for (const [start, size] of cut) {
    out += line.slice(from, start);
    from = start + size;
  }
  return out + line.slice(from);
}

/**
 * Where position `x` of a line is once the ranges `cut` are taken out of it (cutStarts: their
 * starts; removed: the length cut before each).
 */
function shifted(x: number, cutStarts: readonly number[], removed: readonly number[]): number {
  let lo = 0;
  let hi = cutStarts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cutStarts[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return x - (removed[lo] as number);
}

/**
 * `line` without the marks of the pairs CommonMark would not read as emphasis. Taking a pair's
 * marks out changes its neighbours' (`<b><i>x.</i></b>y`: "***x.***y" reads as no emphasis, and
 * then "*x.*y" neither), so the pairs left are judged again until all of them are read.
 */
export function dropUnflanked(line: string, pairs: readonly EmphasisPair[]): string {
  let left = pairs;
  for (;;) {
    const failing = left.filter((p) => !flanked(line, p));
    if (failing.length === 0) return line;
    const cut = failing
      .flatMap((p): [number, number][] => [
        [p.open, p.size],
        [p.close, p.size],
      ])
      .sort((a, b) => a[0] - b[0]);
    line = without(line, cut);
    const cutStarts = cut.map((c) => c[0]);
    const removed = [0];
    for (const [, size] of cut) removed.push((removed[removed.length - 1] as number) + size);
    const failed = new Set(failing);
    left = left
      .filter((p) => !failed.has(p))
      .map((p) => ({
        open: shifted(p.open, cutStarts, removed),
        close: shifted(p.close, cutStarts, removed),
        size: p.size,
      }));
  }
}
