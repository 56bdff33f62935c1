/**
 * The mean of several classifiers' P(class 1) (kind "mean"): soft voting, the simplest ensemble
 * (Kittler et al. 1998, "On combining classifiers": the mean rule). `npm run compare:models`
 * measures the mean of a GBDT and the sequence model (src/train/compare.ts). Each member reads the
 * same rows and options; a sequence member reads `sequences`, the row classifiers ignore it.
 * Reloaded by kinds.ts (loadClassifier), which rebuilds the members.
 */
import type { Classifier, FitOptions, PredictOptions } from "./classifier.ts";
import type { MatrixInput } from "./matrix.ts";

export interface MeanJSON {
  kind: "mean";
  /** The members' feature count (every stored classifier states it: ml/artifact.ts checks it). */
  nCols: unknown;
  members: unknown[];
}

export class MeanClassifier implements Classifier {
  readonly kind = "mean";

  constructor(readonly members: readonly Classifier[]) {
    if (!members.length) throw new RangeError("a mean of no classifiers");
  }

  /** Fits every member in turn on the same rows. */
  async fit(X: MatrixInput, y: Uint8Array, opts: FitOptions = {}): Promise<void> {
    for (const m of this.members) await m.fit(X, y, opts);
  }

  predictProba(X: MatrixInput, opts: PredictOptions = {}): Float32Array {
    const [first, ...rest] = this.members.map((m) => m.predictProba(X, opts));
    const out = Float32Array.from(first as Float32Array);
    for (const p of rest) for (let i = 0; i < out.length; i++) out[i]! += p[i] as number;
    for (let i = 0; i < out.length; i++) out[i]! /= this.members.length;
    return out;
  }

  toJSON(): MeanJSON {
    const members = this.members.map((m) => m.toJSON());
    return { kind: "mean", nCols: (members[0] as { nCols?: unknown }).nCols, members };
  }
}
