/**
 * Fold models kept on disk for the scripts that measure a change after the classifiers without
 * retraining (cv-rules.ts, cv-auto.ts): the cross-validation writes each fold's model into a
 * temporary folder just before it evaluates them (which its log says); saveFoldModels copies them
 * out then and stops it, and loadFoldModel reads one back against its own feature schema.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseModel } from "../src/ml/artifact.ts";
import { pipelineFromArtifact, type PipelineModel } from "../src/pipeline/model/model.ts";
import { crossValidate, type CvOptions } from "../src/train/cv.ts";
import type { PageRecord } from "../src/train/page-record.ts";
import { defaultWorkers, WorkerPool } from "../src/train/pool.ts";
import type { RenderMode } from "../src/types.ts";

/** Thrown once the fold models are saved: the cross-validation's own evaluation is not needed. */
class FoldsSaved extends Error {}

/**
 * Fits the fold models of `options` (its config without a pool: one is made here) and copies them
 * into `dir` as fold-<k>.json.
 */
export async function saveFoldModels(
  records: PageRecord[],
  options: Omit<CvOptions, "log">,
  dir: string,
  log: (s: string) => void,
): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "pith-folds-"));
  const before = process.env["TMPDIR"];
  process.env["TMPDIR"] = tmp; // cv.ts makes its fold folder under os.tmpdir()
  const pool = new WorkerPool(defaultWorkers());
  try {
    await crossValidate(records, {
      ...options,
      config: { ...options.config, pool },
      log: (s) => {
        log(s);
        if (!s.startsWith("evaluating")) return;
        for (const d of readdirSync(tmp).filter((name) => name.startsWith("pith-cv-")))
          for (const f of readdirSync(join(tmp, d)).filter((name) => /^fold-\d+\.json$/.test(name)))
            cpSync(join(tmp, d, f), join(dir, f));
        throw new FoldsSaved();
      },
    });
  } catch (e) {
    if (!(e instanceof FoldsSaved)) throw e;
  } finally {
    await pool.close();
    rmSync(tmp, { recursive: true, force: true });
    if (before === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = before;
  }
}

/** Fold `f`'s model from `dir`, loaded against its own recorded schema (it is applied to cached tables of that schema). */
export async function loadFoldModel(dir: string, f: number, mode: RenderMode): Promise<PipelineModel> {
  const file = join(dir, `fold-${f}.json`);
  const text = readFileSync(file, "utf8");
  const own = JSON.parse(text) as { featureSchema: { hash: string } };
  return pipelineFromArtifact(parseModel(text, file, { schemaHash: own.featureSchema.hash, mode }), file);
}
