// pith's library entry for Node (package.json "exports"): `import { runExtractor } from "pith"`
// in a plain `node app.js`. It loads the bundle in dist/ while it is newer than every source file
// (scripts/build.mjs, run by `npm install`), else the TypeScript sources through tsx's loader, as
// bin/pith.js does. Types come from src/index.ts ("types"), which is also the list below: an ES
// module names its exports before it runs, so they are listed, and test/bundle.test.ts checks
// that the list is src/index.ts's.
import { importPith } from "../scripts/build.mjs";

const pith = await importPith("index");

export const {
  DEFAULT_EQUALITY, DEFAULT_TAG_SET, KEPT_ATTRIBUTES, KEPT_ATTRIBUTE_PREFIX, PAPER_TAG_SET,
  SNAPSHOT_VERSION, Sink, StaticRenderer, aebShingles, blockIbdf, buildTree, computeFeatures,
  createRenderer, decodeHtml, equalTopDownMapping, evaluateMethods, extractBatch, extractorNames, featureSchema,
  fetchNSet, fetchPage, getBlockSet, getExtractor, hyperlinkDistance, indexBlocks, labelNodes,
  largestBlock, lcsScore, lengthSmoothing, loadDataset, loadPipelineModel, mlExtractor, nodeIbdf,
  nodePath, nodeScore, nodesForBlocks, occurrenceCounts, prepareForMapping, rankSiteLinks,
  rankSitePages, readDatasetPage, readGold, readInputs, readPageFile, registerExtractor,
  renderPage, runExtractor, runPipeline, siteContextFor, snippetCounts, staticSnapshot,
  structuralNodes, tablePattern, textBlocks, textOf, train, wcxbWords, words,
} = pith;
