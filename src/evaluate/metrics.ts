/**
 * Evaluation metrics, pure: one function per metric, each computing one page's figures from
 * the predicted and the gold text (aggregation over pages is in report.ts). Definitions follow
 * ../shared/data/README.md exactly so pith's figures sit beside published ones:
 *
 * - WCXB word P/R/F1 (Foley, WCXB evaluate.py): `re.findall(r'\w+', s.lower())`, multiset overlap.
 *   Python's Unicode `\w` is exactly [\p{L}\p{N}_] (checked over every code point with Python
 *   3.11: 0 differences), which is NOT src/dom/text.ts's `words()` (that one adds marks and all
 *   connector punctuation and drops \p{Nl}/\p{No}), so the metric has its own token pattern.
 * - Article-extraction-benchmark shingle counts (Zyte AEB evaluate.py): case-sensitive `\w+`
 *   tokens, 4-token shingles as multisets, a text of fewer than 4 tokens being one short
 *   shingle (so an empty text is one empty shingle), tp/fp/fn normalised to sum to 1.
 * - Snippets: WCXB's case-insensitive substring shares (`with` found, `without` avoided) and
 *   trafilatura's evaluation counts (whitespace-normalised, case-sensitive: tp = `with` found,
 *   fn = `with` missed, fp = `without` present).
 * - Louvan's LCS character P/R/F1 (Louvan, section 4.2): |LCS| of the two strings over the
 *   extracted and the gold length. The paper's Equation 2 swaps p and r (p = |c|/|g|); we use
 *   the usual P = |c|/|extracted|, R = |c|/|gold|. Whitespace is collapsed first. The LCS length
 *   is computed exactly with the bit-parallel algorithm of Crochemore et al. 2001 / Hyyrö 2004
 *   (V' = (V + (V & M)) | (V & ~M)), O(n·m/32) word operations: 50k × 50k characters is 78 M
 *   operations. Beyond LCS_CHAR_BUDGET it falls back to the same algorithm over whitespace
 *   tokens (the figures then count words, reported as unit "word").
 * - DOM-node P/R/F1 (Alarte et al.): over the page's text nodes, labels from gold-nodes.ts.
 *
 * Empty gold: a page scores 1 when the prediction is empty too, else 0 (WCXB's rule, also used
 * for LCS and nodes). Empty prediction against non-empty gold: P = R = F1 = 0.
 */

export interface PRF {
  p: number;
  r: number;
  f1: number;
}

/** Python's Unicode `\w+`. */
export const PY_WORD = /[\p{L}\p{N}_]+/gu;
/** AEB shingle length. */
export const SHINGLE_SIZE = 4;
/** Largest n·⌈m/32⌉ for the character LCS before falling back to word tokens (≈ 0.8 s). */
export const LCS_CHAR_BUDGET = 200_000_000;

export function f1Of(p: number, r: number): number {
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}

function emptyGoldScore(predEmpty: boolean): PRF {
  const v = predEmpty ? 1 : 0;
  return { p: v, r: v, f1: v };
}

/** WCXB tokens: `re.findall(r'\w+', text.lower())`. */
export function wcxbTokens(text: string): string[] {
  return text.toLowerCase().match(PY_WORD) ?? [];
}

function counts<T>(items: readonly T[]): Map<T, number> {
  const m = new Map<T, number>();
  for (const x of items) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/** Size of the multiset intersection. */
function overlap<T>(a: readonly T[], b: readonly T[]): number {
  const cb = counts(b);
  let n = 0;
  for (const x of a) {
    const c = cb.get(x) ?? 0;
    if (c > 0) {
      n++;
      cb.set(x, c - 1);
    }
  }
  return n;
}

/** WCXB bag-of-words precision, recall and F1 of one page. */
export function wcxbWords(predicted: string, gold: string): PRF {
  const pred = wcxbTokens(predicted);
  const ref = wcxbTokens(gold);
  if (ref.length === 0) return emptyGoldScore(pred.length === 0);
  if (pred.length === 0) return { p: 0, r: 0, f1: 0 };
  const o = overlap(pred, ref);
  const p = o / pred.length;
  const r = o / ref.length;
  return { p, r, f1: f1Of(p, r) };
}

/** One page's AEB counts, normalised so tp + fp + fn = 1. */
export interface ShingleCounts {
  tp: number;
  fp: number;
  fn: number;
}

/** AEB shingles: 4-token windows of case-sensitive `\w+` tokens; fewer tokens → one short shingle. */
export function shingles(text: string): string[] {
  const tokens = text.match(PY_WORD) ?? [];
  const n = Math.max(1, tokens.length - SHINGLE_SIZE + 1);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(tokens.slice(i, i + SHINGLE_SIZE).join("\u0000"));
  return out;
}

export function aebShingles(predicted: string, gold: string): ShingleCounts {
  const pred = shingles(predicted);
  const ref = shingles(gold);
  const tp = overlap(pred, ref);
  const fp = pred.length - tp;
  const fn = ref.length - tp;
  const sum = tp + fp + fn;
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp: 0, fp: 0, fn: 0 };
}

/** AEB page precision: 1 when fp = fn = 0, undefined (null, left out of the mean) when tp + fp = 0. */
export function aebPrecision(c: ShingleCounts): number | null {
  if (c.fp === 0 && c.fn === 0) return 1;
  return c.tp + c.fp > 0 ? c.tp / (c.tp + c.fp) : null;
}

export function aebRecall(c: ShingleCounts): number | null {
  if (c.fp === 0 && c.fn === 0) return 1;
  return c.tp + c.fn > 0 ? c.tp / (c.tp + c.fn) : null;
}

/** One page's snippet tests. */
export interface SnippetCounts {
  /** WCXB, case-insensitive: `with` snippets found / total, `without` snippets absent / total. */
  withFound: number;
  withTotal: number;
  withoutAvoided: number;
  withoutTotal: number;
  /** trafilatura, whitespace-normalised and case-sensitive. */
  tp: number;
  fp: number;
  fn: number;
}

const WHITESPACE = /\s+/g;
function normaliseSpace(s: string): string {
  return s.replace(WHITESPACE, " ").trim();
}

export function snippetCounts(
  predicted: string,
  snippets: { with: readonly string[]; without: readonly string[] },
): SnippetCounts {
  const lower = predicted.toLowerCase();
  const spaced = normaliseSpace(predicted);
  const c: SnippetCounts = {
    withFound: 0,
    withTotal: snippets.with.length,
    withoutAvoided: 0,
    withoutTotal: snippets.without.length,
    tp: 0,
    fp: 0,
    fn: 0,
  };
  for (const s of snippets.with) {
    if (lower.includes(s.toLowerCase())) c.withFound++;
    if (spaced.includes(normaliseSpace(s))) c.tp++;
    else c.fn++;
  }
  for (const s of snippets.without) {
    if (!lower.includes(s.toLowerCase())) c.withoutAvoided++;
    if (spaced.includes(normaliseSpace(s))) c.fp++;
  }
  return c;
}

/** trafilatura's corpus-level snippet F1 = 2tp / (2tp + fp + fn). */
export function snippetF1(c: Pick<SnippetCounts, "tp" | "fp" | "fn">): number {
  const d = 2 * c.tp + c.fp + c.fn;
  return d > 0 ? (2 * c.tp) / d : 0;
}

/**
 * Length of the longest common subsequence of two symbol sequences, exact, bit-parallel
 * (Hyyrö 2004): the shorter sequence is the bit vector, the longer one is scanned once.
 */
export function lcsLength(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  const m = short.length;
  if (m === 0) return 0;
  const w = (m + 31) >>> 5;
  const masks = new Map<number, Uint32Array>();
  for (let j = 0; j < m; j++) {
    const sym = short[j] as number;
    let mask = masks.get(sym);
    if (!mask) masks.set(sym, (mask = new Uint32Array(w)));
    mask[j >>> 5] = ((mask[j >>> 5] as number) | (1 << (j & 31))) >>> 0;
  }
  const v = new Uint32Array(w).fill(0xffffffff);
  for (let i = 0; i < long.length; i++) {
    const mask = masks.get(long[i] as number);
    if (!mask) continue;
    let carry = 0;
    for (let k = 0; k < w; k++) {
      const vk = v[k] as number;
      const u = (vk & (mask[k] as number)) >>> 0;
      const sum = vk + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[k] = ((sum >>> 0) | (vk & ~u)) >>> 0;
    }
  }
  let zeros = 0;
  for (let j = 0; j < m; j++) if ((((v[j >>> 5] as number) >>> (j & 31)) & 1) === 0) zeros++;
  return zeros;
}

function codePoints(s: string): Int32Array {
  const out = new Int32Array(s.length);
  let n = 0;
  for (const ch of s) out[n++] = ch.codePointAt(0) as number;
  return out.subarray(0, n);
}

function tokenIds(s: string, ids: Map<string, number>): Int32Array {
  const tokens = s.split(" ").filter(Boolean);
  const out = new Int32Array(tokens.length);
  tokens.forEach((t, i) => {
    let id = ids.get(t);
    if (id === undefined) ids.set(t, (id = ids.size));
    out[i] = id;
  });
  return out;
}

export interface LcsScore extends PRF {
  /** What was counted: characters, or whitespace tokens past LCS_CHAR_BUDGET. */
  unit: "char" | "word";
}

/** Louvan's LCS P/R/F1 of one page (whitespace collapsed; P over the extraction, R over the gold). */
export function lcsScore(predicted: string, gold: string, budget = LCS_CHAR_BUDGET): LcsScore {
  const e = normaliseSpace(predicted);
  const g = normaliseSpace(gold);
  if (!g) return { ...emptyGoldScore(!e), unit: "char" };
  if (!e) return { p: 0, r: 0, f1: 0, unit: "char" };
  let unit: "char" | "word" = "char";
  let a: Int32Array = codePoints(e);
  let b: Int32Array = codePoints(g);
  if (Math.max(a.length, b.length) * Math.ceil(Math.min(a.length, b.length) / 32) > budget) {
    const ids = new Map<string, number>();
    a = tokenIds(e, ids);
    b = tokenIds(g, ids);
    unit = "word";
  }
  const c = e === g ? a.length : lcsLength(a, b);
  const p = c / a.length;
  const r = c / b.length;
  return { p, r, f1: f1Of(p, r), unit };
}

/**
 * DOM-node P/R/F1 of one page: `predicted` and `gold` are the labels of the same units (the
 * page's text nodes). No gold node: 1 if nothing is predicted, else 0.
 */
export function nodeScore(predicted: ArrayLike<boolean>, gold: ArrayLike<boolean>): PRF {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < gold.length; i++) {
    const pr = predicted[i] === true;
    const gd = gold[i] === true;
    if (pr && gd) tp++;
    else if (pr) fp++;
    else if (gd) fn++;
  }
  if (tp + fn === 0) return emptyGoldScore(fp === 0);
  if (tp + fp === 0) return { p: 0, r: 0, f1: 0 };
  const p = tp / (tp + fp);
  const r = tp / (tp + fn);
  return { p, r, f1: f1Of(p, r) };
}

/** Largest Σ|ref sentence|·|candidate sentence| ROUGE-LSum fills before giving up on a page (≈ 1 s). */
export const ROUGE_MAX_CELLS = 150_000_000;

/** Indices in `ref` of one LCS of ref and cand (textbook table, backtracked). */
function lcsIndices(ref: readonly string[], cand: readonly string[], table: Int32Array): number[] {
  const n = ref.length;
  const m = cand.length;
  const w = m + 1;
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= m; j++)
      table[i * w + j] =
        ref[i - 1] === cand[j - 1]
          ? (table[(i - 1) * w + j - 1] as number) + 1
          : Math.max(table[(i - 1) * w + j] as number, table[i * w + j - 1] as number);
  const out: number[] = [];
  for (let i = n, j = m; i > 0 && j > 0;) {
    if (ref[i - 1] === cand[j - 1]) {
      out.push(i - 1);
      i--;
      j--;
    } else if ((table[(i - 1) * w + j] as number) > (table[i * w + j - 1] as number)) i--;
    else j--;
  }
  return out;
}

function sentences(text: string): string[][] {
  return text
    .split("\n")
    .map((l) => l.split(/\s+/).filter(Boolean))
    .filter((s) => s.length > 0);
}

/**
 * ROUGE-LSum of one page as WCEB (Bevendorff et al. 2023) computes it with Google's rouge_score:
 * whitespace tokens, no lower-casing, one sentence per line, summary-level union LCS with
 * token counts so no token is matched twice. Null when the page is past ROUGE_MAX_CELLS.
 */
export function rougeLsum(predicted: string, gold: string): PRF | null {
  const ref = sentences(gold);
  const cand = sentences(predicted);
  const m = ref.reduce((a, s) => a + s.length, 0);
  const n = cand.reduce((a, s) => a + s.length, 0);
  if (!m || !n) return !m ? emptyGoldScore(!n) : { p: 0, r: 0, f1: 0 };
  if (m * n > ROUGE_MAX_CELLS) return null;
  const cntR = counts(ref.flat());
  const cntC = counts(cand.flat());
  // reduce, not Math.max(...): a page of 100,000s of sentences would pass too many arguments
  const maxR = ref.reduce((most, s) => Math.max(most, s.length), 0);
  const maxC = cand.reduce((most, s) => Math.max(most, s.length), 0);
  const table = new Int32Array((maxR + 1) * (maxC + 1));
  let hits = 0;
  for (const r of ref) {
    const union = new Set<number>();
    for (const c of cand) {
      table.fill(0, 0, (r.length + 1) * (c.length + 1));
      for (const i of lcsIndices(r, c, table)) union.add(i);
    }
    for (const i of [...union].sort((a, b) => a - b)) {
      const t = r[i] as string;
      if ((cntC.get(t) ?? 0) > 0 && (cntR.get(t) ?? 0) > 0) {
        hits++;
        cntC.set(t, (cntC.get(t) as number) - 1);
        cntR.set(t, (cntR.get(t) as number) - 1);
      }
    }
  }
  const p = hits / n;
  const r = hits / m;
  return { p, r, f1: f1Of(p, r) };
}
