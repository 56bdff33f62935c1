/**
 * A word diff of the extracted text against the gold for the Inspect view: common prefix and
 * suffix, then a longest common subsequence table over the middle when it has at most
 * MAX_DIFF_CELLS cells (a larger middle is shown as removed then added, not aligned). Words are
 * compared as the word metric counts them (src/evaluate/metrics.ts PY_WORD: letters, digits and
 * underscores, lower-cased), so "We’ve" and "we've" are the same word and a lone "-" is none.
 */

export const MAX_DIFF_CELLS = 4_000_000;

export type DiffPart = { kind: "same" | "extra" | "missing"; words: string[] };

const WORD = /[\p{L}\p{N}_]+/gu;

/** A shown word and the key it is compared by. */
interface Word {
  shown: string;
  key: string;
}

const split = (text: string): Word[] =>
  text
    .split(/\s+/)
    .map((shown) => ({ shown, key: (shown.toLowerCase().match(WORD) ?? []).join("") }))
    .filter((w) => w.key);

function push(out: DiffPart[], kind: DiffPart["kind"], word: Word): void {
  const last = out[out.length - 1];
  if (last?.kind === kind) last.words.push(word.shown);
  else out.push({ kind, words: [word.shown] });
}

/** LCS table of a and b, walked from the start: "extra" words are only in a, "missing" only in b. */
function middle(a: Word[], b: Word[], out: DiffPart[]): void {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_DIFF_CELLS) {
    a.forEach((w) => push(out, "extra", w));
    b.forEach((w) => push(out, "missing", w));
    return;
  }
  const t = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      t[i * (m + 1) + j] =
        a[i]!.key === b[j]!.key
          ? (t[(i + 1) * (m + 1) + j + 1] as number) + 1
          : Math.max(t[(i + 1) * (m + 1) + j] as number, t[i * (m + 1) + j + 1] as number);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i]!.key === b[j]!.key) push(out, "same", a[(j++, i++)]!);
    else if (j >= m || (i < n && (t[(i + 1) * (m + 1) + j] as number) >= (t[i * (m + 1) + j + 1] as number)))
      push(out, "extra", a[i++]!);
    else push(out, "missing", b[j++]!);
  }
}

/** The extracted text's words against the gold's. */
export function wordDiff(extracted: string, gold: string): DiffPart[] {
  const a = split(extracted);
  const b = split(gold);
  let start = 0;
  while (start < a.length && start < b.length && a[start]!.key === b[start]!.key) start++;
  let end = 0;
  while (
    end < a.length - start &&
    end < b.length - start &&
    a[a.length - 1 - end]!.key === b[b.length - 1 - end]!.key
  )
    end++;
  const out: DiffPart[] = [];
  a.slice(0, start).forEach((w) => push(out, "same", w));
  middle(a.slice(start, a.length - end), b.slice(start, b.length - end), out);
  a.slice(a.length - end).forEach((w) => push(out, "same", w));
  return out;
}
