/**
 * The per-domain learning experiment of the issue: for every publisher (domain) of a set with at
 * least 1.5·N labeled pages (MIN_PAGES_FACTOR), fit a per-domain model on N of its pages (every
 * other page in id order, so both halves span the set's time slices) and score it, beside a
 * baseline model, on up to N other pages of the domain. Reports word F1
 * of both, the lift, and the training time.
 */
import { featureSchema } from "../features/index.ts";
import { loadPipelineModel, pipelineFromArtifact, type PipelineModel } from "../pipeline/model/model.ts";
import { runPipeline } from "../pipeline/run.ts";
import { readDatasetPage, readGold, loadDataset, type Dataset } from "../io/dataset.ts";
import { staticSnapshot } from "../render/static.ts";
import type { PageSnapshot, RenderMode } from "../types.ts";
import { pipelineArtifact } from "./artifact.ts";
import { readCachedSnapshot } from "./snapshot-cache.ts";
import { fitPipeline, type FitConfig } from "./fit.ts";
import type { PageRecord } from "./page-record.ts";
import { meanScore, wordF1 } from "./score.ts";
import { DEFAULT_THRESHOLD } from "../pipeline/model/model.ts";

export interface DomainResult {
  domain: string;
  trainPages: number;
  testPages: number;
  seconds: number;
  baseline: number;
  domainModel: number;
  /** Domain model blended with the baseline (DOMAIN_BLEND_WEIGHT). */
  blended: number;
  /** Blend weight → word F1, for every weight in BLEND_WEIGHTS_TRIED. */
  byWeight: Record<string, number>;
}

/** Blend weights the experiment also reports, so the shipped one can be chosen on numbers. */
export const BLEND_WEIGHTS_TRIED = [0.3, 0.5, 0.7, 0.85] as const;

/** Weight of the per-domain model when blended with the default (PipelineExtra.base). */
export const DOMAIN_BLEND_WEIGHT = 0.5;
/** A domain takes part with at least this many times N pages (N to train, the rest, up to N, to test). */
export const MIN_PAGES_FACTOR = 1.5;

/** Every publisher's pages: sub-domains folded into their registrable parent when that has pages. */
function byPublisher(records: readonly PageRecord[]): Map<string, PageRecord[]> {
  const sites = [...new Set(records.map((r) => r.site))];
  const parentOf = (s: string): string => sites.find((p) => p !== s && s.endsWith(`.${p}`)) ?? s;
  const groups = new Map<string, PageRecord[]>();
  for (const r of records) {
    const k = parentOf(r.site);
    const list = groups.get(k) ?? [];
    list.push(r);
    groups.set(k, list);
  }
  return groups;
}

/** Publishers with ≥ MIN_PAGES_FACTOR·n pages (byPublisher), by name. */
export function publishers(records: readonly PageRecord[], n: number): Map<string, PageRecord[]> {
  return new Map(
    [...byPublisher(records)]
      .filter(([, l]) => l.length >= MIN_PAGES_FACTOR * n)
      .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  );
}

/**
 * The `k` publishers with most pages and their page counts, most first (pages without a domain are
 * no publisher: src/train/sites.ts).
 */
export function largestPublishers(records: readonly PageRecord[], k: number): [string, number][] {
  return [...byPublisher(records)]
    .filter(([d]) => !d.startsWith("page:"))
    .map(([d, l]): [string, number] => [d, l.length])
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, k);
}

/**
 * A per-domain model fitted on `train` as the experiment fits it (one general content model, no
 * segment model, the default threshold), ready to run on snapshots of `mode` (static ones read
 * markup-hidden text: src/pipeline/hidden-text.ts); blend it with a baseline through `base`.
 */
export async function fitDomainModel(
  train: readonly PageRecord[],
  nCols: number,
  config: FitConfig,
  domain: string,
  mode: RenderMode = "static",
): Promise<PipelineModel> {
  const fitted = await fitPipeline(train, nCols, { ...config, perType: false, segment: false });
  const art = pipelineArtifact({
    kind: `domain:${domain}`,
    name: `domain-${domain}`,
    mode,
    fitted,
    thresholds: { general: DEFAULT_THRESHOLD },
    refiners: {},
    trainingSets: [],
    hyperParameters: {},
    metrics: {},
  });
  return pipelineFromArtifact(art, domain);
}

export interface TestPage {
  snap: PageSnapshot;
  gold: string;
}

/**
 * The records' pages with their gold, each dataset read once: rendered statically, or in chromium
 * mode read from the snapshot cache the records were computed from (src/train/snapshot-cache.ts;
 * a page without a cached render is left out, as training leaves it out).
 */
export async function testPages(
  records: readonly PageRecord[],
  dirs: Map<string, string>,
  mode: RenderMode = "static",
): Promise<TestPage[]> {
  const sets = new Map<string, Dataset>();
  const out: TestPage[] = [];
  for (const r of records) {
    const dir = dirs.get(r.dataset) ?? r.dataset;
    let ds = sets.get(dir);
    if (!ds) sets.set(dir, (ds = loadDataset(dir)));
    const page = ds.pages.find((p) => p.id === r.id);
    if (!page) continue;
    const snap =
      mode === "chromium"
        ? await readCachedSnapshot(ds, page.id)
        : staticSnapshot(await readDatasetPage(ds, page));
    if (snap) out.push({ snap, gold: (await readGold(ds, page)) ?? "" });
  }
  return out;
}

/** Mean word F1 of `model` over the pages. */
export function scorePages(pages: readonly TestPage[], model: PipelineModel): number {
  return meanScore(
    pages.map((p) => wordF1(runPipeline(model, p.snap, { trace: false }).extraction.text, p.gold)),
  ).f1;
}

/** Runs the experiment (see the header). */
export async function domainExperiment(
  records: PageRecord[],
  dirs: Map<string, string>,
  n: number,
  baselineFile: string,
  config: FitConfig,
  log: (s: string) => void,
): Promise<DomainResult[]> {
  const baseline = await loadPipelineModel(baselineFile, "static");
  const nCols = featureSchema().names.length;
  const out: DomainResult[] = [];
  for (const [domain, pages] of publishers(records, n)) {
    const sorted = [...pages].sort((a, b) => (a.id < b.id ? -1 : 1));
    const train = sorted.filter((_, i) => i % 2 === 0).slice(0, n);
    const taken = new Set(train);
    const test = sorted.filter((r) => !taken.has(r)).slice(0, n);
    const t0 = performance.now();
    const model = await fitDomainModel(train, nCols, config, domain);
    const seconds = (performance.now() - t0) / 1000;
    const rendered = await testPages(test, dirs); // rendered once, scored by every model below
    const base = scorePages(rendered, baseline);
    const mine = scorePages(rendered, model);
    const byWeight: Record<string, number> = {};
    for (const weight of BLEND_WEIGHTS_TRIED)
      byWeight[String(weight)] = scorePages(rendered, { ...model, base: { model: baseline, weight } });
    const blended = byWeight[String(DOMAIN_BLEND_WEIGHT)] as number;
    log(
      `${domain}: baseline ${base.toFixed(3)} → domain model ${mine.toFixed(3)}, blended ${blended.toFixed(3)} ` +
        `(${seconds.toFixed(1)} s to train on ${train.length} pages); by blend weight ${JSON.stringify(byWeight)}`,
    );
    out.push({
      domain,
      trainPages: train.length,
      testPages: test.length,
      seconds,
      baseline: base,
      domainModel: mine,
      blended,
      byWeight,
    });
  }
  const means = BLEND_WEIGHTS_TRIED.map((w) => {
    const lift = out.reduce((a, r) => a + (r.byWeight[String(w)] as number) - r.baseline, 0);
    return `${w}: ${(lift / Math.max(1, out.length)).toFixed(3)}`;
  });
  log(`mean lift over the baseline by blend weight (domain model's share): ${means.join(", ")}`);
  return out;
}
