/**
 * A small multi-layer perceptron with TensorFlow.js (kind "mlp"); backend and weight handling in
 * tfjs.ts.
 *
 * Inputs are standardised with the training mean/std; NaN becomes 0 after standardising
 * and, for columns that had missing values in training, a 0/1 missing-indicator input is
 * appended. Training is a seeded mini-batch Adam loop over a weighted sigmoid
 * cross-entropy (sample × class weights) with L2 on the kernels; init uses seeded Glorot.
 * Weights are captured with tf.io.withSaveHandler and reloaded with tf.io.fromMemory.
 */
import * as tf from "@tensorflow/tfjs";
import { type Classifier, type FitOptions, numParam, resolveWeights } from "./classifier.ts";
import { type MatrixInput, checkShapes, toMatrix } from "./matrix.ts";
import { createRng, DEFAULT_SEED, shuffleInPlace } from "./prng.ts";
import {
  fitScaler,
  initTfBackend,
  loadTfJSON,
  saveWeights,
  transform,
  type TfJSON,
  type TfState,
} from "./tfjs.ts";

export { initTfBackend } from "./tfjs.ts";

export interface MlpParams {
  /** Units of each hidden ReLU layer. Default [64, 32]. */
  hiddenUnits: number[];
  /** Passes over the training rows. Default 20. */
  epochs: number;
  /** Rows per Adam step. Default 256. */
  batchSize: number;
  /** Adam learning rate. Default 1e-3. */
  learningRate: number;
  /** L2 penalty on kernel weights. Default 1e-5. */
  l2: number;
  /** Append missing indicators for columns with NaN in training (1) or not (0). Default 1. */
  missingIndicators: number;
}

export const MLP_DEFAULTS: Readonly<MlpParams> = {
  hiddenUnits: [64, 32],
  epochs: 20,
  batchSize: 256,
  learningRate: 1e-3,
  l2: 1e-5,
  missingIndicators: 1,
};

/** Rows per predict() call, to bound tensor memory. */
const PREDICT_CHUNK_ROWS = 16_384;

function buildModel(dim: number, p: MlpParams, seed: number): tf.Sequential {
  const model = tf.sequential({ name: "pith_mlp" });
  p.hiddenUnits.forEach((units, i) => {
    model.add(
      tf.layers.dense({
        name: `hidden${i}`,
        units,
        activation: "relu",
        ...(i === 0 ? { inputShape: [dim] } : {}),
        kernelInitializer: tf.initializers.glorotUniform({ seed: seed + i }),
        biasInitializer: "zeros",
      }),
    );
  });
  model.add(
    tf.layers.dense({
      name: "logit",
      units: 1,
      ...(p.hiddenUnits.length === 0 ? { inputShape: [dim] } : {}),
      kernelInitializer: tf.initializers.glorotUniform({ seed: seed + p.hiddenUnits.length }),
    }),
  );
  return model;
}

/** The training rows: transformed inputs (`dim` per row), labels and weights (null = 1). */
interface TrainingRows {
  z: Float32Array;
  dim: number;
  y: Uint8Array;
  w: Float32Array | null;
}

/** One epoch of mini-batch Adam over rows in a seeded order; returns the mean batch loss. */
function trainEpoch(
  model: tf.Sequential,
  opt: tf.Optimizer,
  rows: TrainingRows,
  order: Uint32Array,
  p: MlpParams,
): number {
  const { z, dim, y, w } = rows;
  const kernels = model.layers.map((l) => l.getWeights()[0]!);
  let total = 0;
  let batches = 0;
  for (let s = 0; s < order.length; s += p.batchSize) {
    const idx = order.subarray(s, Math.min(order.length, s + p.batchSize));
    const xb = new Float32Array(idx.length * dim);
    const yb = new Float32Array(idx.length);
    const wb = new Float32Array(idx.length);
    idx.forEach((r, i) => {
      xb.set(z.subarray(r * dim, (r + 1) * dim), i * dim);
      yb[i] = y[r]!;
      wb[i] = w ? w[r]! : 1;
    });
    const loss = opt.minimize(() => {
      const logits = model.apply(tf.tensor2d(xb, [idx.length, dim]), { training: true }) as tf.Tensor;
      const ce = tf.losses.sigmoidCrossEntropy(
        tf.tensor2d(yb, [idx.length, 1]),
        logits,
        tf.tensor2d(wb, [idx.length, 1]),
      );
      const reg = tf.addN(kernels.map((k) => tf.sum(tf.square(k)))).mul(p.l2);
      return ce.add(reg) as tf.Scalar;
    }, true);
    if (loss) {
      total += loss.dataSync()[0]!;
      loss.dispose();
    }
    batches++;
  }
  return batches > 0 ? total / batches : 0;
}

export type MlpJSON = TfJSON<"mlp", MlpParams>;

export function mlpParams(params: Record<string, unknown> = {}): MlpParams {
  const hidden = params["hiddenUnits"] ?? MLP_DEFAULTS.hiddenUnits;
  if (!Array.isArray(hidden) || !hidden.every((u) => Number.isInteger(u) && u > 0))
    throw new TypeError("mlp hiddenUnits must be positive integers");
  const out: MlpParams = { ...MLP_DEFAULTS, hiddenUnits: [...(hidden as number[])] };
  for (const k of ["epochs", "batchSize", "learningRate", "l2", "missingIndicators"] as const)
    out[k] = numParam(params, k, MLP_DEFAULTS[k]);
  return out;
}

/** Small MLP (kind "mlp"). fit() is async; call initTfBackend() first to choose the backend explicitly. */
export class MlpClassifier implements Classifier {
  readonly kind = "mlp";
  readonly params: MlpParams;
  private state: TfState | null = null;

  constructor(params: Record<string, unknown> = {}) {
    this.params = mlpParams(params);
  }

  async fit(X: MatrixInput, y: Uint8Array, opts: FitOptions = {}): Promise<void> {
    await initTfBackend();
    const M = toMatrix(X);
    checkShapes(M, y, opts.weights);
    const rng = createRng(opts.seed ?? DEFAULT_SEED);
    const scaler = fitScaler(M, this.params.missingIndicators !== 0);
    const { z, dim } = transform(M, scaler);
    const w = resolveWeights(y, opts);
    const rows: TrainingRows = { z, dim, y, w };
    const model = buildModel(dim, this.params, rng.seed() & 0x7fffffff);
    const opt = tf.train.adam(this.params.learningRate);
    const order = Uint32Array.from({ length: M.nRows }, (_, i) => i);
    for (let e = 0; e < this.params.epochs; e++) {
      trainEpoch(model, opt, rows, shuffleInPlace(order, rng), this.params);
      opts.onProgress?.(e + 1, this.params.epochs);
    }
    opt.dispose();
    this.state?.model.dispose();
    this.state = { model, scaler, nCols: M.nCols, saved: await saveWeights(model) };
  }

  predictProba(X: MatrixInput): Float32Array {
    if (!this.state) throw new Error("mlp is not trained");
    const { model, scaler, nCols } = this.state;
    const M = toMatrix(X);
    if (M.nCols !== nCols) throw new RangeError(`mlp was trained on ${nCols} features, got ${M.nCols}`);
    const { z, dim } = transform(M, scaler);
    const out = new Float32Array(M.nRows);
    for (let s = 0; s < M.nRows; s += PREDICT_CHUNK_ROWS) {
      const n = Math.min(PREDICT_CHUNK_ROWS, M.nRows - s);
      // one batch per chunk: predict()'s default batch of 32 is ~100× slower on WASM
      const p = tf.tidy(() =>
        tf
          .sigmoid(
            model.predict(tf.tensor2d(z.subarray(s * dim, (s + n) * dim), [n, dim]), {
              batchSize: n,
            }) as tf.Tensor,
          )
          .dataSync(),
      );
      out.set(p as Float32Array, s);
    }
    return out;
  }

  toJSON(): MlpJSON {
    if (!this.state) throw new Error("mlp is not trained");
    const { scaler, nCols, saved } = this.state;
    return {
      kind: "mlp",
      version: 1,
      params: { ...this.params, hiddenUnits: [...this.params.hiddenUnits] },
      nCols,
      scaler,
      weights: saved,
    };
  }

  static async fromJSON(json: unknown): Promise<MlpClassifier> {
    const { params, state } = await loadTfJSON(json, "mlp");
    const c = new MlpClassifier(params);
    c.state = state;
    return c;
  }
}
