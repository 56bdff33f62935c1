/**
 * Teaser lists: the "Related stories", "More from", "Most read" lists of linked headlines that news
 * and blog templates put after or beside an article. On pages routed to the article model, every
 * kept leaf inside such a list (its heading included) is dropped, with a trace entry.
 *
 * A list is a region of the page that is link-dense the way a navigation block is (Kohlschütter et
 * al., "Boilerplate detection using shallow text features", WSDM 2010: link density is the single
 * best shallow cue for boilerplate) and is named as a list of other pages in one of two ways:
 *
 * - a heading: an element of at most MAX_HEADING_WORDS words whose whole text is a teaser phrase
 *   (TEASER_HEADING: "Related articles", "More from …", "Most read", "Lesen Sie auch", "À lire
 *   aussi", "関連記事", …); the region is what follows the heading among its siblings, up to the
 *   next heading (climbing while the heading sits alone in its wrapper);
 * - a name: an `<aside>`, role=complementary, or an id/class token of a related-content box
 *   (TEASER_NAME: related, recommended, most-read, more-stories, outbrain, taboola, …);
 * - a label on the same line: a kept leaf "RELATED: <a>headline</a>" in the article's flow, whose
 *   text after a teaser phrase and a colon is mostly link text (one link is enough; "Read more at
 *   Reuters:" and kin name a source, not other pages, and stay).
 *
 * A heading's or a box's region must hold at least MIN_LINKS links with words and LINK_SHARE of its
 * characters inside links (characters, not words: fair to scripts that write a headline as one
 * "word"); every region must hold less kept text than the page keeps outside it (the article stays
 * the bulk of the output).
 * A rule, not a feature: the classifier scores each leaf alone, and a headline list under the
 * article looks like short article text (the same topic words, a date, a byline); what names it a
 * list of other pages is its heading or its box, read here as a whole. The thresholds and the
 * measurement that set them: docs/rules.md.
 */
import type { RuleRows } from "./rule.ts";
import { childrenOf, type Tree } from "../../dom/tree.ts";
import { collapseSpaces, textOf } from "../../dom/text.ts";
import { nonSpaceLength } from "../../features/structural.ts";
import type { PageSnapshot, SnapshotNode, TraceEntry } from "../../types.ts";
import { traceTarget } from "../trace.ts";

/** A teaser list holds at least this many links with words. */
export const MIN_LINKS = 3;
/** At least this share of a teaser list's words is link text (its heading not counted). */
export const LINK_SHARE = 0.5;
/** A teaser heading has at most this many words, and this many characters besides spaces. */
export const MAX_HEADING_WORDS = 8;
export const MAX_HEADING_CHARS = 80;
/** Times a heading's region may climb to the heading's parent when too few links follow it. */
export const MAX_CLIMBS = 3;
/** Routed page types whose pages lose their teaser lists. */
export const TEASER_FREE_TYPES: ReadonlySet<string> = new Set(["article"]);

/**
 * Teaser headings, one alternative per phrase (matched against the whole heading, lower-cased,
 * spaces collapsed, framing punctuation removed). A phrase that takes a tail ("more from …") ends
 * in `.*`; the heading's word limit bounds it.
 */
const HEADING_PHRASES: readonly string[] = [
  // English
  String.raw`related(?: (?:articles?|stories|story|news|posts?|content|links|coverage|topics))?`,
  String.raw`related (?:reading|videos|items|galleries|searches)`,
  String.raw`(?:more )?related (?:to|on) this (?:story|article|topic)`,
  String.raw`(?:you|we think you) (?:may|might|will|could|would) (?:also )?(?:like|enjoy|be interested in).*`,
  String.raw`(?:also|read) (?:also|read|next|on|in|from)\b.*`,
  String.raw`read (?:more|this next|these next)\b.*`,
  String.raw`(?:what|stories|articles) to read next`,
  String.raw`up next|don'?t miss|editor'?s? (?:picks|choice)|in other news`,
  String.raw`around the web|from the web|elsewhere on .*`,
  String.raw`(?:sponsored|promoted|partner|recommended|suggested) (?:stories|content|links|articles|posts)`,
  String.raw`(?:sponsored|promoted|partner|recommended|suggested) (?:reading|for you|videos)`,
  String.raw`recommended(?: .*)?`,
  String.raw`(?:most|top) (?:read|popular|viewed|shared|emailed|e-mailed|commented|watched|clicked|recent)\b.*`,
  String.raw`(?:top|popular|trending|latest|recent|similar|other|more) (?:stories|news|articles|posts)\b.*`,
  String.raw`(?:top|popular|trending|latest|recent|similar|other|more) (?:headlines|videos|reads)\b.*`,
  String.raw`(?:popular|trending)(?: (?:now|today|this week|on|in)\b.*)?`,
  String.raw`more (?:from|on|in|about|of|like this|to (?:read|explore))\b.*`,
  // German, Dutch
  String.raw`(?:mehr|weitere|weiteres) (?:zum thema|artikel|nachrichten|news|meldungen|beiträge|aus|von|zu|über)\b.*`,
  String.raw`(?:lesen sie )?(?:auch|außerdem|weiter)|lesen sie (?:auch|mehr)\b.*|auch interessant`,
  String.raw`das (?:könnte|dürfte) sie (?:auch )?interessieren`,
  String.raw`(?:ähnliche|verwandte|passende) (?:artikel|beiträge|themen|nachrichten)`,
  String.raw`(?:meistgelesen|meist gelesen|am meisten gelesen|meistgeklickt|beliebteste?)\w*\b.*`,
  String.raw`empfehlungen?`,
  String.raw`gerelateerde? (?:artikelen|berichten|nieuws)|lees (?:ook|meer)|meest (?:gelezen|bekeken)`,
  String.raw`meer (?:nieuws|artikelen|over)\b.*`,
  // French, Italian
  String.raw`(?:à )?(?:lire|voir) (?:aussi|également|la suite)|sur le même (?:sujet|thème)`,
  String.raw`dans la même rubrique`,
  String.raw`(?:nos )?articles? (?:similaires|liés|connexes|recommandés|populaires)`,
  String.raw`(?:les )?plus (?:lus|populaires|partagés|commentés|consultés)`,
  String.raw`vous (?:aimerez|aimeriez|pourriez aimer) (?:aussi|également).*`,
  String.raw`articoli (?:correlati|simili)|notizie correlate|leggi anche|altre notizie`,
  String.raw`(?:i )?più (?:letti|visti|popolari|condivisi)`,
  String.raw`(?:ti )?potrebbe (?:anche )?interessar(?:e|ti)`,
  // Spanish, Portuguese
  String.raw`(?:noticias|artículos|notas|temas|contenidos?|notícias|artigos|matérias|posts) relacionad[oa]s`,
  String.raw`relacionad[oa]s`,
  String.raw`(?:lo |as |os )?más (?:leíd[oa]s?|vist[oa]s?|populares|compartid[oa]s|comentad[oa]s)`,
  String.raw`(?:as |os )?mais (?:lid[oa]s|vist[oa]s|populares)`,
  String.raw`(?:también )?te (?:puede|podría) interesar|lee (?:también|además)|te recomendamos`,
  String.raw`recomendad[oa]s`,
  String.raw`(?:más|otras) noticias\b.*|más de .*|leia (?:também|mais)|veja (?:também|mais)`,
  String.raw`você (?:também )?pode gostar`,
  // Russian, Polish, Turkish
  String.raw`(?:читайте|смотрите) (?:также|ещё|еще)`,
  String.raw`(?:похожие|связанные) (?:статьи|новости|материалы|записи)`,
  String.raw`(?:новости|материалы|статьи) по теме`,
  String.raw`(?:самое|самые) (?:читаемое|популярное|популярные|обсуждаемое)|популярное`,
  String.raw`другие (?:новости|статьи|материалы)`,
  String.raw`рекомендуем\b.*|вам (?:может|могут) (?:быть интересно|понравиться)`,
  String.raw`(?:zobacz|czytaj) (?:też|także|również)|najczęściej czytane`,
  String.raw`(?:powiązane|polecane|najpopularniejsze)\b.*`,
  String.raw`ilgili (?:haberler|yazılar|içerikler)|en (?:çok )?(?:okunan(?:lar)?|popüler)\b.*`,
  String.raw`bunlar da ilginizi çekebilir`,
  // Arabic
  String.raw`(?:مقالات|أخبار|مواضيع) ذات صلة|ذات صلة|اقرأ أيضا|اقرأ أيضاً|الأكثر (?:قراءة|مشاهدة)`,
  // Japanese, Chinese, Korean
  String.raw`関連(?:記事|ニュース|リンク|情報|コンテンツ)|(?:人気|おすすめ|オススメ)の?(?:記事|ニュース|ランキング|エントリー)|こちらもおすすめ|よく読まれている記事`,
  String.raw`アクセスランキング|(?:あわせて|合わせて)読みたい`,
  String.raw`相[关關](?:文章|新[闻聞]|[阅閱][读讀]|[报報][导導]|推[荐薦]|[链鏈]接)|延伸[阅閱][读讀]|推[荐薦][阅閱][读讀]`,
  String.raw`[热熱][门門](?:文章|新[闻聞]|推[荐薦])|猜你喜[欢歡]|更多(?:新[闻聞]|文章|[报報][导導])`,
  String.raw`관련\s?(?:기사|뉴스|글)|많이 본 (?:뉴스|기사)|(?:인기|추천)\s?(?:기사|뉴스)`,
];
/** A whole heading that names a list of other pages (HEADING_PHRASES). */
export const TEASER_HEADING = new RegExp(`^(?:${HEADING_PHRASES.join("|")})$`, "iu");

/** id/class tokens of a related-content box and of the recommendation widgets that fill one. */
const NAME_TOKENS: readonly string[] = [
  "related",
  "relatedposts",
  "recommended",
  "recommendations?",
  "most-?(?:read|popular|viewed|shared)",
  "more-?(?:stories|articles|news|from)",
  "read-?(?:next|also)",
  "also-?read",
  "you-?may-?like",
  "outbrain",
  "taboola",
];
/** A whole id/class token of NAME_TOKENS ("related-posts", "relatedposts", not "unrelated"). */
export const TEASER_NAME = new RegExp(String.raw`(?:^|[\s_-])(?:${NAME_TOKENS.join("|")})(?:$|[\s_-])`, "i");

/** The text a heading is matched on: lower-case, spaces collapsed, framing punctuation and arrows off. */
export function headingKey(text: string): string {
  const key = withoutEdges(collapseSpaces(text).toLowerCase());
  return APOSTROPHES.test(key) ? key.replace(APOSTROPHES_ALL, "'") : key;
}

/** Spaces, punctuation and symbols: what headingKey strips off both ends. */
const EDGE_RUN = /^[\s\p{P}\p{S}]+/u;
const EDGE_CHAR = /^[\s\p{P}\p{S}]$/u;
const APOSTROPHES = /[’`]/;
const APOSTROPHES_ALL = /[’`]/g;

/**
 * `s` without its leading and trailing EDGE_RUN: the trailing run read back from the end, code point
 * by code point, instead of a `[…]+$` regex tried at every position of the string.
 */
function withoutEdges(s: string): string {
  const start = EDGE_RUN.exec(s)?.[0].length ?? 0;
  let end = s.length;
  while (end > start) {
    const low = s.charCodeAt(end - 1);
    const high = end - 2 >= start ? s.charCodeAt(end - 2) : 0;
    const width = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1;
    if (!EDGE_CHAR.test(s.slice(end - width, end))) break;
    end -= width;
  }
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/**
 * Per snapshot node, what its subtree holds: words, characters and characters inside links (link
 * density in characters, as Readability's, is fair to scripts that write a headline as one "word"),
 * links with words.
 */
interface LinkStats {
  words: Int32Array;
  chars: Int32Array;
  linked: Int32Array;
  links: Int32Array;
  /** 1 when the subtree holds a heading element (h1-h6, role=heading). */
  heading: Uint8Array;
}

const LETTER_H = 104;
const DIGIT_1 = 49;
const DIGIT_6 = 54;

/** h1-h6 or role=heading (the tag read by char codes: this runs on every node of the page). */
function isHeading(node: SnapshotNode): boolean {
  if (node.type !== 1) return false;
  const t = node.tag;
  if (
    t.length === 2 &&
    t.charCodeAt(0) === LETTER_H &&
    t.charCodeAt(1) >= DIGIT_1 &&
    t.charCodeAt(1) <= DIGIT_6
  )
    return true;
  return node.attrs?.["role"] === "heading";
}

function isLink(node: SnapshotNode): boolean {
  return node.type === 1 && node.tag === "a" && node.attrs?.["href"] !== undefined;
}

/**
 * One reverse pass (children before parents in reverse pre-order) over the words of each text
 * node the ownership counted (Ownership.textWords: -1 for silent text and other nodes).
 */
function linkStats(page: PageSnapshot, tree: Tree, words: Int32Array): LinkStats {
  const n = tree.n;
  const inLink = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const p = tree.parent[i] as number;
    // bit 1: inside a link (or one); bit 2: a link itself
    const self = isLink(page.nodes[i] as SnapshotNode) ? 3 : 0;
    inLink[i] = self | (p >= 0 ? (inLink[p] as number) & 1 : 0);
  }
  const s: LinkStats = {
    words: new Int32Array(n),
    chars: new Int32Array(n),
    linked: new Int32Array(n),
    links: new Int32Array(n),
    heading: new Uint8Array(n),
  };
  for (let i = n - 1; i >= 0; i--) {
    const node = page.nodes[i] as SnapshotNode;
    const w = words[i] as number;
    if (w >= 0) {
      const c = nonSpaceLength(node.text as string);
      s.words[i] = (s.words[i] as number) + w;
      s.chars[i] = (s.chars[i] as number) + c;
      if (((inLink[i] as number) & 1) === 1) s.linked[i] = (s.linked[i] as number) + c;
    }
    const p = tree.parent[i] as number;
    if (
      ((inLink[i] as number) & 2) === 2 &&
      (s.words[i] as number) > 0 &&
      (p < 0 || ((inLink[p] as number) & 1) === 0)
    )
      s.links[i] = 1;
    if (isHeading(node)) s.heading[i] = 1;
    if (p < 0) continue;
    s.words[p] = (s.words[p] as number) + (s.words[i] as number);
    s.chars[p] = (s.chars[p] as number) + (s.chars[i] as number);
    s.linked[p] = (s.linked[p] as number) + (s.linked[i] as number);
    s.links[p] = (s.links[p] as number) + (s.links[i] as number);
    if (s.heading[i] === 1) s.heading[p] = 1;
  }
  return s;
}

/** A teaser list: sibling subtrees (its heading's block first when it has one) and what named it. */
export interface TeaserList {
  members: number[];
  /** The heading's text or the box's tag and name, for the trace. */
  named: string;
  links: number;
}

/** Sums a stat over the members. */
function total(stat: Int32Array, members: readonly number[]): number {
  return members.reduce((a, m) => a + (stat[m] as number), 0);
}

/** Link-dense enough to be a list of links (LINK_SHARE of its characters in links). */
function linkDense(s: LinkStats, i: number): boolean {
  return (s.linked[i] as number) >= LINK_SHARE * (s.chars[i] as number);
}

/**
 * The siblings after `block` that continue a list of links: each link-dense (siblings without
 * text are passed over), up to the first that is not, that is a heading of its own, or that would
 * take the list to half the page's characters.
 */
function listAfter(tree: Tree, s: LinkStats, block: number): number[] {
  const p = tree.parent[block] as number;
  if (p < 0) return [];
  const out: number[] = [];
  const siblings = childrenOf(tree, p);
  let chars = s.chars[block] as number;
  for (let k = siblings.indexOf(block) + 1; k < siblings.length; k++) {
    const sib = siblings[k] as number;
    const c = s.chars[sib] as number;
    if (c === 0) continue;
    chars += c;
    if (!linkDense(s, sib) || 2 * chars >= (s.chars[0] as number)) break;
    if (s.heading[sib] === 1 && (s.links[sib] as number) === 0) break;
    out.push(sib);
  }
  return out;
}

/**
 * Whether the members read as a list of links: MIN_LINKS links and LINK_SHARE of the characters
 * besides the heading's (`heading`, -1 for none) in links.
 */
function isLinkList(s: LinkStats, members: readonly number[], heading: number): boolean {
  const chars = total(s.chars, members) - (heading >= 0 ? (s.chars[heading] as number) : 0);
  const linked = total(s.linked, members) - (heading >= 0 ? (s.linked[heading] as number) : 0);
  return total(s.links, members) >= MIN_LINKS && linked >= LINK_SHARE * chars;
}

/**
 * The list a teaser heading block names: the block and the list after it (listAfter), climbing to
 * the block's parent while fewer than MIN_LINKS links follow and the parent holds at most
 * MAX_HEADING_WORDS words besides the heading (a heading wrapped with a "see all" link, or alone
 * in its own box).
 */
function listUnderHeading(tree: Tree, s: LinkStats, block: number): number[] | null {
  const headingWords = s.words[block] as number;
  let b = block;
  for (let climb = 0; climb <= MAX_CLIMBS; climb++) {
    const members = [b, ...listAfter(tree, s, b)];
    if (total(s.links, members) >= MIN_LINKS) return isLinkList(s, members, block) ? members : null;
    const p = tree.parent[b] as number;
    if (p < 0 || (s.words[p] as number) > headingWords + MAX_HEADING_WORDS) return null;
    b = p;
  }
  return null;
}

/** The visible text of a small subtree, its text nodes joined by spaces (what a heading key needs). */
function shortText(page: PageSnapshot, tree: Tree, s: LinkStats, i: number): string {
  let out = "";
  const end = tree.end[i] as number;
  for (let k = i + 1; k < end; k++)
    if ((s.chars[k] as number) > 0 && page.nodes[k]?.type === 3) out += ` ${page.nodes[k]?.text}`;
  return out;
}

/** The heading blocks of the page: elements of 1 to MAX_HEADING_WORDS words whose parent holds more. */
function teaserHeadings(page: PageSnapshot, tree: Tree, s: LinkStats): TeaserList[] {
  const out: TeaserList[] = [];
  for (let i = 1; i < tree.n; i++) {
    const w = s.words[i] as number;
    const p = tree.parent[i] as number;
    if (w === 0 || w > MAX_HEADING_WORDS || (page.nodes[i] as SnapshotNode).type !== 1) continue;
    if (p < 0 || (s.words[p] as number) === w) continue;
    if ((s.chars[i] as number) > MAX_HEADING_CHARS || (s.heading[i] === 0 && linkDense(s, i))) continue;
    const key = headingKey(shortText(page, tree, s, i));
    if (!TEASER_HEADING.test(key)) continue;
    const members = listUnderHeading(tree, s, i);
    if (members) out.push({ members, named: `under the heading "${key}"`, links: total(s.links, members) });
  }
  return out;
}

/**
 * An `<aside>`, role=complementary or a box whose id/class names related content (TEASER_NAME). The id
 * and the class are tested one by one: a TEASER_NAME token holds no space, so it matches in "id class"
 * exactly when it matches in one of them, and no "id class" string is built. (Memoising the test per
 * string measured slower: the test costs about a map lookup, and 37 % of the strings are new.)
 */
export function namesTeaserBox(node: SnapshotNode): boolean {
  if (node.type !== 1) return false;
  const a = node.attrs;
  if (node.tag === "aside") return true;
  if (!a) return false;
  if (a["role"] === "complementary") return true;
  const id = a["id"];
  const cls = a["class"];
  return (id !== undefined && TEASER_NAME.test(id)) || (cls !== undefined && TEASER_NAME.test(cls));
}

/** The outermost named boxes that are lists of links under half the page's characters. */
function teaserBoxes(page: PageSnapshot, tree: Tree, s: LinkStats): TeaserList[] {
  const out: TeaserList[] = [];
  const half = (s.chars[0] as number) / 2;
  for (let i = 1; i < tree.n; i++) {
    const node = page.nodes[i] as SnapshotNode;
    if (!namesTeaserBox(node) || (s.chars[i] as number) >= half || !isLinkList(s, [i], -1)) continue;
    const a = node.attrs ?? {};
    const name = [a["id"], a["class"]].filter(Boolean).join(" ");
    out.push({
      members: [i],
      named: `in <${node.tag}${name ? ` ${name}` : ""}>`,
      links: s.links[i] as number,
    });
    i = (tree.end[i] as number) - 1;
  }
  return out;
}

/** A label and what follows it on one line: "Related: …", "READ MORE » …", "Lesen Sie auch: …". */
const LABELLED = /^(.{1,60}?)\s*[:：»›|]\s*\S/su;
/** Labels that introduce a source rather than other pages ("Read more at Reuters: …", "Read more here: …"). */
const SOURCE_LABEL = /^read (?:more|the full)\b/;
/** Characters of a leaf read for its label. */
const LABEL_CHARS = 64;
/** The separators LABELLED needs after a label. */
const LABEL_SEPARATOR = /[:：»›|]/;

/**
 * Whether a text node of the subtree holds a LABEL_SEPARATOR: the text textOf reads is made of its
 * text nodes' text and white space, so a subtree without one cannot be a labelled line (and its text
 * need not be read).
 */
function mayBeLabelled(page: PageSnapshot, tree: Tree, node: number): boolean {
  const end = tree.end[node] as number;
  for (let i = node; i < end; i++) {
    const text = (page.nodes[i] as SnapshotNode).text;
    if (text && LABEL_SEPARATOR.test(text)) return true;
  }
  return false;
}

/**
 * Leaves that are a teaser label and linked headlines on one line (a paragraph "RELATED: <a>…</a>"
 * in the article's flow): LINK_SHARE of the characters after the label are in links. One link is
 * enough: the label says what it is. Headings are not such lines: blogs link the article's own
 * title to its permalink, and some titles start with a label ("TRENDING: …").
 */
function labelledTeasers(rows: RuleRows, s: LinkStats): TeaserList[] {
  const { page, tree, nodes, own, keep } = rows;
  const out: TeaserList[] = [];
  for (let r = 0; r < nodes.length; r++) {
    const node = nodes[r] as number;
    if (keep[r] !== 1 || (s.links[node] as number) === 0 || own.ownWords[r] !== own.subtreeWords[r]) continue;
    if (s.heading[node] === 1) continue; // a linked title: the article's own permalink ("TRENDING: …")
    if (!mayBeLabelled(page, tree, node)) continue;
    const label = LABELLED.exec(textOf(page, tree, [node], { maxChars: LABEL_CHARS }))?.[1];
    const key = label === undefined ? "" : headingKey(label);
    if (!TEASER_HEADING.test(key) || SOURCE_LABEL.test(key)) continue;
    const rest = (s.chars[node] as number) - nonSpaceLength(label as string);
    if ((s.linked[node] as number) < LINK_SHARE * rest) continue;
    out.push({
      members: [node],
      named: `after the label "${key}"`,
      links: s.links[node] as number,
    });
  }
  return out;
}

/**
 * The page's teaser lists: by heading, by box, and labelled leaves among the kept rows (they may
 * overlap; dropping is idempotent).
 */
export function teaserLists(
  rows: RuleRows,
  stats = linkStats(rows.page, rows.tree, rows.own.textWords),
): TeaserList[] {
  const { page, tree } = rows;
  return [
    ...teaserHeadings(page, tree, stats),
    ...teaserBoxes(page, tree, stats),
    ...labelledTeasers(rows, stats),
  ];
}

/** Characters of the kept text in the node ranges [from, to) (a text node's chars are its own). */
function keptChars(rows: RuleRows, s: LinkStats, from: number, to: number): number {
  const { page, own, keep } = rows;
  let chars = 0;
  for (let i = from; i < to; i++) {
    const r = own.ownerRow[i] as number;
    if (r >= 0 && keep[r] === 1 && (page.nodes[i] as SnapshotNode).type === 3) chars += s.chars[i] as number;
  }
  return chars;
}

/** The kept rows inside a list's members, and the characters of their text. */
function keptIn(rows: RuleRows, s: LinkStats, list: TeaserList): { rows: number[]; chars: number } {
  const { tree, nodes, own, keep } = rows;
  const inside: number[] = [];
  let chars = 0;
  for (const m of list.members) {
    const end = tree.end[m] as number;
    chars += keptChars(rows, s, m, end);
    for (let node = m; node < end; node++) {
      const r = own.ownerRow[node] as number;
      if (r >= 0 && nodes[r] === node && keep[r] === 1) inside.push(r);
    }
  }
  return { rows: inside, chars };
}

/**
 * Drops the kept rows inside the page's teaser lists (in place), each list only while the page
 * keeps more text outside it than inside (in characters); returns the trace of what it dropped.
 */
export function dropTeasers(rows: RuleRows): TraceEntry[] {
  const { page, tree, own, keep, nodes } = rows;
  const trace: TraceEntry[] = [];
  const s = linkStats(page, tree, own.textWords);
  let kept = keptChars(rows, s, 0, tree.n);
  if (kept === 0) return trace;
  for (const list of teaserLists(rows, s)) {
    const inside = keptIn(rows, s, list);
    if (inside.chars === 0 || inside.chars >= kept - inside.chars) continue;
    kept -= inside.chars;
    const reason = `in a teaser list ${list.named} (${list.links} link${list.links === 1 ? "" : "s"})`;
    for (const r of inside.rows) {
      keep[r] = 0;
      if ((own.ownWords[r] as number) > 0)
        trace.push({
          step: "teaser-rule",
          ...traceTarget(page, tree, nodes[r] as number),
          action: "drop",
          reason,
        });
    }
  }
  return trace;
}
