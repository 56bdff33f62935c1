/**
 * Registers every method a command can run (src/extractors.ts REGISTRY): the four papers'
 * extractors (src/algorithms), the learned pipeline ("ml") and Louvan's system made of its pieces
 * ("louvan"; src/pipeline), and the gold-reading oracle of `pith evaluate`
 * (src/evaluate/oracle.ts). Commands import this module once.
 */
import "./algorithms/index.ts";
import "./evaluate/oracle.ts";
import { registerExtractor } from "./extractors.ts";
import { mlExtractor } from "./pipeline/extractor.ts";
import { louvanExtractor } from "./pipeline/louvan.ts";

registerExtractor(mlExtractor);
registerExtractor(louvanExtractor);
