/**
 * A word diff of the extracted text against the gold for the Inspect view: common prefix and
 * suffix, then a longest common subsequence table over the middle when it has at most
 * MAX_DIFF_CELLS cells (a larger middle is shown as removed then added, not aligned).
 */

export const MAX_DIFF_CELLS = 4_000_000;

export type DiffPart = { kind: "same" | "extra" | "missing"; words: string[] };

const split = (text: string): string[] => text.split(/\s+/).filter(Boolean);

function push(out: DiffPart[], kind: DiffPart["kind"], word: string): void {
  const last = out[out.length - 1];
  if (last?.kind === kind) last.words.push(word);
  else out.push({ kind, words: [word] });
}

/** LCS table of a and b, walked from the start: "extra" words are only in a, "missing" only in b. */
function middle(a: string[], b: string[], out: DiffPart[]): void {
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
        a[i] === b[j]
          ? (t[(i + 1) * (m + 1) + j + 1] as number) + 1
          : Math.max(t[(i + 1) * (m + 1) + j] as number, t[i * (m + 1) + j + 1] as number);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) push(out, "same", a[(j++, i++)] as string);
    else if (j >= m || (i < n && (t[(i + 1) * (m + 1) + j] as number) >= (t[i * (m + 1) + j + 1] as number)))
      push(out, "extra", a[i++] as string);
    else push(out, "missing", b[j++] as string);
  }
}

/** The extracted text's words against the gold's. */
export function wordDiff(extracted: string, gold: string): DiffPart[] {
  const a = split(extracted);
  const b = split(gold);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
    end++;
  const out: DiffPart[] = [];
  a.slice(0, start).forEach((w) => push(out, "same", w));
  middle(a.slice(start, a.length - end), b.slice(start, b.length - end), out);
  a.slice(a.length - end).forEach((w) => push(out, "same", w));
  return out;
}
