/**
 * The class-token lexicon: what id and class names say about content, learned from labeled
 * pages instead of a hand-written keyword table. Readability's class-weight regexes and
 * dom.ts's CLASS_KEYWORDS know `comment`, `sidebar`, `entry-content`; a lexicon learned from
 * thousands of sites also knows `jp-relatedposts`, `woocommerce-tabs`, `fc-consent`,
 * `commentform`, and at which level above a leaf they matter (`sidebar` weighs −3.3 on the
 * leaf's own element and −4.2 two levels up). Dragnet's CSS-token features
 * (Peters & Lecocq, WWW 2013) are the precedent; none of the four papers has it.
 *
 * Tokens: the id and class attributes of the leaf segment's element and of its
 * LEXICON_LEVELS − 1 nearest element ancestors, split at camelCase and non-alphanumerics,
 * lower-cased, without one-letter and all-digit parts, prefixed by the level ("0:content",
 * "2:sidebar"), plus each level's tag ("1t:article").
 * Weights: per token, the number of training pages on which it occurs on a main-labeled leaf
 * and on which it occurs on a noise-labeled leaf (a page counts once, so a long page or a
 * template repeated down a page weighs no more than a short one); the weight is the add-one
 * smoothed log-odds of the two page frequencies (fitted by src/train/lexicon.ts). Tokens seen on
 * fewer than MIN_LEXICON_PAGES pages are left out: mostly one site's names, which say nothing
 * about another site. (Counting each site once instead of each page measured the same:
 * docs/classifiers.md.)
 * Features per leaf (CLASS_LEXICON_FEATURES): mean, minimum and maximum weight of its known
 * tokens (NaN when none is known) and how many are known.
 *
 * The lexicon feeds the context stage (context.ts), which trains on out-of-fold inputs: the
 * features of a training page come from a lexicon fitted without its fold (src/train/context.ts).
 * It lifts the context stage's out-of-fold F1 on every set (measured: docs/classifiers.md). The
 * same lexicon over the leaf's own words (a naive-Bayes text score) added nothing beside it, so
 * only class tokens are used.
 */
import { detached } from "../../dom/detach.ts";
import type { Tree } from "../../dom/tree.ts";
import type { PageSnapshot, SnapshotNode } from "../../types.ts";

/** Elements whose id/class tokens are read: the leaf's own and its nearest element ancestors'. */
export const LEXICON_LEVELS = 4;

export const CLASS_LEXICON_FEATURES: readonly string[] = [
  "lex_cls_mean",
  "lex_cls_min",
  "lex_cls_max",
  "lex_cls_known",
];

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
  // one pass over char codes, each part cut out by one slice (regexes cost ≈ 2 µs per class string,
  // on every element of every page; a part built char by char costs a string per char)
  const out: string[] = [];
  let start = -1; // start of the part being read, -1 between parts
  let digitsOnly = true;
  let upperSeen = false;
  let prevLower = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const lower = c >= 97 && c <= 122;
    const upper = c >= 65 && c <= 90;
    const digit = c >= 48 && c <= 57;
    if (start >= 0 && (!(lower || upper || digit) || (upper && prevLower))) {
      pushPart(out, s, start, i, digitsOnly, upperSeen);
      start = -1;
    }
    if (lower || upper || digit) {
      if (start < 0) {
        start = i;
        digitsOnly = true;
        upperSeen = false;
      }
      if (!digit) digitsOnly = false;
      if (upper) upperSeen = true;
    }
    prevLower = lower;
  }
  if (start >= 0) pushPart(out, s, start, s.length, digitsOnly, upperSeen);
  return out;
}

/** Appends s[start, end) lower-cased (ASCII letters and digits only) unless one char long or all digits. */
function pushPart(
  out: string[],
  s: string,
  start: number,
  end: number,
  digitsOnly: boolean,
  upperSeen: boolean,
): void {
  if (end - start < 2 || digitsOnly) return;
  const part = s.slice(start, end);
  out.push(upperSeen ? part.toLowerCase() : part);
}

/**
 * Distinct level-prefixed tokens of each row that owns words (other rows get none). Tokens of
 * different levels never collide (the prefix), so a row's set is the union of its elements'
 * per-level sets, each built once per page: sibling leaves share their ancestors.
 */
export function rowClassTokens(
  page: PageSnapshot,
  tree: Tree,
  nodes: Int32Array,
  ownWords: Int32Array,
): RowTokens {
  const { vocab, idOf } = vocabulary();
  const tokens = elementTokens(page);
  const atLevel = new Map<number, number[]>(); // key element · LEXICON_LEVELS + level → token ids
  const start = new Int32Array(nodes.length + 1);
  const ids: number[] = [];
  for (let r = 0; r < nodes.length; r++) {
    start[r] = ids.length;
    if ((ownWords[r] as number) === 0) continue;
    eachLevel(page, tree, nodes[r] as number, (e, level) => {
      const key = e * LEXICON_LEVELS + level;
      let at = atLevel.get(key);
      if (!at) atLevel.set(key, (at = tokens(e, level).map(idOf)));
      for (const id of at) ids.push(id);
    });
  }
  start[nodes.length] = ids.length;
  return { vocab, start, ids: Int32Array.from(ids) };
}

/** A page's token vocabulary (RowTokens.vocab): `idOf` gives each distinct token the next id. */
export function vocabulary(): { vocab: string[]; idOf: (token: string) => number } {
  const vocab: string[] = [];
  const index = new Map<string, number>();
  return {
    vocab,
    idOf: (t) => {
      let id = index.get(t);
      if (id === undefined) index.set(t, (id = vocab.push(t) - 1));
      return id;
    },
  };
}

/** Calls `visit` for the element `node` and its nearest element ancestors, LEXICON_LEVELS in all. */
function eachLevel(
  page: PageSnapshot,
  tree: Tree,
  node: number,
  visit: (element: number, level: number) => void,
): void {
  let e = node;
  for (let level = 0; e >= 0 && level < LEXICON_LEVELS; e = tree.parent[e] as number) {
    if (page.nodes[e]?.type !== 1) continue;
    visit(e, level);
    level++;
  }
}

/**
 * The lexicon's token for an id/class part or a tag at a level:
 * "2:sidebar", "1t:article" (compile parses it back).
 */
function lexiconToken(level: number, name: string, tag: boolean): string {
  return `${level}${tag ? "t" : ""}:${name}`;
}

/** An element's distinct tokens at a level ("1t:div", "1:entry", …). */
function elementTokens(page: PageSnapshot): (element: number, level: number) => string[] {
  return (e, level) => {
    const node = page.nodes[e] as SnapshotNode;
    return [
      lexiconToken(level, node.tag, true),
      ...distinctParts(node).map((part) => lexiconToken(level, part, false)),
    ];
  };
}

/**
 * The distinct parts of one id/class string, and their weights in the lexicon last asked about
 * them (knownParts): one slot, not a map per lexicon, since a process extracts with one model
 * at a time (a WeakMap from parts to weights cost 0.1 ms a page in lookups).
 */
interface PartsEntry {
  parts: readonly string[];
  lexicon: CompiledLexicon | null;
  known: KnownParts | null;
}

const NO_PARTS: PartsEntry = { parts: [], lexicon: null, known: null };
/** id/class strings repeat within and across pages: their parts are memoised, up to this many strings. */
const PARTS_MEMO_MAX = 50_000;
/**
 * Elements with an id: by id, then by class string ("" for none), so no
 * id + class string is built and hashed per call.
 */
const PARTS_MEMO = new Map<string, Map<string, PartsEntry>>();
/**
 * Elements with a class and no id (most of them) are memoised by the class string itself, not
 * by an " " + class string built per call: the snapshot's string has its hash computed already
 * (signature ids and keyword bits looked it up), a new one is hashed on every lookup, and this
 * runs for every element at up to LEXICON_LEVELS levels per page.
 */
const CLASS_PARTS_MEMO = new Map<string, PartsEntry>();

/**
 * The distinct parts of an element's id and class (memoised by the
 * class string, or by the id and then the class string).
 */
function partsEntry(node: SnapshotNode): PartsEntry {
  const a = node.attrs;
  if (!a) return NO_PARTS;
  const id = a["id"];
  const cls = a["class"];
  if (id === undefined) return cls === undefined ? NO_PARTS : memoParts(CLASS_PARTS_MEMO, cls);
  let byClass = PARTS_MEMO.get(id);
  if (!byClass) {
    if (PARTS_MEMO.size >= PARTS_MEMO_MAX) PARTS_MEMO.clear();
    PARTS_MEMO.set(detached(id), (byClass = new Map()));
  }
  return memoParts(byClass, cls ?? "", id);
}

function distinctParts(node: SnapshotNode): readonly string[] {
  return partsEntry(node).parts;
}

/**
 * Distinct classParts of the class string `key` (and of the id `id` before it when given), memoised
 * in `memo` under `key` (bounded). The id + class string is built only on a miss.
 */
function memoParts(memo: Map<string, PartsEntry>, key: string, id?: string): PartsEntry {
  let entry = memo.get(key);
  if (entry) return entry;
  if (memo.size >= PARTS_MEMO_MAX) memo.clear();
  // the parts are cut from a detached copy, so that neither they nor the key keep the page
  const parts = distinct(classParts(detached(id === undefined ? key : `${id} ${key}`)));
  memo.set(detached(key), (entry = { parts, lexicon: null, known: null }));
  return entry;
}

/** The first occurrence of each item, in order (a class string's parts are few: no Set). */
function distinct(items: string[]): string[] {
  const out: string[] = [];
  for (const item of items) if (!out.includes(item)) out.push(item);
  return out;
}

const weightMaps = new WeakMap<ClassLexicon, Map<string, number>>();

/**
 * A lexicon's weights as a Map, made once per lexicon: a page's tokens are new strings, and looking
 * them up among the thousands of keys of the weights object cost several times a Map lookup
 * (tokens all hold a ":", so no key is an Object.prototype name and the two agree).
 */
function weightMap(lexicon: ClassLexicon): Map<string, number> {
  let m = weightMaps.get(lexicon);
  if (!m) weightMaps.set(lexicon, (m = new Map(Object.entries(lexicon.weights))));
  return m;
}

/** CLASS_LEXICON_FEATURES per row, row-major (NaN mean/min/max for rows without a known token). */
export function lexiconFeatures(lexicon: ClassLexicon, tokens: RowTokens): Float32Array {
  const width = CLASS_LEXICON_FEATURES.length;
  const rows = tokens.start.length - 1;
  const out = new Float32Array(rows * width).fill(NaN);
  const weights = weightMap(lexicon);
  const weight = tokens.vocab.map((t) => weights.get(t));
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

/** Row r's known token of largest |weight| (for the trace), null when none is known. */
export function strongestToken(
  lexicon: ClassLexicon,
  tokens: RowTokens,
  r: number,
): { token: string; weight: number } | null {
  let best: { token: string; weight: number } | null = null;
  for (let k = tokens.start[r] as number; k < (tokens.start[r + 1] as number); k++) {
    const token = tokens.vocab[tokens.ids[k] as number] as string;
    const weight = lexicon.weights[token];
    if (weight !== undefined && (!best || Math.abs(weight) > Math.abs(best.weight))) best = { token, weight };
  }
  return best;
}

/** What the lexicon says about one page's rows: CLASS_LEXICON_FEATURES and each row's strongest token. */
export interface PageLexicon {
  features: Float32Array;
  strongest(row: number): { token: string; weight: number } | null;
}

/** The lexicon by part and by tag, a weight per level (NaN: unknown), so lookups need no prefixed strings. */
interface CompiledLexicon {
  parts: Map<string, Float64Array>;
  tags: Map<string, Float64Array>;
}

/**
 * The known parts of one id/class string at each level, in the string's order: level l's are
 * weights[k] / names[k] for k in start[l] .. start[l + 1]. Most parts are unknown (27 % of a
 * page's id/class strings were never seen in training, and most parts of the others are not in
 * the lexicon), and the same strings recur on every page of a site and across sites, so each
 * distinct string is looked up part by part once per process instead of once per element and level.
 */
interface KnownParts {
  start: Int32Array;
  weights: Float64Array;
  names: string[];
}

/** The KnownParts of a string none of whose parts the lexicon knows (shared: never written to). */
const NONE_KNOWN: KnownParts = {
  start: new Int32Array(LEXICON_LEVELS + 1),
  weights: new Float64Array(0),
  names: [],
};

function knownParts(lex: CompiledLexicon, entry: PartsEntry): KnownParts {
  if (entry.lexicon === lex && entry.known) return entry.known;
  const parts = entry.parts;
  // each part looked up once for all levels; most strings have no known part: no arrays then
  let byPart: (Float64Array | undefined)[] | null = null;
  for (let k = 0; k < parts.length; k++) {
    const w = lex.parts.get(parts[k] as string);
    if (w) (byPart ??= new Array<Float64Array | undefined>(parts.length))[k] = w;
  }
  entry.lexicon = lex;
  entry.known = byPart ? knownAtLevels(parts, byPart) : NONE_KNOWN;
  return entry.known;
}

/** KnownParts of `parts` from each part's weights by level (`byPart`, undefined: unknown part). */
function knownAtLevels(parts: readonly string[], byPart: readonly (Float64Array | undefined)[]): KnownParts {
  const start = new Int32Array(LEXICON_LEVELS + 1);
  const weights: number[] = [];
  const names: string[] = [];
  for (let level = 0; level < LEXICON_LEVELS; level++) {
    start[level] = weights.length;
    for (let k = 0; k < parts.length; k++) {
      const w = byPart[k]?.[level];
      if (w === undefined || Number.isNaN(w)) continue;
      weights.push(w);
      names.push(parts[k] as string);
    }
  }
  start[LEXICON_LEVELS] = weights.length;
  return { start, weights: Float64Array.from(weights), names };
}

const compiled = new WeakMap<ClassLexicon, CompiledLexicon>();

/**
 * lexiconToken parsed back: per part and per tag, the weight at each level. Read char by char,
 * not by a regex per token: once per process on the first page, 12 against 27 ms for the
 * default model's 16,000 tokens.
 */
function compile(lexicon: ClassLexicon): CompiledLexicon {
  let c = compiled.get(lexicon);
  if (c) return c;
  c = { parts: new Map(), tags: new Map() };
  const weights = lexicon.weights;
  for (const token in weights) {
    const t = parseToken(token);
    if (!t || t.level >= LEXICON_LEVELS) continue;
    const into = t.tag ? c.tags : c.parts;
    let w = into.get(t.name);
    if (!w) into.set(t.name, (w = new Float64Array(LEXICON_LEVELS).fill(NaN)));
    w[t.level] = weights[token] as number;
  }
  compiled.set(lexicon, c);
  return c;
}

const DIGIT_0 = 48;
const LETTER_T = 116;
const COLON = 58;

/** "2:sidebar" → level 2, part "sidebar"; "1t:article" → level 1, tag "article"; null for anything else. */
function parseToken(token: string): { level: number; tag: boolean; name: string } | null {
  let i = 0;
  let level = 0;
  for (; i < token.length; i++) {
    const d = token.charCodeAt(i) - DIGIT_0;
    if (d < 0 || d > 9) break;
    level = level * 10 + d;
  }
  if (i === 0) return null;
  const tag = token.charCodeAt(i) === LETTER_T;
  if (tag) i++;
  return token.charCodeAt(i) === COLON ? { level, tag, name: token.slice(i + 1) } : null;
}

/**
 * lexiconFeatures(lexicon, rowClassTokens(…)) and the token of largest |weight| per row, without
 * building token lists or prefixed strings: each (element, level) is summarised once into flat
 * arrays (its id/class string split once per distinct string, its parts' weights looked up once
 * per distinct string: knownParts) and a row combines its LEXICON_LEVELS summaries (the levels'
 * token sets are disjoint). No closures in the loops: this runs on every page. knownParts sits in
 * a one-slot PartsEntry, the id memo is keyed without a concatenated string and each element's
 * parts are taken once for all its levels: measurably faster than the token lists, with the same
 * features bit for bit. Extraction's path; training keeps the token lists.
 */
export function pageLexicon(
  lexicon: ClassLexicon,
  page: PageSnapshot,
  tree: Tree,
  nodes: Int32Array,
  ownWords: Int32Array,
): PageLexicon {
  const lex = compile(lexicon);
  const L = LEXICON_LEVELS;
  const slot = new Int32Array(page.nodes.length * L).fill(-1); // (element, level) → summary index
  const summaries = noSummaries();
  const { sum, known, min, max, bestWeight, bestName } = summaries;
  const width = CLASS_LEXICON_FEATURES.length;
  const features = new Float32Array(nodes.length * width).fill(NaN);
  const rowBest = new Int32Array(nodes.length).fill(-1); // summary index holding the row's strongest token
  // an element's parts, looked up once for all its levels
  const elementParts: (KnownParts | undefined)[] = new Array(page.nodes.length);
  for (let r = 0; r < nodes.length; r++) {
    const b = r * width;
    if ((ownWords[r] as number) === 0) {
      features[b + 3] = 0; // as lexiconFeatures: no tokens known
      continue;
    }
    let rs = 0;
    let rk = 0;
    let rmin = Infinity;
    let rmax = -Infinity;
    let e = nodes[r] as number;
    for (let level = 0; e >= 0 && level < L; e = tree.parent[e] as number) {
      const node = page.nodes[e] as SnapshotNode;
      if (node.type !== 1) continue;
      let k = slot[e * L + level] as number;
      if (k < 0) {
        k = sum.length;
        slot[e * L + level] = k;
        let kp = elementParts[e];
        if (kp === undefined) elementParts[e] = kp = knownParts(lex, partsEntry(node));
        addSummary(summaries, lex.tags.get(node.tag)?.[level], node.tag, kp, level);
      }
      rs += sum[k] as number;
      rk += known[k] as number;
      if ((min[k] as number) < rmin) rmin = min[k] as number;
      if ((max[k] as number) > rmax) rmax = max[k] as number;
      if (
        bestName[k] !== "" &&
        (rowBest[r] === -1 ||
          Math.abs(bestWeight[k] as number) > Math.abs(bestWeight[rowBest[r] as number] as number))
      )
        rowBest[r] = k;
      level++;
    }
    if (rk) {
      features[b] = rs / rk;
      features[b + 1] = rmin;
      features[b + 2] = rmax;
    }
    features[b + 3] = rk;
  }
  return { features, strongest: strongestOf(summaries, rowBest) };
}

/**
 * The summaries of (element, level) pairs (pageLexicon), one entry per pair in parallel arrays: the sum,
 * count, minimum and maximum of its known weights, its level, and its strongest known part or tag.
 */
interface Summaries {
  sum: number[];
  known: number[];
  min: number[];
  max: number[];
  levelOf: number[];
  bestWeight: number[];
  /** The strongest known part or tag ("" = none known). */
  bestName: string[];
  bestIsTag: boolean[];
}

/** Summaries with no entry yet. */
function noSummaries(): Summaries {
  return { sum: [], known: [], min: [], max: [], levelOf: [], bestWeight: [], bestName: [], bestIsTag: [] };
}

/**
 * Appends the summary of an element at one level: its tag's weight there (`tw`, undefined or NaN when
 * unknown) and its id/class parts known there (`kp`).
 */
function addSummary(
  s: Summaries,
  tw: number | undefined,
  tagName: string,
  kp: KnownParts,
  level: number,
): void {
  let ss = 0;
  let sk = 0;
  let smin = Infinity;
  let smax = -Infinity;
  let bw = 0;
  let bt = "";
  let tag = false;
  if (tw !== undefined && !Number.isNaN(tw)) {
    ss += tw;
    sk++;
    smin = Math.min(smin, tw);
    smax = Math.max(smax, tw);
    bw = tw;
    bt = tagName;
    tag = true;
  }
  for (let j = kp.start[level] as number; j < (kp.start[level + 1] as number); j++) {
    const w = kp.weights[j] as number;
    ss += w;
    sk++;
    if (w < smin) smin = w;
    if (w > smax) smax = w;
    if (bt === "" || Math.abs(w) > Math.abs(bw)) {
      bw = w;
      bt = kp.names[j] as string;
      tag = false;
    }
  }
  s.sum.push(ss);
  s.known.push(sk);
  s.min.push(smin);
  s.max.push(smax);
  s.levelOf.push(level);
  s.bestWeight.push(bw);
  s.bestName.push(bt);
  s.bestIsTag.push(tag);
}

/** PageLexicon.strongest: the token of the summary holding each row's strongest token (`rowBest`). */
function strongestOf(s: Summaries, rowBest: Int32Array): PageLexicon["strongest"] {
  return (r) => {
    const k = rowBest[r] as number;
    return k < 0
      ? null
      : {
          token: lexiconToken(s.levelOf[k] as number, s.bestName[k] as string, s.bestIsTag[k] as boolean),
          weight: s.bestWeight[k] as number,
        };
  };
}
