// @ts-nocheck -- session 17 prototype, kept in history only (see docs/learned-pipeline.md, "A sequence model over the leaves").
// Run: PITH_DUMP_CONTEXT=/tmp/dump npm run train:default (exits after the context stage), then
//      [EPOCHS=8] [RESID=1] node --import tsx notebooks/tcn-sequence-prototype.ts /tmp/dump
// Prototype (not project code): a dilated-convolution sequence model over a page's leaves in reading order,
// trained per fold on dumped context-stage inputs, compared with the GBDT context stage's out-of-fold scores.
import { readFileSync } from "node:fs";
import * as tf from "@tensorflow/tfjs";
import { initTfBackend } from "../src/ml/mlp.ts";

const dir = process.argv[2] ?? "/tmp/exp/dump42";
const EPOCHS = Number(process.env.EPOCHS ?? 8);
const C = Number(process.env.C ?? 32);
const DIL = (process.env.DIL ?? "1,2,4,8,16").split(",").map(Number);
const CHUNK = 8192, PAD = 64;
const RESID = process.env.RESID === "1";
const ctxLogit = (k: number) => { const q = Math.min(1 - 1e-6, Math.max(1e-6, aux[k * 6]!)); return Math.log(q / (1 - q)); };
const meta = readFileSync(`${dir}/meta.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const W = meta[0].width as number;
const Xall = new Float32Array(readFileSync(`${dir}/X.f32`).buffer.slice(0));
const aux = new Float32Array(readFileSync(`${dir}/aux.f32`).buffer.slice(0));
const N = aux.length / 6;
console.error(`backend ${await initTfBackend()}; ${meta.length} pages, ${N} leaves, width ${W}`);
let off = 0;
const start = meta.map((m) => { const s = off; off += m.n; return s; });
// signed log, standardise, clip, NaN -> 0
for (let i = 0; i < Xall.length; i++) { const v = Xall[i]!; Xall[i] = Number.isFinite(v) ? Math.sign(v) * Math.log1p(Math.abs(v)) : NaN; }
const mean = new Float64Array(W), sq = new Float64Array(W), cnt = new Float64Array(W);
for (let r = 0; r < N; r++) for (let c = 0; c < W; c++) { const v = Xall[r * W + c]!; if (v === v) { mean[c] += v; sq[c] += v * v; cnt[c]++; } }
for (let c = 0; c < W; c++) { mean[c] = cnt[c] ? mean[c] / cnt[c] : 0; const va = cnt[c] ? sq[c] / cnt[c] - mean[c] ** 2 : 1; sq[c] = va > 1e-12 ? Math.sqrt(va) : 1; }
for (let r = 0; r < N; r++) for (let c = 0; c < W; c++) { const v = Xall[r * W + c]!; Xall[r * W + c] = v === v ? Math.max(-5, Math.min(5, (v - mean[c]) / sq[c])) : 0; }
// weights: share of page words, ambiguous rows out
const y = new Float32Array(N), w = new Float32Array(N);
meta.forEach((m, p) => { let tot = 0; for (let j = 0; j < m.n; j++) tot += aux[(start[p] + j) * 6 + 3]!; for (let j = 0; j < m.n; j++) { const k = start[p] + j; y[k] = aux[k * 6 + 5]!; w[k] = aux[k * 6 + 4]! ? 0 : aux[k * 6 + 3]! / Math.max(1, tot); } });

function chunks(pages: number[]): number[][] {
  const out: number[][] = []; let cur: number[] = []; let len = 0;
  for (const p of pages) { const n = meta[p].n + PAD; if (len + n > CHUNK && cur.length) { out.push(cur); cur = []; len = 0; } cur.push(p); len += n; }
  if (cur.length) out.push(cur);
  return out;
}
function assemble(pages: number[]) {
  const len = pages.reduce((a, p) => a + meta[p].n + PAD, 0);
  const B = new Float32Array(len), X = new Float32Array(len * W), Y = new Float32Array(len), Wt = new Float32Array(len), M = new Float32Array(len), pos: number[] = [];
  let at = 0;
  for (const p of pages) { const n = meta[p].n; X.set(Xall.subarray(start[p] * W, (start[p] + n) * W), at * W); Y.set(y.subarray(start[p], start[p] + n), at); Wt.set(w.subarray(start[p], start[p] + n), at); M.fill(1, at, at + n); for (let j = 0; j < n; j++) B[at + j] = ctxLogit(start[p] + j); pos.push(at); at += n + PAD; }
  return { X, Y, Wt, M, B, len, pos };
}
let seed = 1;
const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
function glorot(a: number, b: number) { const lim = Math.sqrt(6 / (a + b)); return tf.variable(tf.tensor2d(Float32Array.from({ length: a * b }, () => (rnd() * 2 - 1) * lim), [a, b])); }
function shift(h: tf.Tensor2D, d: number): tf.Tensor2D { const n = h.shape[0]; if (d >= n || -d >= n) return tf.zerosLike(h); return d > 0 ? tf.concat([tf.zeros([d, C]), h.slice([0, 0], [n - d, C])]) as tf.Tensor2D : tf.concat([h.slice([-d, 0], [n + d, C]), tf.zeros([-d, C])]) as tf.Tensor2D; }
function model() {
  const W0 = glorot(W, C), b0 = tf.variable(tf.zeros([C]));
  const layers = DIL.map(() => ({ Wd: glorot(3 * C, C), bd: tf.variable(tf.zeros([C])) }));
  const Wo = RESID ? tf.variable(tf.zeros([C, 1])) : glorot(C, 1), bo = tf.variable(tf.zeros([1]));
  const forward = (X: tf.Tensor2D, M: tf.Tensor2D) => {
    let h = tf.relu(tf.add(tf.matMul(X, W0), b0)).mul(M) as tf.Tensor2D;
    DIL.forEach((d, i) => { const l = layers[i]!; const u = tf.concat([shift(h, d), h, shift(h, -d)], 1); h = tf.add(h, tf.relu(tf.add(tf.matMul(u, l.Wd), l.bd)).mul(M)) as tf.Tensor2D; });
    return tf.add(tf.matMul(h, Wo), bo).reshape([-1]) as tf.Tensor1D;
  };
  return { forward, vars: [W0, b0, ...layers.flatMap((l) => [l.Wd, l.bd]), Wo, bo] };
}
const folds = [...new Set(meta.map((m) => m.fold as number))].sort();
const tcn = new Float32Array(N).fill(NaN);
for (const f of folds) {
  const trainPages = meta.map((_, p) => p).filter((p) => meta[p].fold !== f);
  const testPages = meta.map((_, p) => p).filter((p) => meta[p].fold === f);
  const m = model();
  const opt = tf.train.adam(Number(process.env.LR ?? 2e-3));
  const t0 = Date.now();
  for (let e = 0; e < EPOCHS; e++) {
    const order = trainPages.slice(); for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [order[i], order[j]] = [order[j]!, order[i]!]; }
    let lossSum = 0, nb = 0;
    for (const ch of chunks(order)) {
      const a = assemble(ch);
      const loss = opt.minimize(() => tf.tidy(() => {
        const X = tf.tensor2d(a.X, [a.len, W]), M = tf.tensor2d(a.M, [a.len, 1]);
        const logit = RESID ? m.forward(X, M).add(tf.tensor1d(a.B)) : m.forward(X, M);
        const l = tf.losses.sigmoidCrossEntropy(tf.tensor1d(a.Y), logit, tf.tensor1d(a.Wt), 0, tf.Reduction.SUM);
        return l.div(ch.length) as tf.Scalar;
      }), true, m.vars as tf.Variable[]);
      lossSum += (await loss!.data())[0]!; loss!.dispose(); nb++;
    }
    console.error(`fold ${f} epoch ${e + 1}: loss ${(lossSum / nb).toFixed(4)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  for (const ch of chunks(testPages)) {
    const a = assemble(ch);
    const p = tf.tidy(() => { const f = m.forward(tf.tensor2d(a.X, [a.len, W]), tf.tensor2d(a.M, [a.len, 1])); return tf.sigmoid(RESID ? f.add(tf.tensor1d(a.B)) : f); });
    const v = await p.data(); p.dispose();
    ch.forEach((pg, i) => { for (let j = 0; j < meta[pg].n; j++) tcn[start[pg] + j] = v[a.pos[i]! + j]!; });
  }
  m.vars.forEach((v) => v.dispose());
}
// evaluation: estimated page F1 at thresholds tuned per routed type
const grid = Array.from({ length: 33 }, (_, i) => 0.1 + i * 0.025);
function pageF1(p: number, s: Float32Array, t: number) {
  let tp = 0, pred = 0, goldIn = 0;
  for (let j = 0; j < meta[p].n; j++) { const k = start[p] + j; const wd = aux[k * 6 + 3]!; const g = wd * aux[k * 6 + 2]!; goldIn += g; if (s[k]! >= t) { tp += g; pred += wd; } }
  const gold = Math.max(meta[p].goldWords, goldIn);
  if (gold === 0) return pred === 0 ? 1 : 0;
  return pred + gold > 0 ? (2 * tp) / (pred + gold) : 0;
}
function evaluate(name: string, s: Float32Array) {
  const types = [...new Set(meta.map((m) => m.routed as string))];
  const f1 = new Float64Array(meta.length);
  for (const t of types) {
    const pages = meta.map((_, p) => p).filter((p) => meta[p].routed === t);
    let best = -1, bt = 0.5;
    for (const th of grid) { const v = pages.reduce((a, p) => a + pageF1(p, s, th), 0); if (v > best + 1e-9) { best = v; bt = th; } }
    for (const p of pages) f1[p] = pageF1(p, s, bt);
  }
  const groups = new Map<string, number[]>();
  meta.forEach((m, p) => { for (const g of ["all", m.dataset, m.dataset === "wcxb-dev" ? `wcxb/${m.pageType}` : null]) if (g) { const a = groups.get(g) ?? []; a.push(f1[p]!); groups.set(g, a); } });
  console.log(name.padEnd(10), [...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([g, a]) => `${g} ${(a.reduce((x, y) => x + y, 0) / a.length).toFixed(4)}`).join("  "));
}
const ctx = Float32Array.from({ length: N }, (_, k) => aux[k * 6]!);
const s1 = Float32Array.from({ length: N }, (_, k) => aux[k * 6 + 1]!);
const logit = (p: number) => Math.log(Math.max(1e-6, p) / Math.max(1e-6, 1 - p));
const blend = Float32Array.from({ length: N }, (_, k) => 1 / (1 + Math.exp(-(logit(ctx[k]!) + logit(tcn[k]!)) / 2)));
evaluate("stage1", s1); evaluate("context", ctx); evaluate("tcn", tcn); evaluate("blend", blend);
