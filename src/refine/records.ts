/**
 * The records refiner: repeated records are treated alike. Listing, collection and product
 * pages show their content as runs of sibling records built from one template (product cards,
 * search results, job posts, spec rows). The classifier scores each record's fields on their
 * own, so it keeps the title of one card and misses the next, or keeps the "Add to cart" line
 * of a few. Here every field votes with its siblings: leaf segments at the same place in
 * same-template records (same parent, same record signature, same path inside the record) form
 * a field group; when at least MAJORITY of a group's words are kept the whole group is kept.
 * The vote only adds: dropping the minority-kept fields too cost wcxb-dev listings, which are
 * recall-limited, while adding alone gains on them. Leaves in no record run keep their own
 * decision.
 *
 * pith's own rule, in the spirit of Louvan's Table Pattern (§2.3: forum posts are rows of one
 * table) and of wrapper induction (records of one template carry one kind of field). Choices:
 * - A record is an element with at least MIN_RECORDS siblings (itself included) of the same
 *   signature, tag plus class tokens without digits (src/dom/records.ts); a leaf's record is its
 *   nearest such ancestor within MAX_RECORD_DEPTH levels (the leaf itself counts: <li> items).
 * - The path inside the record is the signature chain from the record down to the leaf.
 * - Votes are by words, and groups are formed only when the field occurs in MIN_RECORDS records.
 * Whether a page type uses it is a model setting chosen by cross-validation (refine.ts).
 * It runs after the rules, so it can bring back a leaf the duplicate rule dropped (when most of
 * that field's copies across records are kept). Vetoing that was measured and lost: the gold
 * keeps repeated spec lines, for one.
 */
import { MIN_RECORDS, pageSignatureIds, recordOf, sameSignatureSiblings } from "../dom/records.ts";
import type { Tree } from "../dom/tree.ts";
import type { PageSnapshot, TraceEntry } from "../types.ts";
import type { Ownership } from "../pipeline/own-text.ts";
import { traceTarget } from "../pipeline/trace.ts";

/** A field group is kept when at least this share of its words is kept. */
export const MAJORITY = 0.5;

interface FieldGroup {
  rows: number[];
  records: Set<number>;
  words: number;
  keptWords: number;
}

/** Keeps every leaf of a field group most of whose words are kept (returns a new array) with a trace. */
export function voteRecords(
  page: PageSnapshot,
  tree: Tree,
  nodes: Int32Array,
  own: Ownership,
  keep: Uint8Array,
): { keep: Uint8Array; trace: TraceEntry[] } {
  const siblings = sameSignatureSiblings(page, tree);
  const ids = pageSignatureIds(page, tree);
  const sig = (i: number): number => ids[i] ?? -1;
  const groups = new Map<string, FieldGroup>();
  for (let r = 0; r < nodes.length; r++) {
    const w = own.ownWords[r] as number;
    if (w === 0) continue;
    const leaf = nodes[r] as number;
    const found = recordOf(tree, siblings, leaf);
    if (!found) continue;
    let path = "";
    for (let a = leaf; a !== found.record; a = tree.parent[a] as number) path = `${sig(a)}>${path}`;
    const key = `${tree.parent[found.record]}|${sig(found.record)}|${path}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { rows: [], records: new Set(), words: 0, keptWords: 0 }));
    g.rows.push(r);
    g.records.add(found.record);
    g.words += w;
    if (keep[r] === 1) g.keptWords += w;
  }
  const out = keep.slice();
  const trace: TraceEntry[] = [];
  for (const g of groups.values()) {
    if (g.records.size < MIN_RECORDS || g.keptWords === 0) continue;
    const share = g.keptWords / g.words;
    if (share < MAJORITY || share === 1) continue;
    const reason =
      `kept with its field in ${g.records.size} sibling records ` +
      `(${Math.round(share * 100)}% of the field's words kept)`;
    for (const r of g.rows) {
      if (out[r] === 1) continue;
      out[r] = 1;
      trace.push({
        step: "records-refiner",
        ...traceTarget(page, tree, nodes[r] as number),
        action: "keep",
        reason,
      });
    }
  }
  return { keep: out, trace };
}
