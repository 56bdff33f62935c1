/**
 * pith's library entry: `import { ... } from "pith"`.
 */
import "./methods.ts";

export * from "./types.ts";
export { staticSnapshot, StaticRenderer } from "./render/static.ts";
export { createRenderer, renderPage } from "./render/index.ts";
export { readInputs, readPageFile, fetchPage } from "./io/inputs.ts";
export { decodeHtml } from "./io/decode.ts";
export { loadDataset, readDatasetPage, readGold } from "./io/dataset.ts";
export { buildTree, type Tree } from "./dom/tree.ts";
export { textOf, words } from "./dom/text.ts";
export { nodePath } from "./dom/path.ts";
export { getExtractor, extractorNames, registerExtractor, runExtractor } from "./extractors.ts";
export {
  equalTopDownMapping,
  occurrenceCounts,
  prepareForMapping,
  DEFAULT_EQUALITY,
  type EqualityMode,
  type MappedPage,
} from "./site/mapping.ts";
export { getBlockSet, DEFAULT_TAG_SET, PAPER_TAG_SET, type BlockSet } from "./site/block-set.ts";
export { blockIbdf, nodeIbdf, indexBlocks, type BlockIbdf } from "./site/ibdf.ts";
export { evaluateMethods, type EvaluateOptions, type EvaluationResult } from "./evaluate/runner.ts";
export { wcxbWords, aebShingles, lcsScore, snippetCounts, nodeScore } from "./evaluate/metrics.ts";
export {
  computeFeatures,
  featureSchema,
  structuralNodes,
  siteContextFor,
  type FeatureTable,
  type FeatureSchema,
} from "./features/index.ts";
export { labelNodes, type NodeLabels } from "./train/labels.ts";
export {
  textBlocks,
  nodesForBlocks,
  type TextBlock,
  type BlockView,
  type RefineResult,
} from "./refine/blocks.ts";
export { largestBlock, type LbsOptions } from "./refine/largest-block.ts";
export { lengthSmoothing, type SlsOptions } from "./refine/length-smoothing.ts";
export { tablePattern, type TpOptions } from "./refine/table-pattern.ts";
export { hyperlinkDistance, rankSiteLinks, rankSitePages, type SiteLink } from "./site/nset.ts";
export { fetchNSet, type LiveNSet } from "./site/live.ts";
export { mlExtractor } from "./pipeline/extractor.ts";
export { extractBatch, type BatchOptions, type ExtractMode } from "./batch/extract.ts";
export { Sink, type BatchSink } from "./batch/sink.ts";
export type { PageOutput } from "./batch/page-output.ts";
export type { ExtractSetup } from "./batch/extract-pool.ts";
export { runPipeline, type RunResult } from "./pipeline/run.ts";
export { loadPipelineModel, type PipelineModel } from "./pipeline/model/model.ts";
export { train, type TrainOptions, type TrainResult } from "./train/train.ts";
