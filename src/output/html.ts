/**
 * HTML output: the chosen subtrees re-serialised from the snapshot (kept attributes only, no
 * scripts or styles, invisible nodes and heading permalinks dropped; a code block's <pre> keeps its
 * language as `class="language-X"`, code-language.ts), wrapped in one <article> (unless the output is one
 * <article> already: a chosen <body> holding an <article> gives no <article><article>); list
 * items, table rows, sections and cells, and dt/dd chosen without their list or table get one
 * (WRAPPERS). Iterative walk.
 *
 * Pages are untrusted and this output is meant to be shown: no event handler or style attribute
 * is kept, a link or source whose URL would run script (`javascript:`, `vbscript:`, a `data:`
 * URL other than an image's source) or point into the author's disk (`file:`) loses that attribute,
 * and a chosen <html> or <body> gives
 * its content without its own tag (a <body> inside the <article> is not HTML). Links and image
 * sources are absolute when the page URL is known (urls.ts).
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { PREFORMATTED_TAGS } from "../dom/blocks.ts";
import { inlineGap } from "../dom/text.ts";
import { leftOutOfOutput } from "../dom/permalink.ts";
import { codeLanguage } from "./code-language.ts";
import { SHADOW_ROOT_TAG } from "../render/shadow-root.ts";
import type { Tree } from "../dom/tree.ts";
import { escapeAttribute, escapeText, safeUrl } from "../dom/escape.ts";
import { absoluteUrl, baseUrl } from "../dom/urls.ts";
import { DEFAULT_OUTPUT, type OutputOptions } from "./options.ts";

const VOID_TAGS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
/** Attributes worth keeping in clean output. */
const OUTPUT_ATTRIBUTES = ["href", "src", "alt", "colspan", "rowspan", "start", "lang"];

/** Elements whose own tag is left out (their content is kept); a shadow root is no element of HTML. */
const WRAPPER_TAGS = new Set(["html", "body", SHADOW_ROOT_TAG]);

/**
 * Obsolete preformatted elements, written as <pre>: <xmp> and <plaintext> hold raw text, so
 * escaped text inside them would show as entities, and a <plaintext> would turn the rest of the
 * output into text.
 */
const PRE_TAGS = new Set(["xmp", "plaintext", "listing"]);

function outputTag(node: SnapshotNode): string {
  return PRE_TAGS.has(node.tag) ? "pre" : node.tag;
}

function openTag(node: SnapshotNode, base: string | null, language = ""): string {
  let s = `<${outputTag(node)}`;
  // a code block's language (code-language.ts), the one class kept
  if (language) s += ` class="language-${language}"`;
  for (const a of OUTPUT_ATTRIBUTES) {
    const v = node.attrs?.[a];
    if (v === undefined) continue;
    const url = a === "href" || a === "src";
    if (url && !safeUrl(a, v)) continue;
    // an empty source loads nothing; made absolute it would name the page itself
    if (a === "src" && v.trim() === "") continue;
    s += ` ${a}="${escapeAttribute(url ? absoluteUrl(v, base) : v)}"`;
  }
  return s + ">";
}

/**
 * The elements a chosen root needs around it to be valid HTML, outermost first (li: ul or ol, by its list).
 */
const WRAPPERS: Readonly<Record<string, readonly string[]>> = {
  tr: ["table"],
  tbody: ["table"],
  thead: ["table"],
  tfoot: ["table"],
  caption: ["table"],
  td: ["table", "tr"],
  th: ["table", "tr"],
  dt: ["dl"],
  dd: ["dl"],
};

/** Elements left out with their content when images are not wanted. */
const IMAGE_TAGS = new Set(["img", "picture"]);

/**
 * Elements that show something without any text: a link holding one of them is not empty. A
 * link around nothing else that shows (its image left out by --no-images, an icon font's empty
 * <i>, an <svg> icon, which is no content) is written without its <a> tags, its content kept:
 * an empty link is nothing a reader can see or click. Its image's alt text is not put in its
 * place: it is not text the page shows, and the text and Markdown outputs leave it out too.
 */
const SHOWN_WITHOUT_TEXT = new Set(["img", "video"]);

interface Close {
  end: number;
  tag: string;
  /** Index in the output of the element's open tag. */
  at: number;
  /** Texts and images written before the element opened (none since: an empty link). */
  shown: number;
}

export function toHtml(
  page: PageSnapshot,
  tree: Tree,
  roots: readonly number[],
  options: OutputOptions = DEFAULT_OUTPUT,
): string {
  const writer = new HtmlWriter(page, tree, options);
  const { out } = writer;
  // a list item, a table's row, section or cell chosen without its list or table is valid HTML only
  // inside one: consecutive such roots of one parent share a wrapper, <ol> for an ordered list's items
  let container = -1; // parent of the current run of wrapped roots
  let containerTags: readonly string[] = [];
  let previous = -1;
  for (const root of roots) {
    // pieces of text beside blocks, chosen one by one
    if (previous >= 0) out.push(inlineGap(page, tree, previous, root));
    previous = root;
    const parent = tree.parent[root] as number;
    const tag = page.nodes[root]?.tag ?? "";
    const wrap = tag === "li" ? [page.nodes[parent]?.tag === "ol" ? "ol" : "ul"] : (WRAPPERS[tag] ?? []);
    const key = wrap.length ? parent : -1;
    if (key !== container) {
      for (const t of [...containerTags].reverse()) out.push(`</${t}>`);
      for (const t of wrap) out.push(`<${t}>`);
      container = key;
      containerTags = wrap;
    }
    writer.writeRoot(root);
  }
  for (const t of [...containerTags].reverse()) out.push(`</${t}>`);
  if (isOneArticle(out, writer.articles)) return out.slice(1).join("").trim();
  out.push("</article>");
  return out.join("");
}

/** Writes chosen subtrees as HTML: the pieces of the output, and the elements still open. */
class HtmlWriter {
  readonly out: string[] = ["<article>"];
  /** Output index of an <article>'s open tag → of its close tag. */
  readonly articles = new Map<number, number>();
  private readonly closeAt: Close[] = [];
  private readonly base: string | null;
  /** Texts (not only spaces) and images written so far. */
  private shown = 0;

  constructor(
    private readonly page: PageSnapshot,
    private readonly tree: Tree,
    private readonly options: OutputOptions,
  ) {
    this.base = baseUrl(page);
  }

  /** Writes the subtree `root`, closing every element opened in it. */
  writeRoot(root: number): void {
    const { page, tree, options, out, closeAt } = this;
    const end = tree.end[root] as number;
    for (let i = root; i < end; i++) {
      while (closeAt.length && (closeAt[closeAt.length - 1] as { end: number }).end <= i) this.close();
      const node = page.nodes[i] as SnapshotNode;
      if (
        !node.visible ||
        leftOutOfOutput(page, tree, i) ||
        (node.type === 1 && !options.images && IMAGE_TAGS.has(node.tag))
      ) {
        i = (tree.end[i] as number) - 1;
        continue;
      }
      if (node.type === 3) {
        const text = node.text ?? "";
        if (text.trim() !== "") this.shown++;
        out.push(escapeText(text));
        continue;
      }
      if (WRAPPER_TAGS.has(node.tag)) continue;
      if (SHOWN_WITHOUT_TEXT.has(node.tag)) this.shown++;
      if (!VOID_TAGS.has(node.tag))
        closeAt.push({ end: tree.end[i] as number, tag: outputTag(node), at: out.length, shown: this.shown });
      out.push(openTag(node, this.base, PREFORMATTED_TAGS.has(node.tag) ? codeLanguage(page, tree, i) : ""));
    }
    while (closeAt.length) this.close();
  }

  /** Closes the innermost open element (an empty link leaves no tags). */
  private close(): void {
    const { out } = this;
    const c = this.closeAt.pop() as Close;
    if (c.tag === "a" && c.shown === this.shown) {
      out[c.at] = ""; // an empty link (SHOWN_WITHOUT_TEXT): no <a> tags
      return;
    }
    if (c.tag === "article") this.articles.set(c.at, out.length);
    out.push(`</${c.tag}>`);
  }
}

/** Whether the output (after its opening wrapper) is one <article> with at most whitespace around it. */
function isOneArticle(out: readonly string[], articles: ReadonlyMap<number, number>): boolean {
  let first = 1;
  while (first < out.length && (out[first] as string).trim() === "") first++;
  let last = out.length - 1;
  while (last > first && (out[last] as string).trim() === "") last--;
  return articles.get(first) === last;
}
