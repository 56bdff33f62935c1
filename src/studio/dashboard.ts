/**
 * The Evaluate dashboard's data: the labeled pages' word P/R/F1 under the model in use (the
 * studio's page summaries), their mean F1 per page type, and the feature importances (total gain
 * share, src/ml/classifier.ts rankFeatures) of that model's general content classifier.
 */
import { featureSchema } from "../features/index.ts";
import { rankFeatures, type Classifier, type HasFeatureImportance } from "../ml/classifier.ts";
import { cachedModel, resolveModelFile } from "../pipeline/model/resolve.ts";
import { modelOptions, type ModelFlags } from "./analyze.ts";
import type { PageSummary } from "./studio.ts";

/** Features shown in the importance chart. */
export const TOP_FEATURES = 20;

export interface Dashboard {
  model: string;
  pages: PageSummary[];
  byType: { type: string; pages: number; f1: number }[];
  importance: { name: string; share: number }[];
}

function meanF1ByType(pages: readonly PageSummary[]): Dashboard["byType"] {
  const groups = new Map<string, number[]>();
  for (const p of pages) {
    const type = p.goldType ?? p.routedType ?? "other";
    groups.set(type, [...(groups.get(type) ?? []), p.f1 as number]);
  }
  const all = pages.map((p) => p.f1 as number);
  return [...groups, ["all", all] as [string, number[]]].map(([type, f1s]) => ({
    type,
    pages: f1s.length,
    f1: f1s.reduce((a, b) => a + b, 0) / Math.max(1, f1s.length),
  }));
}

/** The classifier's top features (none for a classifier that cannot rank them: an MLP). */
function importanceOf(classifier: Classifier, names: readonly string[]): Dashboard["importance"] {
  const ranked = classifier as Classifier & Partial<HasFeatureImportance>;
  if (!ranked.featureImportance) return [];
  return rankFeatures(ranked.featureImportance(), names, TOP_FEATURES).map(({ name, share }) => ({
    name,
    share,
  }));
}

export async function dashboard(rows: readonly PageSummary[], flags: ModelFlags): Promise<Dashboard> {
  const file = resolveModelFile(null, flags.mode, modelOptions(flags)).file;
  const model = await cachedModel(file, flags.mode);
  const schema = featureSchema().names;
  const names = model.columns ? Array.from(model.columns, (c) => schema[c] ?? `column ${c}`) : schema;
  const importance = importanceOf(model.general.classifier, names);
  const pages = rows.filter((r) => r.f1 !== null);
  return {
    model: model.name,
    pages,
    byType: meanF1ByType(pages),
    importance,
  };
}
