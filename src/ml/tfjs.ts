/**
 * What pith's TensorFlow.js classifiers (mlp.ts, seq.ts) share: the backend choice, input
 * standardisation with missing indicators, and weights captured to and restored from plain JSON
 * without the filesystem (tf.io.withSaveHandler / tf.io.fromMemory).
 *
 * Backend: tfjs-node when it happens to be importable (it cannot be installed here), else the
 * WASM backend loaded offline from the package's own dist/ directory (≈3× faster than CPU for
 * these sizes, shared/DEPENDENCIES.md), else the pure-JS CPU backend.
 */
import { createRequire } from "node:module";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { expectKind } from "./classifier.ts";
import type { Matrix } from "./matrix.ts";

let backendReady: Promise<string> | null = null;

/** Picks and initialises the fastest available backend once per process; returns its name. */
export function initTfBackend(): Promise<string> {
  backendReady ??= (async () => {
    try {
      const nodeBackend = "@tensorflow/tfjs-node";
      await import(nodeBackend);
      if (await tf.setBackend("tensorflow")) return "tensorflow";
    } catch {
      /* not installed: expected here */
    }
    try {
      const wasm = await import("@tensorflow/tfjs-backend-wasm");
      const require = createRequire(import.meta.url);
      wasm.setWasmPaths(
        path.join(path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm/package.json")), "dist") +
          path.sep,
      );
      if (await tf.setBackend("wasm")) return "wasm";
    } catch {
      /* fall through to cpu */
    }
    await tf.setBackend("cpu");
    return "cpu";
  })();
  return backendReady;
}

export interface Scaler {
  mean: number[];
  std: number[];
  /** Columns that get a missing indicator, in order. */
  missingCols: number[];
}

export function fitScaler(M: Matrix, indicators: boolean): Scaler {
  const { nRows, nCols, data } = M;
  const sum = new Float64Array(nCols);
  const sq = new Float64Array(nCols);
  const cnt = new Float64Array(nCols);
  for (let r = 0; r < nRows; r++) {
    for (let c = 0; c < nCols; c++) {
      const v = data[r * nCols + c]!;
      if (v !== v || !Number.isFinite(v)) continue;
      sum[c] = sum[c]! + v;
      sq[c] = sq[c]! + v * v;
      cnt[c] = cnt[c]! + 1;
    }
  }
  const mean = Array.from(sum, (s, c) => (cnt[c]! > 0 ? s / cnt[c]! : 0));
  const std = Array.from(sq, (s, c) => {
    const v = cnt[c]! > 0 ? s / cnt[c]! - mean[c]! ** 2 : 0;
    return v > 1e-12 ? Math.sqrt(v) : 1;
  });
  const missingCols = indicators ? [...cnt.keys()].filter((c) => cnt[c]! < nRows) : [];
  return { mean, std, missingCols };
}

/** Standardised inputs (NaN/±Inf → 0) followed by missing indicators. */
export function transform(M: Matrix, s: Scaler): { z: Float32Array; dim: number } {
  const dim = M.nCols + s.missingCols.length;
  const z = new Float32Array(M.nRows * dim);
  for (let r = 0; r < M.nRows; r++) {
    const o = r * dim;
    for (let c = 0; c < M.nCols; c++) {
      const v = M.data[r * M.nCols + c]!;
      z[o + c] = Number.isFinite(v) ? (v - s.mean[c]!) / s.std[c]! : 0;
    }
    s.missingCols.forEach((c, k) => {
      z[o + M.nCols + k] = M.data[r * M.nCols + c] !== M.data[r * M.nCols + c] ? 1 : 0;
    });
  }
  return { z, dim };
}

export interface SavedWeights {
  modelTopology: unknown;
  weightSpecs: tf.io.WeightsManifestEntry[];
  /** base64 of the concatenated little-endian weight bytes. */
  weightData: string;
}

export async function saveWeights(model: tf.LayersModel): Promise<SavedWeights> {
  let saved: SavedWeights | null = null;
  await model.save(
    tf.io.withSaveHandler(async (a) => {
      const parts =
        a.weightData === undefined ? [] : Array.isArray(a.weightData) ? a.weightData : [a.weightData];
      const bytes = Buffer.concat(parts.map((b) => Buffer.from(b)));
      saved = {
        modelTopology: a.modelTopology,
        weightSpecs: a.weightSpecs ?? [],
        weightData: bytes.toString("base64"),
      };
      return { modelArtifactsInfo: { dateSaved: new Date(0), modelTopologyType: "JSON" } };
    }),
  );
  if (!saved) throw new Error("TensorFlow.js did not hand over the weights");
  return saved;
}

export async function loadWeights(s: SavedWeights): Promise<tf.LayersModel> {
  const buf = Buffer.from(s.weightData, "base64");
  const weightData = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  return tf.loadLayersModel(
    tf.io.fromMemory({ modelTopology: s.modelTopology as object, weightSpecs: s.weightSpecs, weightData }),
  );
}

/** A trained tfjs network and what scores rows with it (mlp.ts, seq.ts). */
export interface TfState {
  model: tf.LayersModel;
  scaler: Scaler;
  nCols: number;
  saved: SavedWeights;
}

/** The serialised form of a tfjs kind: its params, the scaler and the network's weights. */
export interface TfJSON<K extends string, P> {
  kind: K;
  version: 1;
  params: P;
  nCols: number;
  scaler: Scaler;
  weights: SavedWeights;
}

/** A tfjs kind's JSON checked (`kind`, version, scaler shape, weights) and its network loaded; its params as saved. */
export async function loadTfJSON(
  json: unknown,
  kind: string,
): Promise<{ params: Record<string, unknown>; state: TfState }> {
  const j = expectKind(json, kind) as Partial<TfJSON<string, unknown>>;
  const s = j.scaler;
  if (
    j.version !== 1 ||
    !Number.isInteger(j.nCols) ||
    !s ||
    !Array.isArray(s.mean) ||
    !Array.isArray(s.std) ||
    !Array.isArray(s.missingCols) ||
    s.mean.length !== j.nCols ||
    s.std.length !== j.nCols ||
    typeof j.weights?.weightData !== "string"
  ) {
    throw new Error(`serialised ${kind} is malformed`);
  }
  await initTfBackend();
  const state = {
    model: await loadWeights(j.weights),
    scaler: s,
    nCols: j.nCols as number,
    saved: j.weights,
  };
  return { params: (j.params ?? {}) as Record<string, unknown>, state };
}
