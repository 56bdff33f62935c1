/**
 * Which model the learned pipeline uses for a page, in order:
 *   1. `--model FILE` (ExtractorContext.model);
 *   2. a per-domain model for the render mode in the model directory (ExtractorContext.modelDir,
 *      default models/) named after the page's host or one of its parent domains:
 *      `<dir>/domains/<host>.json` for static mode, `<dir>/domains/<host>.chromium.json` for
 *      chromium (what `pith train --domain [--mode chromium]` writes), so a site can have one of
 *      each and a static one never blocks a chromium run of its pages;
 *   3. the bundled default for the render mode: models/default-<mode>.json.
 * Loaded models are cached per file, so a batch loads each model once.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RenderMode } from "../../types.ts";
import { BUNDLED_MODEL_DIR, bundledDefaultPath, loadPipelineModel, type PipelineModel } from "./model.ts";

export { BUNDLED_MODEL_DIR };
/** Sub-folder of a model directory holding per-domain models. */
export const DOMAIN_SUBDIR = "domains";

export function defaultModelPath(mode: RenderMode): string {
  return bundledDefaultPath(mode);
}

/**
 * Canonical domain key: lower-case host without "www." or a trailing dot, internationalised
 * names in their ASCII (punycode) form, as a URL's hostname gives them (`bücher.de` →
 * `xn--bcher-kva.de`), so a model trained with `--domain bücher.de` is found for its pages.
 */
export function domainKey(hostOrUrl: string): string {
  let host = hostOrUrl.trim().toLowerCase();
  try {
    if (host.includes("/")) host = new URL(host).hostname;
    else if (/[^\x00-\x7f]/.test(host)) host = new URL(`http://${host}/`).hostname;
  } catch {
    /* keep as given */
  }
  return host.replace(/^www\./, "").replace(/\.$/, "");
}

/** A host name: letters, digits, hyphens and dots, no empty label (so no "..", no path). */
const HOST_NAME = /^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*$/u;

/** The domain key of `domain`, or an Error saying why it names no site (a path, an empty string). */
export function checkedDomain(domain: string): string {
  const d = domainKey(domain);
  if (!HOST_NAME.test(d))
    throw new Error(`"${domain}" is not a domain (expected a host name such as example.com)`);
  return d;
}

export function domainModelPath(dir: string, domain: string, mode: RenderMode = "static"): string {
  return join(dir, DOMAIN_SUBDIR, `${checkedDomain(domain)}${mode === "chromium" ? ".chromium" : ""}.json`);
}

/** The page host and its parent domains, most specific first (a.b.example.com → … → example.com). */
function candidateDomains(url: string | null): string[] {
  if (!url) return [];
  let host: string;
  try {
    host = domainKey(new URL(url).hostname);
  } catch {
    return [];
  }
  const parts = host.split(".");
  const out: string[] = [];
  for (let i = 0; i < parts.length - 1; i++) out.push(parts.slice(i).join("."));
  return out;
}

const cache = new Map<string, Promise<PipelineModel>>();
/** The models of `cache` that have finished loading, for loadedModel. */
const loaded = new Map<string, PipelineModel>();

function cacheKey(file: string, mode: RenderMode): string {
  return `${mode}\u0000${resolve(file)}`;
}

/** Loads (once) the model at `file` for `mode`. */
export function cachedModel(file: string, mode: RenderMode): Promise<PipelineModel> {
  const key = cacheKey(file, mode);
  let m = cache.get(key);
  if (!m) {
    m = loadPipelineModel(file, mode);
    cache.set(key, m);
    m.then(
      (model) => loaded.set(key, model),
      () => cache.delete(key),
    );
  }
  return m;
}

/** Forgets the model loaded from `file` (a per-domain model written again: the next use reads it anew). */
export function forgetModel(file: string, mode: RenderMode): void {
  cache.delete(cacheKey(file, mode));
  loaded.delete(cacheKey(file, mode));
}

/**
 * The model at `file` for `mode` when cachedModel has finished loading it, else undefined: the ml
 * extractor then works without an await (time-limit.ts).
 */
export function loadedModel(file: string, mode: RenderMode): PipelineModel | undefined {
  return loaded.get(cacheKey(file, mode));
}

export interface Resolution {
  file: string;
  /** "explicit", "domain:<domain>" or "default". */
  why: string;
}

/** Picks the model file for a page (see the header for the order). */
export function resolveModelFile(
  url: string | null,
  mode: RenderMode,
  params: { model?: string; modelDir?: string },
): Resolution {
  if (params.model) return { file: params.model, why: "explicit" };
  const dirs = params.modelDir ? [params.modelDir, BUNDLED_MODEL_DIR] : [BUNDLED_MODEL_DIR];
  for (const dir of dirs) {
    for (const d of candidateDomains(url)) {
      let file: string;
      try {
        file = domainModelPath(dir, d, mode);
      } catch {
        continue; // a host no model can be named after (an empty label: "a..b")
      }
      if (existsSync(file)) return { file, why: `domain:${d}` };
    }
  }
  return { file: defaultModelPath(mode), why: "default" };
}
