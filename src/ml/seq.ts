/**
 * A sequence model with TensorFlow.js (kind "seq"): it reads a page's leaf blocks in document
 * order, each with the per-node features the trees get, and labels every block, in the spirit of
 * BoilerNet (Leonhardt et al. 2020) and Web2Text (Vogels et al. 2018), which label a page's text
 * blocks from their neighbours as well as themselves.
 *
 * Architecture: a 1-D convolution over the block sequence. A kernel-1 projection of each block's
 * standardised features (tfjs.ts) to `filters` ReLU units, `convLayers` convolutions of width
 * `kernelSize` ("same" padding) over the projected sequence, and a kernel-1 logit over the
 * projection and the last convolution side by side, so a block's own features reach the output
 * without passing through its neighbours'. Two layers of width 5 see 4 blocks on either side. A
 * bidirectional GRU was the alternative; tfjs runs a recurrent layer one time step at a time in
 * JavaScript, dozens of kernel calls per block, far over the 3 ms/page budget that a convolution
 * (a few calls per page) meets (docs/classifiers.md has the measurement).
 *
 * Variable lengths: training packs pages (cut into pieces of at most `window` blocks) into windows
 * of `window` rows, a gap of padding rows between them, and multiplies every layer's output by a
 * 0/1 mask, so padding rows stay exactly 0 like the zero padding at a page's edges when a page
 * is scored alone; a gap of kernelSize / 2 rows then keeps pages from seeing each other. The
 * loss is the weighted sigmoid cross-entropy (sample × class weights, 0 on padding) plus L2 on
 * the kernels; Adam on mini-batches of `batchWindows` windows in a seeded order, seeded Glorot
 * init, so a fit is deterministic for a seed. Inference runs each page as one sequence.
 */
import * as tf from "@tensorflow/tfjs";
import {
  type Classifier,
  type FitOptions,
  type PredictOptions,
  numParam,
  resolveWeights,
} from "./classifier.ts";
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

export interface SeqParams {
  /** Units of the projection and of each convolution. Default 32. */
  filters: number;
  /** Width of each convolution in blocks (odd). Default 5. */
  kernelSize: number;
  /** Convolutions after the projection. Default 2. */
  convLayers: number;
  /** Rows per training window (longer pages are cut into pieces). Default 512. */
  window: number;
  /** Windows per Adam step. Default 8. */
  batchWindows: number;
  /** Passes over the training pages. Default 6. */
  epochs: number;
  /** Adam learning rate. Default 3e-3. */
  learningRate: number;
  /** L2 penalty on kernel weights. Default 1e-5. */
  l2: number;
  /** Append missing indicators for columns with NaN in training (1) or not (0). Default 1. */
  missingIndicators: number;
}

export const SEQ_DEFAULTS: Readonly<SeqParams> = {
  filters: 32,
  kernelSize: 5,
  convLayers: 2,
  window: 512,
  batchWindows: 8,
  epochs: 6,
  learningRate: 3e-3,
  l2: 1e-5,
  missingIndicators: 1,
};

export function seqParams(params: Record<string, unknown> = {}): SeqParams {
  const out = { ...SEQ_DEFAULTS };
  for (const k of Object.keys(SEQ_DEFAULTS) as (keyof SeqParams)[])
    out[k] = numParam(params, k, SEQ_DEFAULTS[k]);
  const ints: (keyof SeqParams)[] = [
    "filters",
    "kernelSize",
    "convLayers",
    "window",
    "batchWindows",
    "epochs",
  ];
  for (const k of ints)
    if (!Number.isInteger(out[k]) || out[k] < (k === "convLayers" || k === "epochs" ? 0 : 1))
      throw new TypeError(`seq ${k} must be a whole number, got ${out[k]}`);
  if (out.kernelSize % 2 !== 1) throw new TypeError(`seq kernelSize must be odd, got ${out.kernelSize}`);
  return out;
}

/** [start, end) of each run of equal page ids (every row one run when `sequences` is absent). */
export function sequenceRuns(n: number, sequences?: ArrayLike<number>): [number, number][] {
  if (!sequences) return n > 0 ? [[0, n]] : [];
  if (sequences.length !== n) throw new RangeError(`${sequences.length} sequence ids for ${n} rows`);
  const runs: [number, number][] = [];
  let start = 0;
  for (let i = 1; i <= n; i++)
    if (i === n || sequences[i] !== sequences[start]) {
      runs.push([start, i]);
      start = i;
    }
  return runs;
}

/** The functional model: inputs [features, mask], output one logit per block. */
function buildModel(dim: number, p: SeqParams, seed: number): tf.LayersModel {
  const x = tf.input({ shape: [null, dim], name: "blocks" });
  const mask = tf.input({ shape: [null, 1], name: "mask" });
  const init = (i: number) => tf.initializers.glorotUniform({ seed: seed + i });
  const masked = (t: tf.SymbolicTensor, i: number) =>
    tf.layers.multiply({ name: `mask${i}` }).apply([t, mask]) as tf.SymbolicTensor;
  const conv = (t: tf.SymbolicTensor, i: number, kernelSize: number, filters = p.filters) =>
    tf.layers
      .conv1d({
        name: `conv${i}`,
        filters,
        kernelSize,
        padding: "same",
        activation: "relu",
        kernelInitializer: init(i),
      })
      .apply(t) as tf.SymbolicTensor;
  const proj = masked(conv(x, 0, 1), 0);
  let h = proj;
  for (let i = 1; i <= p.convLayers; i++) h = masked(conv(h, i, p.kernelSize), i);
  const both =
    p.convLayers > 0 ? (tf.layers.concatenate({ name: "skip" }).apply([proj, h]) as tf.SymbolicTensor) : h;
  const logit = tf.layers
    .conv1d({ name: "logit", filters: 1, kernelSize: 1, kernelInitializer: init(p.convLayers + 1) })
    .apply(both) as tf.SymbolicTensor;
  return tf.model({ inputs: [x, mask], outputs: logit, name: "pith_seq" });
}

/** Where a piece of a page goes in the packed windows: rows [start, end) at `offset` of window `win`. */
interface Placement {
  win: number;
  offset: number;
  start: number;
  end: number;
}

/**
 * Packs pieces (each at most `window` rows) in the given order into windows of `window` rows,
 * `gap` padding rows between two pieces; returns each piece's placement and the window count.
 */
export function packPieces(
  pieces: readonly [number, number][],
  window: number,
  gap: number,
): { placements: Placement[]; windows: number } {
  const placements: Placement[] = [];
  let win = 0;
  let offset = 0;
  for (const [start, end] of pieces) {
    const at = offset === 0 ? 0 : offset + gap;
    if (at + (end - start) > window) {
      win++;
      offset = 0;
      placements.push({ win, offset: 0, start, end });
      offset = end - start;
    } else {
      placements.push({ win, offset: at, start, end });
      offset = at + (end - start);
    }
  }
  return { placements, windows: pieces.length ? win + 1 : 0 };
}

/** Pieces of at most `window` rows of every page run. */
function piecesOf(runs: readonly [number, number][], window: number): [number, number][] {
  const out: [number, number][] = [];
  for (const [s, e] of runs) for (let a = s; a < e; a += window) out.push([a, Math.min(e, a + window)]);
  return out;
}

/** The training rows: transformed inputs (`dim` per row), labels and weights (null = 1). */
interface TrainingRows {
  z: Float32Array;
  dim: number;
  y: Uint8Array;
  w: Float32Array | null;
}

/** Dense batch tensors' data for the windows [first, first + count) of a packing. */
function batchData(
  rows: TrainingRows,
  placed: readonly Placement[],
  first: number,
  count: number,
  window: number,
): { x: Float32Array; m: Float32Array; y: Float32Array; w: Float32Array } {
  const { z, dim } = rows;
  const x = new Float32Array(count * window * dim);
  const m = new Float32Array(count * window);
  const y = new Float32Array(count * window);
  const w = new Float32Array(count * window);
  for (const p of placed) {
    if (p.win < first || p.win >= first + count) continue;
    const base = (p.win - first) * window + p.offset;
    x.set(z.subarray(p.start * dim, p.end * dim), base * dim);
    for (let r = p.start; r < p.end; r++) {
      m[base + r - p.start] = 1;
      y[base + r - p.start] = rows.y[r]!;
      w[base + r - p.start] = rows.w ? rows.w[r]! : 1;
    }
  }
  return { x, m, y, w };
}

/**
 * Column k·F + f of the result holds feature f of the row k − (kernelSize − 1) / 2 away, zero
 * past the edges: a convolution of width kernelSize is then one matMul with the conv1d kernel
 * [kernelSize, F, out] reshaped to [kernelSize · F, out] (row-major, so the same numbers).
 */
function im2col(h: tf.Tensor3D, kernelSize: number): tf.Tensor3D {
  const [b, l, f] = h.shape;
  const r = (kernelSize - 1) / 2;
  const padded = tf.pad(h, [
    [0, 0],
    [r, r],
    [0, 0],
  ]);
  const cols = Array.from({ length: kernelSize }, (_, j) => tf.slice(padded, [0, j, 0], [b, l, f]));
  return tf.concat(cols, 2);
}

/** A conv1d layer's kernel (as [width · in, out]) and bias, the variables Adam updates. */
function convVariables(model: tf.LayersModel, name: string): { kernel: tf.Tensor2D; bias: tf.Tensor1D } {
  const [kernel, bias] = model.getLayer(name).trainableWeights.map((w) => w.read());
  const [k, fin, fout] = kernel!.shape as [number, number, number];
  return { kernel: kernel!.reshape([k * fin, fout]), bias: bias as tf.Tensor1D };
}

/**
 * The model's forward pass in ops that have gradients on the WASM backend (it has no
 * Conv2DBackpropFilter, so conv1d cannot train there): each convolution is im2col + matMul on
 * the layers' own variables, so the trained weights are the layers model's and inference runs
 * its conv1d. Same logits as model.predict (test/ml-seq.test.ts).
 */
function trainingLogits(model: tf.LayersModel, x: tf.Tensor3D, mask: tf.Tensor3D, p: SeqParams): tf.Tensor3D {
  const [b, l] = x.shape;
  const dense = (h: tf.Tensor3D, name: string, relu: boolean): tf.Tensor3D => {
    const { kernel, bias } = convVariables(model, name);
    const flat = tf.matMul(h.reshape([b * l, h.shape[2]]), kernel).add(bias);
    const out = (relu ? tf.relu(flat) : flat).reshape([b, l, kernel.shape[1]]) as tf.Tensor3D;
    return relu ? (out.mul(mask) as tf.Tensor3D) : out;
  };
  const proj = dense(x, "conv0", true);
  let h = proj;
  for (let i = 1; i <= p.convLayers; i++) h = dense(im2col(h, p.kernelSize), `conv${i}`, true);
  return dense(p.convLayers > 0 ? tf.concat([proj, h], 2) : h, "logit", false);
}

/**
 * The forward pass of one page for inference: tf.conv1d on the layers' weights, without the
 * mask (a page alone has none) or the layers model's predict() machinery, which cost about 3×
 * the convolutions themselves on a 300-block page (docs/classifiers.md).
 */
function pageLogits(model: tf.LayersModel, x: tf.Tensor3D, p: SeqParams): tf.Tensor3D {
  const conv = (h: tf.Tensor3D, name: string, relu: boolean): tf.Tensor3D => {
    const [kernel, bias] = model.getLayer(name).getWeights() as [tf.Tensor3D, tf.Tensor1D];
    const out = tf.conv1d(h, kernel, 1, "same").add(bias) as tf.Tensor3D;
    return relu ? tf.relu(out) : out;
  };
  const proj = conv(x, "conv0", true);
  let h = proj;
  for (let i = 1; i <= p.convLayers; i++) h = conv(h, `conv${i}`, true);
  return conv(p.convLayers > 0 ? tf.concat([proj, h], 2) : h, "logit", false);
}

/** One epoch of Adam over the packed windows in batches of p.batchWindows. */
function trainEpoch(
  model: tf.LayersModel,
  opt: tf.Optimizer,
  rows: TrainingRows,
  packing: { placements: Placement[]; windows: number },
  p: SeqParams,
): void {
  const kernels = model.layers.filter((l) => l.name.startsWith("conv") || l.name === "logit");
  const vars = model.trainableWeights.map((w) => w.read() as tf.Variable);
  for (let first = 0; first < packing.windows; first += p.batchWindows) {
    const count = Math.min(p.batchWindows, packing.windows - first);
    const b = batchData(rows, packing.placements, first, count, p.window);
    const shape: [number, number, number] = [count, p.window, 1];
    const loss = opt.minimize(
      () => {
        const x = tf.tensor3d(b.x, [count, p.window, rows.dim]);
        const logits = trainingLogits(model, x, tf.tensor3d(b.m, shape), p);
        const ce = tf.losses.sigmoidCrossEntropy(tf.tensor3d(b.y, shape), logits, tf.tensor3d(b.w, shape));
        const reg = tf.addN(kernels.map((k) => tf.sum(tf.square(k.getWeights()[0]!)))).mul(p.l2);
        return ce.add(reg) as tf.Scalar;
      },
      true,
      vars,
    );
    loss?.dispose();
  }
}

export type SeqJSON = TfJSON<"seq", SeqParams>;

/** The 1-D convolution over a page's leaf blocks (kind "seq"; see the header). */
export class SequenceClassifier implements Classifier {
  readonly kind = "seq";
  readonly params: SeqParams;
  private state: TfState | null = null;

  constructor(params: Record<string, unknown> = {}) {
    this.params = seqParams(params);
  }

  async fit(X: MatrixInput, y: Uint8Array, opts: FitOptions = {}): Promise<void> {
    await initTfBackend();
    const M = toMatrix(X);
    checkShapes(M, y, opts.weights);
    const p = this.params;
    const rng = createRng(opts.seed ?? DEFAULT_SEED);
    const scaler = fitScaler(M, p.missingIndicators !== 0);
    const { z, dim } = transform(M, scaler);
    const rows: TrainingRows = { z, dim, y, w: resolveWeights(y, opts) };
    const model = buildModel(dim, p, rng.seed() & 0x7fffffff);
    const opt = tf.train.adam(p.learningRate);
    const pieces = piecesOf(sequenceRuns(M.nRows, opts.sequences), p.window);
    const order = Uint32Array.from(pieces.keys());
    for (let e = 0; e < p.epochs; e++) {
      shuffleInPlace(order, rng);
      const packing = packPieces(
        Array.from(order, (i) => pieces[i]!),
        p.window,
        (p.kernelSize - 1) / 2,
      );
      trainEpoch(model, opt, rows, packing, p);
      opts.onProgress?.(e + 1, p.epochs);
    }
    opt.dispose();
    this.state?.model.dispose();
    this.state = { model, scaler, nCols: M.nCols, saved: await saveWeights(model) };
  }

  predictProba(X: MatrixInput, opts: PredictOptions = {}): Float32Array {
    if (!this.state) throw new Error("seq is not trained");
    const { model, scaler, nCols } = this.state;
    const M = toMatrix(X);
    if (M.nCols !== nCols) throw new RangeError(`seq was trained on ${nCols} features, got ${M.nCols}`);
    const { z, dim } = transform(M, scaler);
    const out = new Float32Array(M.nRows);
    for (const [s, e] of sequenceRuns(M.nRows, opts.sequences)) {
      const n = e - s;
      const p = tf.tidy(() => {
        const x = tf.tensor3d(z.subarray(s * dim, e * dim), [1, n, dim]);
        return tf.sigmoid(pageLogits(model, x, this.params)).dataSync();
      });
      out.set(p as Float32Array, s);
    }
    return out;
  }

  toJSON(): SeqJSON {
    if (!this.state) throw new Error("seq is not trained");
    const { scaler, nCols, saved } = this.state;
    return { kind: "seq", version: 1, params: { ...this.params }, nCols, scaler, weights: saved };
  }

  static async fromJSON(json: unknown): Promise<SequenceClassifier> {
    const { params, state } = await loadTfJSON(json, "seq");
    const c = new SequenceClassifier(params);
    c.state = state;
    return c;
  }
}
