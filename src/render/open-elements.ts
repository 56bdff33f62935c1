/**
 * htmlparser2's stack of open elements, with its top at the end of an array. htmlparser2 (12.0.0,
 * pinned) keeps the stack top-first in a plain array and opens and closes elements with
 * `unshift` and `shift`, each of which moves the whole stack: a page of 100,000 unclosed
 * `<b><i>` pairs (the stack 200,000 deep) took 47 s to parse, and a 64 MB page of them would
 * take hours. SnapshotParser (static.ts) puts this in its place; it offers exactly the operations
 * Parser uses on `stack` (top-first `[0]`, `length`, `unshift`, `shift`, `indexOf`, `includes`,
 * `length = 0`) in constant time, `indexOf` and `includes` in the elements they pass, and
 * `topFirst()` for Parser.onend, which reads every index.
 */
export class OpenElements {
  private readonly items: string[] = [];
  /**
   * The top (the innermost open element), which Parser reads as `stack[0]` at most start tags: a
   * data property kept current by every change, since V8 reads an indexed getter (`get 0()`)
   * through a slow path (about 70 ns a read, 15 ns for this; ~0.09 ms on a wcxb-dev page).
   */
  0: string | undefined = undefined;

  get length(): number {
    return this.items.length;
  }

  /** Parser.reset empties the stack with `length = 0`; nothing else sets it. */
  set length(n: number) {
    if (n !== 0) throw new RangeError("OpenElements: only length = 0 is supported");
    this.items.length = 0;
    this[0] = undefined;
  }

  unshift(name: string): number {
    this[0] = name;
    return this.items.push(name);
  }

  shift(): string | undefined {
    const name = this.items.pop();
    this[0] = this.items[this.items.length - 1];
    return name;
  }

  /** Distance from the top of the innermost open `name`, -1 when none is open. */
  indexOf(name: string): number {
    const i = this.items.lastIndexOf(name);
    return i < 0 ? -1 : this.items.length - 1 - i;
  }

  includes(name: string): boolean {
    return this.items.includes(name);
  }

  /** The open elements, innermost first (the order of htmlparser2's own array). */
  topFirst(): string[] {
    return this.items.slice().reverse();
  }
}
