/**
 * The final model's classifiers keep at least as many boosting rounds as the cross-validation's
 * fold models stopped at, on average (GbdtParams.minEstimators); early stopping on the final
 * fit's own holdout may keep more.
 *
 * Why: every figure in the CV report, the thresholds and the context stage's inputs come from the
 * fold models, while each GBDT of the final fit stops early on its own holdout of 10 % of its
 * sites. For a small page-type model that holdout is a handful of sites and where it stops is
 * noise: a bundled model once had a documentation model of 13 trees (its base rate moved
 * little), so with the documentation threshold tuned on the fold models' scores (0.125) it kept
 * nearly every leaf of a docs page, sidebar included, and on wcxb-dev's documentation pages, its
 * own training pages, the routed pipeline scored well below its general model.
 *
 * Fitting exactly the folds' mean on every row, without early stopping, lost on held-out sites
 * (the large models had stopped later on the final fit's data, at about twice the fold mean),
 * hence a floor, not a count. The floor is level on held-out sites where it does not bite, and it
 * removes the too-early stops of the small models (measured: docs/training.md).
 */
import type { Classifier } from "../ml/classifier.ts";

/** Number of trees of a fitted GBDT (0 for another kind of classifier). */
export function treeCount(clf: Classifier): number {
  const n = (clf as Partial<{ nTrees: number }>).nTrees;
  return typeof n === "number" ? n : 0;
}

/** Per key, the mean tree count over the folds that fitted a classifier of that key (GBDTs only). */
export function meanTrees(perFold: readonly ReadonlyMap<string, Classifier>[]): Record<string, number> {
  const sums = new Map<string, { total: number; n: number }>();
  for (const fold of perFold) {
    for (const [key, clf] of fold) {
      const trees = treeCount(clf);
      if (trees === 0) continue;
      const s = sums.get(key) ?? { total: 0, n: 0 };
      s.total += trees;
      s.n++;
      sums.set(key, s);
    }
  }
  return Object.fromEntries([...sums].map(([key, s]) => [key, Math.max(1, Math.round(s.total / s.n))]));
}

/** "content 73, segment 58, content:article 68": a log line's list. */
export function formatTrees(trees: Readonly<Record<string, number>>): string {
  return Object.entries(trees)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
}
