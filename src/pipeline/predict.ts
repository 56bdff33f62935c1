/**
 * The classifiers' view of a page (`pith predict`): for every structural node of the feature table, the
 * segment classifier's P(good segment), the content score the run decides on (run.ts decideScores: the
 * content classifier, the context stage, the segment smoothing) and its label at the routed type's
 * threshold, before the rules and the refiner change anything. The same computation as `pith extract`:
 * a row labelled 1 is one the content classifier's trace reports at P(main) ≥ the threshold.
 */
import { buildTree } from "../dom/tree.ts";
import { pageEmptyReason } from "../dom/no-text.ts";
import { nodePaths } from "../features/paths.ts";
import { matrixFromData, selectRows } from "../ml/matrix.ts";
import type { Classifier } from "../ml/classifier.ts";
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import type { PipelineModel } from "./model/model.ts";
import type { RunOptions } from "./options.ts";
import type { Ownership } from "./own-text.ts";
import { decideScores, modelTable, modelView, type Table } from "./run.ts";

/** One structural node as the classifiers see it. */
export interface NodePrediction {
  /** The node's index in the snapshot the model reads. */
  node: number;
  path: string;
  tag: string;
  /** P(good segment) (segments.ts); null without a segment classifier or for a node without words. */
  segment: number | null;
  /** P(main) as the run decides on it; null for a node that owns no words. */
  content: number | null;
  /** content ≥ threshold (1) or not (0); null where content is null. */
  label: 0 | 1 | null;
  /** Words the node owns (own-text.ts). */
  words: number;
}

/** A page's rows, or why it has none (a feed, a page without a visible word). */
export type PagePrediction =
  { pageType: string; threshold: number; rows: NodePrediction[] } | { emptyReason: string };

/** Every structural node of `snapshot` scored by `model` (see the header). */
export function predictPage(
  model: PipelineModel,
  snapshot: PageSnapshot,
  options: RunOptions = {},
): PagePrediction {
  const page = modelView(model, snapshot, options);
  const empty = pageEmptyReason(snapshot, page);
  if (empty !== null) return { emptyReason: empty };
  const tree = buildTree(page);
  // every row filled: the segment classifier reads them all
  const { table, own } = modelTable(model, page, tree, options, true);
  if (own.totalWords === 0 || table.nodes.length === 0) return { emptyReason: "no visible word to classify" };
  const { pageType, scores, threshold } = decideScores(model, { page, tree, table, own }, options);
  const segment = model.segment ? segmentScores(model.segment, table, own) : null;
  const paths = nodePaths(page, tree, table.nodes);
  const rows = Array.from(table.nodes, (node, r): NodePrediction => {
    const words = own.ownWords[r] as number;
    const s = scores[r] as number;
    const content = words > 0 && !Number.isNaN(s) ? s : null;
    const seg = segment ? (segment[r] as number) : NaN;
    return {
      node,
      path: paths[r] as string,
      tag: (page.nodes[node] as SnapshotNode).tag,
      segment: Number.isNaN(seg) ? null : seg,
      content,
      label: content === null ? null : content >= threshold ? 1 : 0,
      words,
    };
  });
  return { pageType, threshold, rows };
}

/** P(good segment) of every row with words in its subtree, as segments.ts segmentOf scores them; NaN elsewhere. */
function segmentScores(segment: Classifier, table: Table, own: Ownership): Float32Array {
  const n = table.nodes.length;
  const out = new Float32Array(n).fill(NaN);
  const rows: number[] = [];
  for (let r = 0; r < n; r++) if ((own.subtreeWords[r] as number) > 0) rows.push(r);
  if (!rows.length) return out;
  const p = segment.predictProba(selectRows(matrixFromData(table.values, n, table.nCols), rows));
  rows.forEach((r, k) => (out[r] = p[k] as number));
  return out;
}
