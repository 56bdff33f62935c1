/**
 * Heading permalinks: the "¶", "#" or "§" link that documentation and blog generators put beside
 * each heading (Sphinx and MkDocs `<a class="headerlink" href="#install">¶</a>`, Jekyll and Hugo
 * "#" anchors, "🔗" icons) so a reader can copy a link to the section. It is interface, not
 * content: the text, Markdown and HTML outputs leave it out ("Install¶" would otherwise be the
 * heading's text, and `## Install[¶](…#install)` its Markdown).
 *
 * Choice: an `<a>` whose href is a bare fragment (`#…`, a place in the page itself) and whose
 * text is only such symbols (PERMALINK_TEXT: at least one) and spaces. The symbol, not the class name,
 * decides, so it needs no generator list; a fragment link with any letter or digit ("#1", a
 * footnote "[2]", "Back to top") is kept. A permalink holding no text at all (an icon drawn by
 * CSS or an SVG) shows nothing already.
 */
import type { PageSnapshot } from "../types.ts";
import { NON_CONTENT_TAGS } from "./blocks.ts";
import type { Tree } from "./tree.ts";

/**
 * Characters a permalink shows: pilcrow, section sign, number sign,
 * link and anchor emoji (with their variation selectors).
 */
const PERMALINK_TEXT =
  /^[\s\u200b\u200c\u200d\ufe0e\ufe0f¶§#🔗⚓]*[¶§#🔗⚓][\s\u200b\u200c\u200d\ufe0e\ufe0f¶§#🔗⚓]*$/u;
/** A permalink's subtree is its text, maybe in a <span> or <i>: larger subtrees are not looked at. */
const MAX_PERMALINK_NODES = 4;

/**
 * Whether node `i` is an element whose subtree the text, Markdown and HTML outputs leave out: a
 * NON_CONTENT_TAGS element (script, style, form controls, …) or a heading permalink. The one test
 * their three walks share.
 */
export function leftOutOfOutput(page: PageSnapshot, tree: Tree, i: number): boolean {
  const node = page.nodes[i];
  return node?.type === 1 && (NON_CONTENT_TAGS.has(node.tag) || isPermalink(page, tree, i));
}

/** Whether node `i` is a heading permalink (see the header): an output leaves it and its subtree out. */
export function isPermalink(page: PageSnapshot, tree: Tree, i: number): boolean {
  const node = page.nodes[i];
  if (node?.tag !== "a" || node.attrs?.["href"]?.trimStart().startsWith("#") !== true) return false;
  const end = tree.end[i] as number;
  if (end - i > MAX_PERMALINK_NODES) return false;
  let text = "";
  for (let k = i + 1; k < end; k++) {
    const n = page.nodes[k];
    if (n?.type === 3 && n.visible) text += n.text ?? "";
  }
  return PERMALINK_TEXT.test(text);
}
