/** The one import point for node labels in the trainer (src/train/labels.ts: gold-text alignment). */
export { labelNodes, type NodeLabels } from "./labels.ts";
