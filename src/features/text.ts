/**
 * Text features (Louvan et al., §3.1: number of words, stop words, punctuation, word length),
 * with the Unicode word tokenizer shared by every metric (`words()`, src/dom/text.ts) and the
 * page-language stop words of language.ts. Plus block length relative to the page's longest leaf
 * segment (MODELING-NOTES.md: the strongest non-context feature in the prototype).
 */
import { def, skipRow, ratio, type FeatureFamily } from "./registry.ts";

export const textFamily: FeatureFamily = {
  family: "text",
  defs: [
    def("txt_words", "number of words (Unicode \\w+ tokens) in the subtree's visible text", "louvan"),
    def(
      "txt_stopwords",
      "number of stop words (page language; page's top words when the language has no list)",
      "louvan",
    ),
    def("txt_stop_ratio", "stop words / words", "louvan"),
    def("txt_sentence_ends", "number of sentence-ending punctuation marks (. ! ? and CJK forms)", "louvan"),
    def("txt_sentence_ends_per_word", "sentence-ending marks / words", "louvan"),
    def("txt_avg_word_len", "mean word length in characters", "louvan"),
    def("txt_digit_share", "ASCII digits / non-space characters", "louvan"),
    def(
      "txt_lang_known",
      "1 when a stop-word list exists for the page language, else 0 (language-free fallback)",
      "pith",
    ),
    def("txt_words_rel_max_leaf", "words / words of the page's longest leaf segment", "modeling-notes"),
    def("txt_leaf", "1 when the node is a leaf segment (all its text is its own), else 0", "pith"),
  ],
  fill(f, out) {
    const s = f.stats;
    let maxLeaf = 0;
    for (const i of f.rows) if (s.structure.leaf[i] === 1) maxLeaf = Math.max(maxLeaf, s.words[i] as number);
    const [cW, cS, cSR, cE, cEW, cAL, cD, cLK, cRM, cLF] = this.defs.map((d) => out.col(d.name)) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let row = 0; row < f.rows.length; row++) {
      if (skipRow(f, row)) continue;
      const i = f.rows[row] as number;
      const w = s.words[i] as number;
      out.set(row, cW, w);
      out.set(row, cS, s.stopwords[i] as number);
      out.set(row, cSR, ratio(s.stopwords[i] as number, w));
      out.set(row, cE, s.sentenceEnds[i] as number);
      out.set(row, cEW, ratio(s.sentenceEnds[i] as number, w));
      out.set(row, cAL, ratio(s.wordChars[i] as number, w));
      out.set(row, cD, ratio(s.digits[i] as number, s.structure.chars[i] as number));
      out.set(row, cLK, s.langKnown ? 1 : 0);
      out.set(row, cRM, ratio(w, maxLeaf));
      out.set(row, cLF, s.structure.leaf[i] as number);
    }
  },
};
