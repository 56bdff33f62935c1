/**
 * Notebook (runnable script): feature distributions of main vs noise on wcxb-dev, from the table
 * `pith features` writes. Reads it with arquero — a columnar dataframe in plain JavaScript: no
 * native modules, no tfjs-node (danfojs's Node build needs it), reads CSV directly and can read
 * Arrow later — and writes hand-rolled SVG plots plus a Markdown summary into notebooks/out/.
 *
 *   node bin/pith.js features wcxb-dev --limit 300 --out data/features/wcxb-dev-300.csv
 *   node --import tsx notebooks/feature-distributions.ts [data/features/wcxb-dev-300.csv]
 *
 * Rows: leaf segments with words (the units the labels decide, src/train/labels.ts). Per feature:
 * word-weighted histograms of main and noise over the 1st-99th percentile range, and the
 * univariate AUC (Mann-Whitney, unweighted) as a quick separability ranking.
 */
import * as aq from "arquero";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { featureSchema } from "../src/features/index.ts";

type ColumnTable = Awaited<ReturnType<typeof aq.loadCSV>>;

const INPUT = process.argv[2] ?? "data/features/wcxb-dev-300.csv";
const OUT = "notebooks/out";
/** Histogram bins per feature plot. */
export const BINS = 30;
/** Features plotted (the rest are ranked in the summary only). */
export const PLOTTED = [
  "ctx_anc1_link_density",
  "ctx_anc2_link_density",
  "ctx_anc3_link_density",
  "ctx_anc4_link_density",
  "ctx_anc1_cnr",
  "ctx_anc2_cnr",
  "ctx_anc3_text_share",
  "ctx_anc4_text_share",
  "cnr",
  "cnr_rank",
  "dom_anchor_ratio",
  "txt_words",
  "txt_stop_ratio",
  "txt_words_rel_max_leaf",
  "ctx_pos_text",
  "dom_depth",
  "ctx_same_tag_siblings",
  "txt_avg_word_len",
] as const;
/** Features spanning orders of magnitude are plotted as log10(1 + x). */
const LOG_SCALE: ReadonlySet<string> = new Set(["txt_words", "ctx_anc1_cnr", "ctx_anc2_cnr", "cnr"]);

interface Split {
  main: Float64Array;
  noise: Float64Array;
  mainW: Float64Array;
  noiseW: Float64Array;
}

function split(table: ColumnTable, name: string): Split {
  const v = table.array(name) as ArrayLike<number | null>;
  const y = table.array("main") as ArrayLike<number>;
  const w = table.array("words") as ArrayLike<number>;
  const m: number[] = [],
    n: number[] = [],
    mw: number[] = [],
    nw: number[] = [];
  for (let r = 0; r < v.length; r++) {
    const x = v[r];
    if (x === null || x === undefined || Number.isNaN(x)) continue;
    const t = LOG_SCALE.has(name) ? Math.log10(1 + Math.max(0, x)) : x;
    if (y[r] === 1) (m.push(t), mw.push(w[r] as number));
    else (n.push(t), nw.push(w[r] as number));
  }
  return {
    main: Float64Array.from(m),
    noise: Float64Array.from(n),
    mainW: Float64Array.from(mw),
    noiseW: Float64Array.from(nw),
  };
}

/** Mann-Whitney AUC of main vs noise (ties count half); 0.5 = no signal. */
export function auc(main: Float64Array, noise: Float64Array): number {
  const all = [
    ...Array.from(main, (v) => [v, 1] as const),
    ...Array.from(noise, (v) => [v, 0] as const),
  ].sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  for (let k = 0; k < all.length;) {
    let e = k;
    while (e + 1 < all.length && all[e + 1]![0] === all[k]![0]) e++;
    const mid = (k + e) / 2 + 1;
    for (let t = k; t <= e; t++) if (all[t]![1] === 1) rankSum += mid;
    k = e + 1;
  }
  const nm = main.length,
    nn = noise.length;
  return nm && nn ? (rankSum - (nm * (nm + 1)) / 2) / (nm * nn) : NaN;
}

function quantile(sorted: Float64Array, q: number): number {
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) : NaN;
}

function histogram(values: Float64Array, weights: Float64Array, lo: number, hi: number): number[] {
  const h = new Array<number>(BINS).fill(0);
  let total = 0;
  for (let k = 0; k < values.length; k++) {
    const x = Math.min(hi, Math.max(lo, values[k] as number));
    const b = hi > lo ? Math.min(BINS - 1, Math.floor(((x - lo) / (hi - lo)) * BINS)) : 0;
    h[b] = (h[b] as number) + (weights[k] as number);
    total += weights[k] as number;
  }
  return h.map((c) => (total ? c / total : 0));
}

/** One small-multiple panel: two step histograms (main green, noise red) with axis labels. */
function panel(name: string, s: Split, x0: number, y0: number, w: number, h: number): string {
  const both = Float64Array.from([...s.main, ...s.noise]).sort();
  const lo = quantile(both, 0.01),
    hi = quantile(both, 0.99);
  const hm = histogram(s.main, s.mainW, lo, hi),
    hn = histogram(s.noise, s.noiseW, lo, hi);
  const top = Math.max(...hm, ...hn, 1e-9);
  const step = (hist: number[], color: string): string => {
    let d = `M${x0},${y0 + h}`;
    hist.forEach((c, b) => {
      const y = y0 + h - (c / top) * h;
      d += ` L${x0 + (b / BINS) * w},${y.toFixed(1)} L${x0 + ((b + 1) / BINS) * w},${y.toFixed(1)}`;
    });
    return `<path d="${d} L${x0 + w},${y0 + h}" fill="${color}" fill-opacity="0.25" stroke="${color}" stroke-width="1.2"/>`;
  };
  const fmt = (v: number): string => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));
  const title = LOG_SCALE.has(name) ? `log10(1+${name})` : name;
  return [
    `<rect x="${x0}" y="${y0}" width="${w}" height="${h}" fill="none" stroke="#ccc"/>`,
    step(hn, "#c0392b"),
    step(hm, "#27ae60"),
    `<text x="${x0}" y="${y0 - 6}" font-size="12" font-family="sans-serif">${title} (AUC ${auc(s.main, s.noise).toFixed(3)})</text>`,
    `<text x="${x0}" y="${y0 + h + 13}" font-size="10" font-family="sans-serif">${fmt(lo)}</text>`,
    `<text x="${x0 + w}" y="${y0 + h + 13}" font-size="10" text-anchor="end" font-family="sans-serif">${fmt(hi)}</text>`,
  ].join("\n");
}

async function main(): Promise<void> {
  if (!existsSync(INPUT)) {
    process.stderr.write(
      `no table at ${INPUT}: run \`node bin/pith.js features wcxb-dev --limit 300 --out ${INPUT}\` first\n`,
    );
    process.exit(1);
  }
  const names = featureSchema().names;
  const all = await aq.loadCSV(INPUT, {
    parse: Object.fromEntries(
      [...names, "main", "words", "good_segment", "gold_share"].map((n) => [
        n,
        (s: string) => (s === "" ? NaN : Number(s)),
      ]),
    ),
  });
  // arquero: leaf segments with words, labelled
  const leaves = all.filter(
    aq.escape((d: Record<string, number>) => d["txt_leaf"] === 1 && (d["words"] ?? 0) > 0),
  );
  const byLabel = leaves.groupby("main").rollup({
    rows: aq.op.count(),
    words: aq.op.sum("words"),
    median_link_density: aq.op.median("dom_anchor_ratio"),
    median_anc2_link_density: aq.op.median("ctx_anc2_link_density"),
  });
  mkdirSync(OUT, { recursive: true });
  const cols = 3,
    w = 260,
    h = 120,
    pad = 50;
  const rows = Math.ceil(PLOTTED.length / cols);
  const panels = PLOTTED.map((n, k) =>
    panel(n, split(leaves, n), pad + (k % cols) * (w + pad), pad + Math.floor(k / cols) * (h + pad), w, h),
  );
  const legend = `<text x="${pad}" y="20" font-size="13" font-family="sans-serif">wcxb-dev leaf segments: <tspan fill="#27ae60">main</tspan> vs <tspan fill="#c0392b">noise</tspan>, word-weighted share per bin (1st-99th percentile range)</text>`;
  writeFileSync(
    `${OUT}/feature-distributions.svg`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pad + cols * (w + pad)}" height="${pad + rows * (h + pad)}">\n<rect width="100%" height="100%" fill="white"/>\n${legend}\n${panels.join("\n")}\n</svg>\n`,
  );
  const ranking = names
    .map((n) => ({ n, a: auc(split(leaves, n).main, split(leaves, n).noise) }))
    .filter((x) => !Number.isNaN(x.a))
    .sort((x, y) => Math.abs(y.a - 0.5) - Math.abs(x.a - 0.5));
  const md = [
    `# Feature distributions, wcxb-dev (${INPUT})`,
    "",
    `${all.numRows()} structural rows; ${leaves.numRows()} leaf segments with words.`,
    "",
    byLabel.toMarkdown(),
    "",
    "## Univariate AUC, main vs noise (leaf segments; 0.5 = no signal)",
    "",
    "| feature | AUC |",
    "|---|---|",
    ...ranking.slice(0, 40).map((x) => `| ${x.n} | ${x.a.toFixed(3)} |`),
    "",
    "![distributions](feature-distributions.svg)",
    "",
  ].join("\n");
  writeFileSync(`${OUT}/feature-distributions.md`, md);
  process.stdout.write(
    md.split("\n").slice(0, 40).join("\n") + `\n… wrote ${OUT}/feature-distributions.svg and .md\n`,
  );
}

await main();
