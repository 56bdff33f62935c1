/**
 * Stop-word membership of a word inside a text, without cutting the word out: the feature
 * statistics ask it of every word of every page (2,300 words a wcxb-dev page, 1,900 of them no
 * longer than the longest stop word), and `words.has(text.slice(a, b).toLowerCase())` cost
 * 0.22 ms a page of the 0.42 the word scan took with it (a slice, a lower-casing and a string
 * hash per word).
 *
 * The table holds the list's ASCII words in an open-addressing hash table (FNV-1a over the
 * lower-cased code units, linear probing) and compares a candidate in place, lower-casing A-Z
 * as it reads. A word with a non-ASCII code unit is not decided here (`UNDECIDED`): its
 * lower-casing is Unicode's, so the caller asks the Set. For an ASCII word both agree:
 * toLowerCase maps exactly A-Z on ASCII, and an ASCII word can only equal an ASCII stop word.
 */

/** `match`'s answer for a word with a non-ASCII code unit: ask the Set. */
export const UNDECIDED = -1;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export class StopwordTable {
  private readonly slots: Int32Array;
  private readonly entries: string[] = [];
  private readonly mask: number;

  constructor(words: Iterable<string>) {
    const ascii = [...words].filter((w) => /^[\x00-\x7f]*$/.test(w) && w === w.toLowerCase());
    let size = 8;
    while (size < 2 * ascii.length) size *= 2;
    this.mask = size - 1;
    this.slots = new Int32Array(size).fill(-1);
    for (const w of ascii) {
      if (this.match(w, 0, w.length) === 1) continue; // a duplicate
      let k = hashOf(w, 0, w.length) & this.mask;
      while ((this.slots[k] as number) >= 0) k = (k + 1) & this.mask;
      this.slots[k] = this.entries.push(w) - 1;
    }
  }

  /**
   * 1 when text[a, b) lower-cased is a stop word, 0 when not, UNDECIDED when it holds a non-ASCII code unit.
   */
  match(text: string, a: number, b: number): number {
    let h = FNV_OFFSET;
    for (let k = a; k < b; k++) {
      let c = text.charCodeAt(k);
      if (c >= 0x80) return UNDECIDED;
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    const len = b - a;
    for (let k = h & this.mask; ; k = (k + 1) & this.mask) {
      const slot = this.slots[k] as number;
      if (slot < 0) return 0;
      const w = this.entries[slot] as string;
      if (w.length === len && sameLowerCased(text, a, w)) return 1;
    }
  }
}

/** FNV-1a over the ASCII-lower-cased code units of s[a, b) (callers pass ASCII only). */
function hashOf(s: string, a: number, b: number): number {
  let h = FNV_OFFSET;
  for (let k = a; k < b; k++) {
    let c = s.charCodeAt(k);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    h = Math.imul(h ^ c, FNV_PRIME);
  }
  return h;
}

/** Whether text[a, a + w.length) with A-Z lower-cased equals the lower-case ASCII word w. */
function sameLowerCased(text: string, a: number, w: string): boolean {
  for (let k = 0; k < w.length; k++) {
    let c = text.charCodeAt(a + k);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== w.charCodeAt(k)) return false;
  }
  return true;
}
