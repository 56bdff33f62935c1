/** Registers the learned pipeline as the "ml" extractor (imported by src/algorithms/index.ts). */
import { registerExtractor } from "../extractors.ts";
import { mlExtractor } from "./extractor.ts";

registerExtractor(mlExtractor);
