/**
 * Fitting the context stage's lexicons (src/pipeline/context/class-lexicon.ts and
 * heading-lexicon.ts read them): per token, the number of training pages on which it occurs on a
 * main-labeled leaf and on a noise-labeled leaf, and the add-one smoothed log-odds of the two page
 * frequencies. A page counts once, so a long page or a template repeated down a page weighs no more
 * than a short one.
 */
import type { ClassLexicon, RowTokens } from "../pipeline/context/class-lexicon.ts";

/** Tokens seen on fewer training pages are dropped from the lexicon: mostly one site's names. */
export const MIN_LEXICON_PAGES = 5;
/** Decimals kept of each weight in the model file. */
const WEIGHT_DECIMALS = 3;

/** One labeled page as the lexicon counts it. */
export interface LexiconPage {
  tokens: RowTokens;
  main: Uint8Array;
  /** Rows not counted (training's ambiguous copies). */
  skip?: Uint8Array;
  /** The page's site (counted for LexiconOptions.minSites). */
  site?: string;
}

export interface LexiconOptions {
  /** Tokens seen on fewer training pages are dropped (default MIN_LEXICON_PAGES). */
  minPages?: number;
  /**
   * Tokens seen on fewer distinct sites are dropped (default 0: no site rule; the heading lexicon sets one).
   */
  minSites?: number;
}

/** Fits the lexicon (page frequencies on main and on noise leaves, smoothed log-odds; see the header). */
export function fitClassLexicon(
  pages: Iterable<LexiconPage>,
  { minPages = MIN_LEXICON_PAGES, minSites = 0 }: LexiconOptions = {},
): ClassLexicon {
  const counts = new Map<string, [number, number]>();
  const sites = new Map<string, Set<string>>();
  let n = 0;
  for (const page of pages) {
    n++;
    const { vocab, start, ids } = page.tokens;
    const seen = new Uint8Array(vocab.length); // bit 1: on a main leaf, bit 2: on a noise leaf
    for (let r = 0; r + 1 < start.length; r++) {
      if (page.skip?.[r] === 1) continue;
      const bit = page.main[r] === 1 ? 1 : 2;
      for (let k = start[r] as number; k < (start[r + 1] as number); k++)
        seen[ids[k] as number] = (seen[ids[k] as number] as number) | bit;
    }
    seen.forEach((bits, id) => {
      if (!bits) return;
      const t = vocab[id] as string;
      let c = counts.get(t);
      if (!c) counts.set(t, (c = [0, 0]));
      if (bits & 1) c[0]++;
      if (bits & 2) c[1]++;
      if (minSites > 0) {
        let s = sites.get(t);
        if (!s) sites.set(t, (s = new Set()));
        if (s.size < minSites) s.add(page.site ?? "");
      }
    });
  }
  const weights: Record<string, number> = {};
  const scale = 10 ** WEIGHT_DECIMALS;
  for (const [t, [main, noise]] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (main + noise < minPages || (minSites > 0 && (sites.get(t)?.size ?? 0) < minSites)) continue;
    weights[t] =
      Math.round((Math.log((main + 1) / (n + 2)) - Math.log((noise + 1) / (n + 2))) * scale) / scale;
  }
  return { pages: n, weights };
}
