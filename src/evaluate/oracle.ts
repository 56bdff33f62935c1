/**
 * The "oracle" extractor: outputs exactly the structural nodes labelled main by
 * src/train/labels.ts (gold text aligned to the page), through the same path the learned
 * pipeline uses — textOf(page, tree, outermost(picked)). Its score is therefore the ceiling of
 * any classifier trained on these labels, and the check that the labels are right (issue 3).
 * Static snapshots are read as pith's static models read them, with markup-hidden text
 * (src/pipeline/hidden-text.ts). Needs the gold text:
 * `context.gold` (string). Optional `context.params.container`
 * overrides MAIN_CONTAINER_SHARE.
 */
import { textOf } from "../dom/text.ts";
import { buildTree, outermost } from "../dom/tree.ts";
import { nodePath } from "../dom/path.ts";
import { registerExtractor } from "../extractors.ts";
import { revealMarkupHidden } from "../pipeline/hidden-text.ts";
import { labelNodes, type LabelOptions } from "../train/labels.ts";
import type { Extraction, Extractor, ExtractorContext, PageSnapshot, TraceEntry } from "../types.ts";

/** Characters of text shown per trace entry. */
export const TRACE_TEXT_CHARS = 80;

export const oracle: Extractor = {
  name: "oracle",
  needsGold: true,
  description:
    "labels check: the structural nodes whose text is mostly gold " +
    "(needs the gold text; issue 3, dragnet-style alignment)",
  /** Reads the page as the static models do, with markup-hidden text. */
  view: (snapshot: PageSnapshot): PageSnapshot => revealMarkupHidden(snapshot),
  extract(snapshot: PageSnapshot, context?: ExtractorContext): Extraction {
    // the learned pipeline's training view (markup-hidden text in static mode)
    const page = revealMarkupHidden(snapshot);
    const gold = context?.gold;
    if (typeof gold !== "string")
      return { method: "oracle", text: "", nodes: [], trace: [], emptyReason: "no gold text (context.gold)" };
    const tree = buildTree(page);
    const options: LabelOptions = {};
    const container = context?.params?.["container"];
    if (typeof container === "number") options.containerShare = container;
    const labels = labelNodes(page, tree, gold, options);
    const picked: number[] = [];
    const share = new Map<number, number>();
    for (let r = 0; r < labels.nodes.length; r++) {
      const i = labels.nodes[r] as number;
      share.set(i, labels.goldShare[r] as number);
      if (labels.main[r] === 1) picked.push(i);
    }
    const roots = outermost(tree, picked);
    const trace: TraceEntry[] = roots.map((i) => ({
      step: "oracle",
      node: i,
      path: nodePath(page, tree, i),
      action: "keep",
      reason: `gold share ${(share.get(i) ?? NaN).toFixed(2)}`,
      text: textOf(page, tree, [i]).slice(0, TRACE_TEXT_CHARS),
      score: share.get(i) ?? NaN,
    }));
    const text = textOf(page, tree, roots, { preformatted: true });
    return {
      method: "oracle",
      text,
      nodes: roots,
      scores: roots.map((i) => share.get(i) ?? NaN),
      trace,
      ...(roots.length ? {} : { emptyReason: "no node is mostly gold" }),
      ...(page !== snapshot ? { view: page } : {}),
    };
  },
};

registerExtractor(oracle);
