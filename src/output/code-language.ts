/**
 * The language of a code block, for its Markdown fence's info string (```python): what the page's
 * highlighter wrote in class names. Conventions read, in this order:
 * - `language-X` (or `lang-X`) on the `<pre>` or on the `<code>` it holds: the HTML standard's
 *   suggestion for `<code>`, and what highlight.js, Prism, Shiki and CommonMark renderers write;
 * - `highlight-X` or `highlight-source-X` on the `<pre>` or one of its two nearest ancestors:
 *   Sphinx / Pygments (`<div class="highlight-python notranslate"><div class="highlight"><pre>`)
 *   and GitHub (`highlight-source-js`).
 * Names that say "no language" (UNNAMED_LANGUAGES: Sphinx's `highlight-default`, `-none`, Discourse's `lang-auto`,
 * `-text`) give none, and a name must look like one (LANGUAGE_NAME) to be written: the info
 * string is page text on a line of its own, so no space or backtick reaches it.
 */
import type { PageSnapshot } from "../types.ts";
import { childrenOf, type Tree } from "../dom/tree.ts";

const LANGUAGE_CLASS = /^(?:language|lang)-(.+)$/;
const HIGHLIGHT_CLASS = /^highlight-(?:source-)?(.+)$/;
const LANGUAGE_NAME = /^[a-z0-9][a-z0-9_+#.-]{0,31}$/;
const UNNAMED_LANGUAGES = new Set(["default", "none", "text", "plain", "plaintext", "nohighlight", "txt", "auto"]);
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

/** The first element child of `i`, when it is a <code> (the `<pre><code>` pair). */
function codeChild(page: PageSnapshot, tree: Tree, i: number): number {
  for (const c of childrenOf(tree, i)) {
    const node = page.nodes[c];
    if (node?.type === 1) return node.tag === "code" ? c : -1;
    if ((node?.text ?? "").trim() !== "") return -1;
  }
  return -1;
}

/** The language named for the code block `pre` (a <pre> or other preformatted element), or "" when none is. */
export function codeLanguage(page: PageSnapshot, tree: Tree, pre: number): string {
  const code = codeChild(page, tree, pre);
  let name = fromClasses(page, pre, LANGUAGE_CLASS) ?? (code >= 0 ? fromClasses(page, code, LANGUAGE_CLASS) : null);
  for (let a = pre, k = 0; name === null && a >= 0 && k <= HIGHLIGHT_ANCESTORS; a = tree.parent[a] as number, k++) name = fromClasses(page, a, HIGHLIGHT_CLASS);
  return name !== null && LANGUAGE_NAME.test(name) && !UNNAMED_LANGUAGES.has(name) ? name : "";
}
