/**
 * The one import point for node features in the learned pipeline and its trainer: the feature
 * registry of src/features (schema hash recorded in every model artifact).
 */
export { computeFeatures, featureSchema, type FeatureTable, type FeatureSchema } from "../features/index.ts";
