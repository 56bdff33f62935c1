/**
 * Teach: a per-domain model for one host from its labeled pages, measured and installed.
 * 1. The host's pages' training records (src/train: the feature cache, gold alignment).
 * 2. Held-out word F1 before and after, leave-pages-out: the pages in id order dealt into
 *    min(TEACH_FOLDS, pages) folds; each fold's pages are scored by the model pith uses without a
 *    domain model (before) and by a domain model fitted on the other folds' pages, blended with it
 *    as `pith extract` blends an installed one (after; src/train/domain-experiment.ts fits it).
 *    The pages are seen as the studio's render mode sees them: in chromium mode the snapshot
 *    cache's renders, the ones the training records were computed from.
 * 3. The model itself, trained as `pith train --domain HOST` trains it, written where `pith
 *    extract` finds per-domain models (models/domains/HOST.json, or --model-dir).
 * Runs in a worker thread (teach-worker.ts) so the studio keeps answering while it fits.
 */
import { featureSchema } from "../features/index.ts";
import { saveModel } from "../ml/artifact.ts";
import { DEFAULT_SEED } from "../ml/prng.ts";
import { cachedModel, defaultModelPath, domainKey, domainModelPath } from "../pipeline/model/resolve.ts";
import { BUNDLED_MODEL_DIR } from "../pipeline/model/resolve.ts";
import { DOMAIN_BLEND_WEIGHT, fitDomainModel, scorePages, testPages } from "../train/domain-experiment.ts";
import { trainable } from "../train/label-quality.ts";
import type { PageRecord } from "../train/page-record.ts";
import { domainRecords, loadAll, train } from "../train/train.ts";
import type { RenderMode } from "../types.ts";

/** Leave-pages-out folds of the before/after measurement (fewer with fewer pages). */
export const TEACH_FOLDS = 5;
/** Labeled pages a host needs: one to train on and one to hold out. */
export const MIN_TEACH_PAGES = 2;

export interface TeachRequest {
  /** The dataset folder holding the host's labeled pages. */
  dir: string;
  host: string;
  mode: RenderMode;
  /** The model pith uses without a domain model (--model), else the bundled one. */
  model?: string;
  modelDir?: string;
}

export interface TeachProgress {
  phase: "features" | "held-out" | "final fit";
  done: number;
  total: number;
}

export interface TeachResult {
  host: string;
  pages: number;
  folds: number;
  before: number;
  after: number;
  seconds: number;
  /** The render mode the pages were measured in and the model is for (the studio's --mode). */
  mode: RenderMode;
  /** Where the model was installed. */
  file: string;
}

export class TeachError extends Error {
  override name = "TeachError";
}

/** The host's trainable records, in id order. */
async function hostRecords(
  request: TeachRequest,
  progress: (p: TeachProgress) => void,
): Promise<PageRecord[]> {
  const { records } = await loadAll({
    datasets: [request.dir],
    mode: request.mode,
    workers: 1,
    onPage: (_set, done, total) => progress({ phase: "features", done, total }),
  });
  const mine = domainRecords(records, domainKey(request.host)).filter(trainable);
  if (mine.length < MIN_TEACH_PAGES)
    throw new TeachError(
      `${request.host} has ${mine.length} labeled page(s) that can train; label at least ${MIN_TEACH_PAGES}`,
    );
  return mine.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Mean held-out word F1 before and after (see the header, step 2). */
async function heldOut(
  request: TeachRequest,
  records: PageRecord[],
  progress: (p: TeachProgress) => void,
): Promise<{ before: number; after: number; folds: number }> {
  const baseline = await cachedModel(request.model ?? defaultModelPath(request.mode), request.mode);
  const folds = Math.min(TEACH_FOLDS, records.length);
  const nCols = featureSchema().names.length;
  const dirs = new Map(records.map((r) => [r.dataset, request.dir]));
  let before = 0;
  let after = 0;
  let scored = 0;
  for (let k = 0; k < folds; k++) {
    progress({ phase: "held-out", done: k, total: folds });
    const test = records.filter((_, i) => i % folds === k);
    const fitOn = records.filter((_, i) => i % folds !== k);
    const model = await fitDomainModel(
      fitOn,
      nCols,
      { kind: "gbdt", params: {}, seed: DEFAULT_SEED, perType: false, segment: false, borrow: false },
      request.host,
      request.mode,
    );
    const pages = await testPages(test, dirs, request.mode);
    if (!pages.length) continue;
    before += scorePages(pages, baseline) * pages.length;
    after +=
      scorePages(pages, { ...model, base: { model: baseline, weight: DOMAIN_BLEND_WEIGHT } }) * pages.length;
    scored += pages.length;
  }
  return { before: before / Math.max(1, scored), after: after / Math.max(1, scored), folds };
}

/** Trains, measures and installs the host's model (see the header). */
export async function teach(
  request: TeachRequest,
  progress: (p: TeachProgress) => void,
): Promise<TeachResult> {
  const started = performance.now();
  const records = await hostRecords(request, progress);
  const { before, after, folds } = await heldOut(request, records, progress);
  progress({ phase: "final fit", done: 0, total: 1 });
  const host = domainKey(request.host);
  const result = await train({
    datasets: [request.dir],
    mode: request.mode,
    kind: "gbdt",
    params: {},
    seed: DEFAULT_SEED,
    folds: 0,
    perType: false,
    segment: true,
    genres: [],
    domain: host,
    name: `domain-${host}`,
    workers: 1,
  });
  const file = domainModelPath(request.modelDir ?? BUNDLED_MODEL_DIR, host, request.mode);
  await saveModel(file, result.artifact);
  progress({ phase: "final fit", done: 1, total: 1 });
  return {
    host,
    pages: records.length,
    folds,
    before,
    after,
    seconds: (performance.now() - started) / 1000,
    mode: request.mode,
    file,
  };
}
