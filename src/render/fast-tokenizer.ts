/**
 * htmlparser2's Tokenizer with native scans over the runs of characters it would otherwise visit
 * one by one. The stock tokenizer calls a state function for every character of the document,
 * including the long stretches where that function does nothing: text between tags, attribute
 * values, script and style bodies, comments. This subclass jumps over those stretches with
 * String.prototype.indexOf, which scans natively, and hands every character that matters (`<`,
 * `&`, the closing quote) back to the stock state function. Same events, same order, same
 * offsets: over the 4,762 pages of ../shared/data the event streams are identical
 * (test/fast-tokenizer.test.ts compares them on fixtures and fuzzed markup). On 300 wcxb-dev
 * pages (287 KB of HTML each on average) a parse takes 1.9 ms instead of 3.2 ms.
 *
 * The overrides (`stateText`, `handleInAttributeValue`, `fastForwardTo`) replace private methods
 * of htmlparser2 12.0's Tokenizer; pith's tree builder (tree-builder.ts) drives the class through
 * the tokenizer's public callbacks only, as htmlparser2's Parser does (its documented `Tokenizer`
 * option takes it too). package.json pins htmlparser2 to 12.0.0. Should that change,
 * `fastTokenizer()` returns the stock class when the prototype no longer has the methods it
 * overrides, and test/fast-tokenizer.test.ts fails on any event that differs from the stock
 * tokenizer's.
 */
import { Tokenizer } from "htmlparser2";

const LT = 60; // <
const AMP = 38; // &

/** The private state of htmlparser2 12.0's Tokenizer that the overrides read and move. */
interface TokenizerInternals {
  buffer: string;
  offset: number;
  index: number;
  decodeEntities: boolean;
  stateText(c: number): void;
  handleInAttributeValue(c: number, quote: number): void;
  fastForwardTo(c: number): boolean;
}

const OVERRIDDEN = ["stateText", "handleInAttributeValue", "fastForwardTo"] as const;

const UNKNOWN = -2;

/**
 * Next positions of the ASCII characters the jumps look for, in the buffer they were found in.
 * Cached because a jump asks for both `<` and `&`: a page without `&` would otherwise rescan its
 * whole tail at every text node. Positions only move forward, so a cached one at or after the
 * scan position is still the next one.
 */
class NextChar {
  private buffer: string | null = null;
  private readonly next = new Int32Array(128).fill(UNKNOWN);

  find(buffer: string, code: number, from: number): number {
    if (code >= 128) return buffer.indexOf(String.fromCharCode(code), from);
    if (buffer !== this.buffer) {
      this.buffer = buffer;
      this.next.fill(UNKNOWN);
    }
    const cached = this.next[code] as number;
    if (cached === -1 || cached >= from) return cached;
    const found = buffer.indexOf(String.fromCharCode(code), from);
    this.next[code] = found;
    return found;
  }
}

interface FastInternals extends TokenizerInternals {
  readonly nextChar: NextChar;
}

/**
 * Move the index to just before the first of `a` or `b` (when entities are decoded) after it, or
 * to the end of the buffer: the parse loop's `index++` then lands on that character.
 */
function jumpBefore(t: FastInternals, a: number, b: number): void {
  const from = t.index - t.offset + 1;
  const p = t.nextChar.find(t.buffer, a, from);
  const q = t.decodeEntities ? t.nextChar.find(t.buffer, b, from) : -1;
  const target = p < 0 ? q : q < 0 ? p : Math.min(p, q);
  t.index = (target < 0 ? t.buffer.length : target) + t.offset - 1;
}

const stock = Tokenizer.prototype as unknown as TokenizerInternals;

const overrides: Pick<TokenizerInternals, (typeof OVERRIDDEN)[number]> & ThisType<FastInternals> = {
  /** Text state: only `<` and `&` do anything. */
  stateText(c: number): void {
    if (c === LT || c === AMP) stock.stateText.call(this, c);
    else jumpBefore(this, LT, AMP);
  },
  /** Quoted attribute value: only the closing quote and `&` do anything. */
  handleInAttributeValue(c: number, quote: number): void {
    if (c === quote || c === AMP) stock.handleInAttributeValue.call(this, c, quote);
    else jumpBefore(this, quote, AMP);
  },
  /** Raw text (script, style) and comments: find the next candidate end natively. */
  fastForwardTo(c: number): boolean {
    const p = this.nextChar.find(this.buffer, c, this.index - this.offset + 1);
    if (p >= 0) {
      this.index = p + this.offset;
      return true;
    }
    this.index = this.buffer.length + this.offset - 1; // as the stock method leaves it
    return false;
  },
};

class FastTokenizer extends Tokenizer {
  readonly nextChar = new NextChar();
}
Object.assign(FastTokenizer.prototype, overrides);

/** True when htmlparser2's Tokenizer still has the private methods FastTokenizer replaces. */
export function fastTokenizerApplies(): boolean {
  const proto = Tokenizer.prototype as unknown as Record<string, unknown>;
  return OVERRIDDEN.every((m) => typeof proto[m] === "function");
}

const CHOSEN: typeof Tokenizer = fastTokenizerApplies() ? FastTokenizer : Tokenizer;

/** The tokenizer class: FastTokenizer, or htmlparser2's own when its private methods changed. */
export function fastTokenizer(): typeof Tokenizer {
  return CHOSEN;
}
