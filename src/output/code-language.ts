/**
 * The language of a code block, for its Markdown fence's info string (```python): what the page's
 * highlighter wrote in class names. Conventions read, in this order:
 * - `language-X` (or `lang-X`) on the `<pre>` or on the `<code>` it holds: the HTML standard's
 *   suggestion for `<code>`, and what highlight.js, Prism, Shiki and CommonMark renderers write;
 * - `brush: X` in the class of the `<pre>` or its `<code>`: SyntaxHighlighter's convention, kept
 *   by MDN (`<pre class="brush: js notranslate">`) and WordPress plugins (13 wcxb-dev pages);
 * - `highlight-X` or `highlight-source-X` on the `<pre>` or one of its two nearest ancestors:
 *   Sphinx / Pygments (`<div class="highlight-python notranslate"><div class="highlight"><pre>`)
 *   and GitHub (`highlight-source-js`);
 * - a bare `rust` class on the `<pre>`: rustdoc's Rust blocks (`<pre class="rust
 *   rust-example-rendered">`; its other languages get `language-X`). Other bare class names are
 *   not read: `<pre class="python">` is as often a site's own style name.
 * Names that say "no language" (UNNAMED_LANGUAGES: Sphinx's
 * `highlight-default`, `-none`, Discourse's `lang-auto`,
 * `-text`) give none, and a name must look like one (LANGUAGE_NAME) to be written: the info
 * string is page text on a line of its own, so no space or backtick reaches it.
 */
import type { PageSnapshot } from "../types.ts";
import { childrenOf, type Tree } from "../dom/tree.ts";

const LANGUAGE_CLASS = /^(?:language|lang)-(.+)$/;
const HIGHLIGHT_CLASS = /^highlight-(?:source-)?(.+)$/;
/** SyntaxHighlighter's brush, read from the whole class attribute: the name is the token after "brush:". */
const BRUSH = /(?:^|\s)brush:\s*([^\s;]+)/i;
const RUSTDOC_CLASS = /^(rust)$/;
const LANGUAGE_NAME = /^[a-z0-9][a-z0-9_+#.-]{0,31}$/;
const UNNAMED_LANGUAGES = new Set([
  "default",
  "none",
  "text",
  "plain",
  "plaintext",
  "nohighlight",
  "txt",
  "auto",
]);
/** Ancestors of the <pre> whose classes may name its highlighter's language. */
const HIGHLIGHT_ANCESTORS = 2;

function fromClasses(page: PageSnapshot, i: number, pattern: RegExp): string | null {
  const classes = page.nodes[i]?.attrs?.["class"];
  if (!classes) return null;
  for (const token of classes.split(/\s+/)) {
    const m = pattern.exec(token.toLowerCase());
    if (m) return m[1] as string;
  }
  return null;
}

function fromBrush(page: PageSnapshot, i: number): string | null {
  const m = BRUSH.exec(page.nodes[i]?.attrs?.["class"] ?? "");
  return m ? (m[1] as string).toLowerCase() : null;
}

/**
 * The first element child of `i` that holds text, when it is a <code> (the `<pre><code>` pair;
 * elements without text before it are passed over: Node.js's docs open each <pre> with the
 * `<input type="checkbox">` that toggles its two flavours).
 */
function codeChild(page: PageSnapshot, tree: Tree, i: number): number {
  for (const c of childrenOf(tree, i)) {
    const node = page.nodes[c];
    if (node?.type === 1) {
      if (node.tag === "code") return c;
      if (holdsText(page, tree, c)) return -1;
    } else if ((node?.text ?? "").trim() !== "") return -1;
  }
  return -1;
}

/** Whether element i's subtree has a text node with more than whitespace. */
function holdsText(page: PageSnapshot, tree: Tree, i: number): boolean {
  for (let k = i + 1; k < (tree.end[i] as number); k++)
    if (page.nodes[k]?.type === 3 && (page.nodes[k]?.text ?? "").trim() !== "") return true;
  return false;
}

/**
 * The language named for the code block `pre` (a <pre> or other preformatted element), or "" when none is.
 */
export function codeLanguage(page: PageSnapshot, tree: Tree, pre: number): string {
  const code = codeChild(page, tree, pre);
  let name =
    fromClasses(page, pre, LANGUAGE_CLASS) ?? (code >= 0 ? fromClasses(page, code, LANGUAGE_CLASS) : null);
  name ??= fromBrush(page, pre) ?? (code >= 0 ? fromBrush(page, code) : null);
  for (
    let a = pre, k = 0;
    name === null && a >= 0 && k <= HIGHLIGHT_ANCESTORS;
    a = tree.parent[a] as number, k++
  )
    name = fromClasses(page, a, HIGHLIGHT_CLASS);
  name ??= fromClasses(page, pre, RUSTDOC_CLASS);
  return name !== null && LANGUAGE_NAME.test(name) && !UNNAMED_LANGUAGES.has(name) ? name : "";
}
