/**
 * Text from snapshot subtrees: whitespace collapsed inside a block, one line per block, as a
 * reader would copy it. Also the word tokenizer every metric and feature shares.
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import { NON_CONTENT_TAGS, isBlockDisplay } from "./blocks.ts";
import type { Tree } from "./tree.ts";

const SPACES = /\s+/g;

export function collapseSpaces(s: string): string {
  return s.replace(SPACES, " ").trim();
}

/** Unicode word tokens (letters, marks, digits, connector punctuation), as Python's `\w+`. */
export const WORD = /[\p{L}\p{M}\p{Nd}\p{Pc}]+/gu;

export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

export interface TextOptions {
  /** Skip nodes the renderer marked invisible (default true). */
  visibleOnly?: boolean;
  /** Skip these node indices (and their subtrees). */
  exclude?: ReadonlySet<number>;
}

/** Elements whose text is kept verbatim: no separator is inserted between their inline pieces. */
export const VERBATIM_TAGS: ReadonlySet<string> = new Set(["pre", "code", "kbd", "samp", "tt", "textarea"]);

/**
 * Texts of two sibling inline elements with nothing between them (`<span>Publisher</span><span>Acme</span>`,
 * adjacent links) read as two words on screen (CSS gaps, flex or grid items), so a space joins
 * them. Not when one text's element contains the other's (`<span>T</span>he` drop caps, `<b>x</b>y`)
 * and not inside verbatim code (syntax-highlighting spans; the caller tracks that). Shared with
 * the label alignment's tokens (src/train/align.ts), which must follow textOf exactly.
 */
export function siblingInlineTexts(tree: Tree, prevParent: number, parent: number): boolean {
  if (prevParent < 0 || prevParent === parent) return false;
  const prevInside = parent <= prevParent && prevParent < (tree.end[parent] as number);
  const curInside = prevParent <= parent && parent < (tree.end[prevParent] as number);
  return !prevInside && !curInside;
}

function needsSeparator(tree: Tree, current: string, prevParent: number, parent: number, text: string): boolean {
  if (!current || /\s$/.test(current) || /^\s/.test(text)) return false;
  return siblingInlineTexts(tree, prevParent, parent);
}

function breaksLine(node: SnapshotNode): boolean {
  return node.type === 1 && (node.tag === "br" || isBlockDisplay(node.tag, node.style?.display));
}

/** Text of the subtrees rooted at `roots` (in document order), one line per block. */
export function textOf(page: PageSnapshot, tree: Tree, roots: readonly number[], options: TextOptions = {}): string {
  const visibleOnly = options.visibleOnly ?? true;
  const lines: string[] = [];
  let current = "";
  const flush = (): void => {
    const line = collapseSpaces(current);
    if (line) lines.push(line);
    current = "";
    prevParent = -1;
  };
  const blockEnds: number[] = []; // ends of the open block elements, innermost last
  let prevParent = -1; // parent of the last text appended to the current line
  let verbatimEnd = -1; // inside a VERBATIM_TAGS element until this index
  for (const root of roots) {
    const end = tree.end[root] as number;
    for (let i = root; i < end; i++) {
      while (blockEnds.length && (blockEnds[blockEnds.length - 1] as number) <= i) {
        blockEnds.pop();
        flush();
      }
      const node = page.nodes[i] as SnapshotNode;
      if ((visibleOnly && !node.visible) || (node.type === 1 && NON_CONTENT_TAGS.has(node.tag)) || options.exclude?.has(i)) {
        i = (tree.end[i] as number) - 1; // skip the subtree
        continue;
      }
      if (node.type === 3) {
        const text = node.text ?? "";
        if (!text) continue;
        const parent = tree.parent[i] as number;
        if (i >= verbatimEnd && needsSeparator(tree, current, prevParent, parent, text)) current += " ";
        current += text;
        prevParent = parent;
      } else {
        if (VERBATIM_TAGS.has(node.tag) && i >= verbatimEnd) verbatimEnd = tree.end[i] as number;
        if (breaksLine(node)) {
          flush();
          blockEnds.push(tree.end[i] as number);
        }
      }
    }
    blockEnds.length = 0;
    flush();
  }
  return lines.join("\n");
}
