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
  };
  const blockEnds: number[] = []; // ends of the open block elements, innermost last
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
      if (node.type === 3) current += node.text ?? "";
      else if (breaksLine(node)) {
        flush();
        blockEnds.push(tree.end[i] as number);
      }
    }
    blockEnds.length = 0;
    flush();
  }
  return lines.join("\n");
}
