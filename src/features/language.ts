/**
 * The page's language and its stop words, for Louvan et al.'s text features (§3.1: stop-word
 * count and ratio). Language: the <html lang> / dataset language when given, else tinyld on a
 * sample of the page's longer text nodes. Stop words: the `stopword` package's list for that
 * language; when there is none, a language-free stand-in: the page's STOPWORD_FALLBACK_TOP most
 * frequent words (Zipf: function words dominate the head of any language's frequency list).
 */
import { createRequire } from "node:module";
import type * as Tinyld from "tinyld";
import { StopwordTable, UNDECIDED } from "./stopword-table.ts";

/** Below this many characters tinyld's guess is noise: treat the language as unknown. */
export const LANG_MIN_SAMPLE_CHARS = 60;
/** Language-free stop words: this many most frequent words of the page. */
export const STOPWORD_FALLBACK_TOP = 30;

/** ISO 639-3 codes tinyld returns that `stopword` names differently. */
const STOPWORD_ALIASES: Readonly<Record<string, string>> = {
  cmn: "zho",
  nno: "nob",
  nor: "nob",
  pes: "fas",
  zsm: "msa",
};

/**
 * tinyld's ISO 639-1 → 639-3 table (its toISO3 on every two-letter code: test/stopword-table.test.ts
 * checks all 676), so that a page that declares its language never loads tinyld.
 */
export const ISO3_OF: Readonly<Record<string, string>> = {
  af: "afr",
  am: "amh",
  ar: "ara",
  be: "bel",
  bg: "bul",
  bn: "ben",
  cn: "cmn",
  cs: "ces",
  da: "dan",
  de: "deu",
  el: "ell",
  en: "eng",
  eo: "epo",
  es: "spa",
  et: "est",
  fa: "pes",
  fi: "fin",
  fr: "fra",
  ga: "gle",
  gb: "eng",
  gr: "ell",
  gu: "guj",
  he: "heb",
  hi: "hin",
  hu: "hun",
  hy: "hye",
  id: "ind",
  is: "isl",
  it: "ita",
  ja: "jpn",
  jp: "jpn",
  kk: "kaz",
  km: "khm",
  kn: "kan",
  ko: "kor",
  kr: "kor",
  la: "lat",
  lt: "lit",
  lv: "lvs",
  mk: "mkd",
  mn: "mon",
  my: "mya",
  nl: "nld",
  no: "nob",
  pl: "pol",
  po: "por",
  pt: "por",
  rn: "run",
  ro: "ron",
  ru: "rus",
  sk: "slk",
  sr: "srp",
  sv: "swe",
  ta: "tam",
  te: "tel",
  th: "tha",
  tk: "tuk",
  tl: "tgl",
  tr: "tur",
  tt: "tat",
  uk: "ukr",
  ur: "urd",
  us: "eng",
  vi: "vie",
  vo: "vol",
  yi: "yid",
  zh: "cmn",
};

const requireHere = createRequire(import.meta.url);
/** `stopword` ships no types: its export is an object of ISO 639-3 code → word list. */
const LISTS = requireHere("stopword") as Record<string, unknown>;
const cache = new Map<string, ReadonlySet<string> | null>();

/**
 * tinyld, loaded on the first page whose language must be guessed: its tables take about 100 ms
 * to load, a quarter of `pith extract page.html`.
 */
let tinyld: typeof Tinyld | null = null;

export function detectLanguage(sample: string): string | null {
  if (sample.length < LANG_MIN_SAMPLE_CHARS) return null;
  tinyld ??= requireHere("tinyld") as typeof Tinyld;
  const lang = tinyld.detect(sample);
  return lang ? lang : null;
}

/** The stop-word list for an ISO 639-1/3 code, or null when `stopword` has none. */
export function stopwordList(lang: string | null): ReadonlySet<string> | null {
  if (!lang) return null;
  const hit = cache.get(lang);
  if (hit !== undefined) return hit;
  let iso3 = lang.length === 3 ? lang : (ISO3_OF[lang] ?? "");
  iso3 = STOPWORD_ALIASES[iso3] ?? iso3;
  const list = LISTS[iso3];
  const set = Array.isArray(list) ? new Set((list as string[]).map((w) => w.toLowerCase())) : null;
  cache.set(lang, set);
  return set;
}

export interface StopwordChoice {
  words: ReadonlySet<string>;
  /** True when a real list for the language was used. */
  known: boolean;
  /**
   * UTF-16 length of the longest stop word. A longer word is none of them, without slicing and
   * lower-casing it: lower-casing never shortens a string (U+0130 İ even grows).
   */
  longest: number;
  /** The ASCII words in a table that matches a word in place (stopword-table.ts). */
  table: StopwordTable;
}

/** Whether text[a, b) lower-cased is one of the choice's stop words. */
export function isStopword(stop: StopwordChoice, text: string, a: number, b: number): boolean {
  if (b - a > stop.longest) return false;
  const m = stop.table.match(text, a, b);
  return m === UNDECIDED ? stop.words.has(text.slice(a, b).toLowerCase()) : m === 1;
}

const LONGEST = new WeakMap<ReadonlySet<string>, number>();
const TABLES = new WeakMap<ReadonlySet<string>, StopwordTable>();

function tableOf(words: ReadonlySet<string>): StopwordTable {
  let t = TABLES.get(words);
  if (!t) TABLES.set(words, (t = new StopwordTable(words)));
  return t;
}

function longestOf(words: ReadonlySet<string>): number {
  let n = LONGEST.get(words);
  if (n === undefined) {
    n = 0;
    for (const w of words) n = Math.max(n, w.length);
    LONGEST.set(words, n);
  }
  return n;
}

/** `pageWords` is only called (once) when the language has no list. */
export function stopwordSet(lang: string | null, pageWords: () => Iterable<string>): StopwordChoice {
  const list = stopwordList(lang);
  if (list) return { words: list, known: true, longest: longestOf(list), table: tableOf(list) };
  const freq = new Map<string, number>();
  for (const w of pageWords()) freq.set(w, (freq.get(w) ?? 0) + 1);
  const top = new Set(
    [...freq.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, STOPWORD_FALLBACK_TOP)
      .map(([w]) => w),
  );
  return { words: top, known: false, longest: longestOf(top), table: new StopwordTable(top) };
}
