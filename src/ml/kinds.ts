/**
 * The classifier kinds by name: a new untrained one, or one rebuilt from its JSON (also "mean",
 * mean.ts: the mean of members rebuilt here, so mean.ts needs no import of this module). Each kind's
 * module is imported when first asked for, so a process that runs only GBDT models never loads
 * TensorFlow.js.
 */
import { CLASSIFIER_KINDS, type Classifier, type ClassifierKind } from "./classifier.ts";

/** A new untrained classifier of `kind`; hyper-parameters not given keep their documented defaults. */
export async function createClassifier(
  kind: ClassifierKind,
  params: Record<string, unknown> = {},
): Promise<Classifier> {
  switch (kind) {
    case "gbdt":
      return new (await import("./gbdt.ts")).GradientBoostedTrees(params);
    case "rf":
      return new (await import("./hist-forest.ts")).HistRandomForest(params);
    case "ml-rf":
      return new (await import("./random-forest.ts")).MlRandomForest(params);
    case "mlp":
      return new (await import("./mlp.ts")).MlpClassifier(params);
    case "seq":
      return new (await import("./seq.ts")).SequenceClassifier(params);
    default:
      throw new Error(`unknown classifier kind "${String(kind)}" (known: ${CLASSIFIER_KINDS.join(", ")})`);
  }
}

/** Rebuilds a classifier from its toJSON() output. Throws a one-line error on unknown kinds or bad JSON. */
export async function loadClassifier(json: unknown): Promise<Classifier> {
  const kind = (json as { kind?: unknown } | null)?.kind;
  switch (kind) {
    case "gbdt":
      return (await import("./gbdt.ts")).GradientBoostedTrees.fromJSON(json);
    case "rf":
      return (await import("./hist-forest.ts")).HistRandomForest.fromJSON(json);
    case "ml-rf":
      return (await import("./random-forest.ts")).MlRandomForest.fromJSON(json);
    case "mlp":
      return (await import("./mlp.ts")).MlpClassifier.fromJSON(json);
    case "seq":
      return (await import("./seq.ts")).SequenceClassifier.fromJSON(json);
    case "mean": {
      const members = (json as { members?: unknown }).members;
      if (!Array.isArray(members) || !members.length)
        throw new Error('expected a serialised "mean" classifier');
      const { MeanClassifier } = await import("./mean.ts");
      return new MeanClassifier(await Promise.all(members.map(loadClassifier)));
    }
    default:
      throw new Error(
        `unknown classifier kind ${JSON.stringify(kind)} (known: ${CLASSIFIER_KINDS.join(", ")})`,
      );
  }
}
