/**
 * Recognises undeclared Thai text in TIS-620 / windows-874 by how Thai is written (decode.ts,
 * step 5, before chardet).
 *
 * Why: chardet's one Thai model (64 windows-874 trigrams, counted among the markup's ASCII
 * letters) gives Thai pages 0-25, while EUC-KR, GB18030, Big5 or EUC-JP, whose two-byte range
 * 0xA1-0xFE Thai fills, get up to 79; undeclared Thai came out as Korean or Chinese mojibake, or
 * as windows-1252 when nothing led. The page is read as windows-874 (TIS-620 plus punctuation in
 * 0x80-0x9F) and is Thai when, over its non-ASCII characters, three rules hold:
 *   1. Thai spelling: at most one character plus MAX_MISSPELT_SHARE of them break it. An above or
 *      below vowel (ั ิ ี ึ ื ุ ู ฺ) sits on a consonant; a tone mark or other
 *      sign above (่ ้ ๊ ๋ ็ ์ ํ ๎) on a consonant or an above/below vowel (ที่); a
 *      leading vowel (เ แ โ ใ ไ) comes before a consonant (or before another เ: เเ typed
 *      for แ); a following vowel (ะ า ำ) comes after a consonant or tone mark (ว่า,
 *      น้ำ), ะ also after า (เกาะ), า after ํ (ํา typed for ำ); no byte is one
 *      windows-874 leaves unassigned. Other single-byte text breaks this in a few words.
 *   2. No byte pairs: at least MIN_EVEN_MARK_SHARE of the marks (above/below vowels, tone marks,
 *      signs above) at an even offset in their run of non-ASCII bytes. Double-byte text can keep
 *      rule 1 (EUC-KR's Hangul lead bytes, 0xB0-0xC8, all read as consonants, so each trail byte
 *      that reads as a mark sits on one; EUC-JP's kana and Big5's common characters alike), but
 *      then every mark is the second byte of a pair, at an odd offset; Thai puts them anywhere.
 *   3. Tone marks and leading vowels: at least MIN_CORE_SHARE of the Thai characters (in Thai
 *      text 8-28 %: ที่ ไม่ และ เป็น ได้ ให้). KOI8-R/KOI8-U Cyrillic, lower
 *      case, reads as consonants and marks that can keep rules 1 and 2, but never as these.
 * Text with fewer than MIN_THAI_LETTERS Thai characters is left to chardet.
 *
 * Measured with a scratch script on real text: the translated messages of zod's and yargs'
 * locales (human translations) and a few paragraphs written for it, encoded with iconv-lite: Thai
 * in TIS-620 and windows-874; Korean in EUC-KR; Japanese in Shift_JIS and EUC-JP; Chinese in
 * GBK, GB18030 and Big5; Russian, Ukrainian, Belarusian and Macedonian in windows-1251, KOI8-R,
 * KOI8-U, ISO-8859-5; 17 languages in Latin script (Turkish and Vietnamese among them), Arabic,
 * Persian and Hebrew in their windows-125x and ISO-8859 code pages. As pages of 1, 3, 10 and all
 * messages and as pages of 10- to 400-character stretches of the text, overlapping by half
 * (19,130 non-Thai pages), compared with decode.ts without this check: every non-Thai page
 * decodes exactly the same, and every Thai one with 48 or more Thai characters (282) decodes
 * right (without the check: 32 of them). The rules alone, on 42,580 non-Thai stretches of 10 to
 * 800 characters: none is taken for Thai; on Thai stretches of 48+ Thai characters, all are (630).
 * No Thai page broke rule 1 at all; Korean ones broke it at 0-6.5 % with no mark at an even
 * offset. Each rule is needed, and each has room: without rule 1, 1,243 stretches were taken
 * for Thai; without rule 2, 61 (Korean, Japanese, Big5); without rule 3, 4 (KOI8); with 16 Thai
 * characters enough, 15; none with any one of these instead: 24 characters, 4 % misspelt, 5 %
 * of marks at even offsets, 2 % tone marks and leading vowels. Every page of the datasets, as
 * stored and with its charset declarations removed, decodes as it does without the check.
 */
import iconv from "iconv-lite";

/** Fewest Thai characters pith decides on: shorter text goes to chardet. */
const MIN_THAI_LETTERS = 48;
/**
 * Share of the non-ASCII characters, plus one, that may break Thai spelling (typing slips, a cut syllable).
 */
const MAX_MISSPELT_SHARE = 0.02;
/** Smallest share of the marks at even offsets in their run (rule 2). */
const MIN_EVEN_MARK_SHARE = 0.1;
/** Smallest share of the Thai characters that are leading vowels or tone marks (rule 3). */
const MIN_CORE_SHARE = 0.05;

const isConsonant = (c: number) => c >= 0x0e01 && c <= 0x0e2e;
const isLeadingVowel = (c: number) => c >= 0x0e40 && c <= 0x0e44;
const isAboveBelowVowel = (c: number) => c === 0x0e31 || (c >= 0x0e34 && c <= 0x0e3a);
const isToneMark = (c: number) => c >= 0x0e48 && c <= 0x0e4b;
const isSignAbove = (c: number) => c === 0x0e47 || (c >= 0x0e4c && c <= 0x0e4e);
const isMark = (c: number) => isAboveBelowVowel(c) || isToneMark(c) || isSignAbove(c);
const isThai = (c: number) => c >= 0x0e01 && c <= 0x0e5b;
const SARA_E = 0x0e40;
const SARA_A = 0x0e30;
const SARA_AA = 0x0e32;
const SARA_AM = 0x0e33;
const NIKHAHIT = 0x0e4d;
const UNASSIGNED = 0xfffd;

/** Whether character `c`, between `prev` and `next`, breaks Thai spelling (header, rule 1). */
function misspelt(prev: number, c: number, next: number): boolean {
  if (c === UNASSIGNED) return true;
  if (isAboveBelowVowel(c)) return !isConsonant(prev);
  if (isToneMark(c) || isSignAbove(c)) return !(isConsonant(prev) || isAboveBelowVowel(prev));
  if (isLeadingVowel(c)) return !(isConsonant(next) || (c === SARA_E && next === SARA_E));
  if (c === SARA_A || c === SARA_AA || c === SARA_AM) {
    return !(
      isConsonant(prev) ||
      isToneMark(prev) ||
      (c === SARA_A && prev === SARA_AA) ||
      (c === SARA_AA && prev === NIKHAHIT)
    );
  }
  return false;
}

/** What looksThai decides on: counts over the non-ASCII characters of `bytes` read as windows-874. */
export interface ThaiEvidence {
  nonAscii: number;
  /** Thai characters (U+0E01-U+0E5B). */
  letters: number;
  /** Characters that break Thai spelling (rule 1). */
  misspelt: number;
  /** Above/below vowels, tone marks and signs above. */
  marks: number;
  /** Leading vowels and tone marks (rule 3). */
  core: number;
  /** Marks at an even offset (0, 2, …) in their run of non-ASCII characters (rule 2). */
  evenMarks: number;
}

/** The counts looksThai decides on (exported for measuring its rules on text). */
export function thaiEvidence(bytes: Uint8Array): ThaiEvidence {
  const text = iconv.decode(Buffer.from(bytes), "windows-874");
  const e: ThaiEvidence = { nonAscii: 0, letters: 0, misspelt: 0, core: 0, marks: 0, evenMarks: 0 };
  let runStart = -1; // where the current run of non-ASCII characters began
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      runStart = -1;
      continue;
    }
    if (runStart < 0) runStart = i;
    e.nonAscii++;
    if (isThai(c)) e.letters++;
    if (isLeadingVowel(c) || isToneMark(c)) e.core++;
    if (misspelt(text.charCodeAt(i - 1), c, text.charCodeAt(i + 1))) e.misspelt++;
    if (isMark(c)) {
      e.marks++;
      if ((i - runStart) % 2 === 0) e.evenMarks++;
    }
  }
  return e;
}

/** Whether `bytes` (no declared charset, not UTF-8) are Thai text in TIS-620 / windows-874 (header). */
export function looksThai(bytes: Uint8Array): boolean {
  const e = thaiEvidence(bytes);
  return (
    e.letters >= MIN_THAI_LETTERS &&
    e.misspelt <= 1 + MAX_MISSPELT_SHARE * e.nonAscii &&
    e.marks > 0 &&
    e.evenMarks >= MIN_EVEN_MARK_SHARE * e.marks &&
    e.core >= MIN_CORE_SHARE * e.letters
  );
}
