/**
 * The class-token lexicon: what id and class names say about content, learned from labeled
 * pages instead of a hand-written keyword table. Readability's class-weight regexes and
 * dom.ts's CLASS_KEYWORDS know `comment`, `sidebar`, `entry-content`; a lexicon learned from
 * thousands of sites also knows `jp-relatedposts`, `td-post-content`, `woocommerce-tabs`,
 * `fc-consent`, and at which level above a leaf they matter. Dragnet's CSS-token features
 * (Peters & Lecocq, WWW 2013) are the precedent; none of the four papers has it.
 *
 * Tokens: the id and class attributes of the leaf segment's element and of its
 * LEXICON_LEVELS − 1 nearest element ancestors, split at camelCase and non-alphanumerics,
 * lower-cased, without one-letter and all-digit parts, prefixed by the level ("0:content",
 * "2:sidebar"), plus each level's tag ("1t:article").
 * Weights: per token, the number of training pages on which it occurs on a main-labeled leaf
 * and on which it occurs on a noise-labeled leaf (a page counts once, so a long page or a
 * template repeated down a page weighs no more than a short one); the weight is the add-one
 * smoothed log-odds of the two page frequencies. Tokens seen on fewer than MIN_LEXICON_PAGES
 * pages are left out: they are one site's names and say nothing about another site.
 * Features per leaf (CLASS_LEXICON_FEATURES): mean, minimum and maximum weight of its known
 * tokens (NaN when none is known) and how many are known.
 *
 * The lexicon feeds the context stage (context.ts), which trains on out-of-fold inputs: the
 * features of a training page come from a lexicon fitted without its fold (src/train/context.ts).
 * Measured (session 7, label-based F1 estimate on the context stage's out-of-fold scores, all
 * 4,691 pages): all 0.8968 → 0.9033, wcxb-dev 0.839 → 0.844, dragnet 0.898 → 0.910,
 * readability 0.920 → 0.930, harvest-forums 0.866 → 0.876; no set lost. The same lexicon over
 * the leaf's own words (a naive-Bayes text score) added nothing beside it (all 0.894 → 0.894 in
 * a late-fusion check), so only class tokens are used.
 */
import type { Tree } from "../dom/tree.ts";
import type { PageSnapshot } from "../types.ts";

/** Elements whose id/class tokens are read: the leaf's own and its nearest element ancestors'. */
export const LEXICON_LEVELS = 4;
/** Tokens seen on fewer training pages are dropped from the lexicon. */
export const MIN_LEXICON_PAGES = 5;
/** Decimals kept of each weight in the model file. */
const WEIGHT_DECIMALS = 3;

export const CLASS_LEXICON_FEATURES: readonly string[] = ["lex_cls_mean", "lex_cls_min", "lex_cls_max", "lex_cls_known"];

/** Class tokens per row: row r's tokens are vocab[ids[k]] for k in start[r] .. start[r + 1]. */
export interface RowTokens {
  vocab: string[];
  start: Int32Array;
  ids: Int32Array;
}

/** A fitted lexicon: log-odds weight per token, and the number of pages it was counted on. */
export interface ClassLexicon {
  pages: number;
  weights: Record<string, number>;
}

/** Parts of an id or class string: "postContent entry-content_2" → post, content, entry, content. */
export function classParts(s: string): string[] {
  return s
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 1 && !/^\d+$/.test(t));
}

/** Distinct level-prefixed tokens of each row that owns words (other rows get none). */
export function rowClassTokens(page: PageSnapshot, tree: Tree, nodes: Int32Array, ownWords: Int32Array): RowTokens {
  const vocab: string[] = [];
  const index = new Map<string, number>();
  const start = new Int32Array(nodes.length + 1);
  const ids: number[] = [];
  const partsOf = new Map<number, string[]>(); // leaves share ancestors: split each element's names once
  for (let r = 0; r < nodes.length; r++) {
    start[r] = ids.length;
    if ((ownWords[r] as number) === 0) continue;
    const seen = new Set<string>();
    let e = nodes[r] as number;
    for (let level = 0; e >= 0 && level < LEXICON_LEVELS; e = tree.parent[e] as number) {
      const node = page.nodes[e];
      if (!node || node.type !== 1) continue;
      seen.add(`${level}t:${node.tag}`);
      let parts = partsOf.get(e);
      if (!parts) partsOf.set(e, (parts = node.attrs ? classParts(`${node.attrs["id"] ?? ""} ${node.attrs["class"] ?? ""}`) : []));
      for (const part of parts) seen.add(`${level}:${part}`);
      level++;
    }
    for (const t of seen) {
      let id = index.get(t);
      if (id === undefined) index.set(t, (id = vocab.push(t) - 1));
      ids.push(id);
    }
  }
  start[nodes.length] = ids.length;
  return { vocab, start, ids: Int32Array.from(ids) };
}

/** One labeled page as the lexicon counts it. */
export interface LexiconPage {
  tokens: RowTokens;
  main: Uint8Array;
  /** Rows not counted (training's ambiguous copies). */
  skip?: Uint8Array;
}

/** Fits the lexicon (page frequencies on main and on noise leaves, smoothed log-odds; see the header). */
export function fitClassLexicon(pages: Iterable<LexiconPage>, minPages = MIN_LEXICON_PAGES): ClassLexicon {
  const counts = new Map<string, [number, number]>();
  let n = 0;
  for (const page of pages) {
    n++;
    const { vocab, start, ids } = page.tokens;
    const seen = new Uint8Array(vocab.length); // bit 1: on a main leaf, bit 2: on a noise leaf
    for (let r = 0; r + 1 < start.length; r++) {
      if (page.skip?.[r] === 1) continue;
      const bit = page.main[r] === 1 ? 1 : 2;
      for (let k = start[r] as number; k < (start[r + 1] as number); k++) seen[ids[k] as number] = (seen[ids[k] as number] as number) | bit;
    }
    seen.forEach((bits, id) => {
      if (!bits) return;
      const t = vocab[id] as string;
      let c = counts.get(t);
      if (!c) counts.set(t, (c = [0, 0]));
      if (bits & 1) c[0]++;
      if (bits & 2) c[1]++;
    });
  }
  const weights: Record<string, number> = {};
  const scale = 10 ** WEIGHT_DECIMALS;
  for (const [t, [main, noise]] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (main + noise < minPages) continue;
    weights[t] = Math.round((Math.log((main + 1) / (n + 2)) - Math.log((noise + 1) / (n + 2))) * scale) / scale;
  }
  return { pages: n, weights };
}

/** CLASS_LEXICON_FEATURES per row, row-major (NaN mean/min/max for rows without a known token). */
export function lexiconFeatures(lexicon: ClassLexicon, tokens: RowTokens): Float32Array {
  const width = CLASS_LEXICON_FEATURES.length;
  const rows = tokens.start.length - 1;
  const out = new Float32Array(rows * width).fill(NaN);
  const weight = tokens.vocab.map((t) => lexicon.weights[t]);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    let known = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let k = tokens.start[r] as number; k < (tokens.start[r + 1] as number); k++) {
      const w = weight[tokens.ids[k] as number];
      if (w === undefined) continue;
      sum += w;
      known++;
      if (w < min) min = w;
      if (w > max) max = w;
    }
    const b = r * width;
    if (known) {
      out[b] = sum / known;
      out[b + 1] = min;
      out[b + 2] = max;
    }
    out[b + 3] = known;
  }
  return out;
}

/** The row's known token of largest |weight| (what the trace shows as the lexicon's main reason), or null. */
export function strongestToken(lexicon: ClassLexicon, tokens: RowTokens, r: number): { token: string; weight: number } | null {
  let best: { token: string; weight: number } | null = null;
  for (let k = tokens.start[r] as number; k < (tokens.start[r + 1] as number); k++) {
    const token = tokens.vocab[tokens.ids[k] as number] as string;
    const weight = lexicon.weights[token];
    if (weight !== undefined && (!best || Math.abs(weight) > Math.abs(best.weight))) best = { token, weight };
  }
  return best;
}
