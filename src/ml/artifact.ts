/**
 * Versioned model artifacts: the JSON files in models/ that `pith train` writes and
 * `pith extract` loads. An artifact names its feature schema (names + hash), render mode,
 * training sets with their licenses, hyper-parameters, cross-validated metrics and one or
 * more named classifiers (their toJSON()). Loading refuses a missing or corrupt file, a
 * foreign format, a newer format version, a feature-schema mismatch or a render-mode
 * mismatch with a single-line ModelLoadError that says how to fix it.
 *
 * Determinism: no timestamp unless the caller sets createdAt; keys are written in a fixed
 * order, so retraining with the same data and seed gives a byte-identical file.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { writeAtomic } from "../io/write-atomic.ts";
import type { RenderMode } from "../types.ts";
import type { Classifier } from "./classifier.ts";
import { loadClassifier } from "./kinds.ts";

export const MODEL_FORMAT = "pith-model";
/**
 * Bump when the artifact layout changes incompatibly; loadModel refuses newer versions.
 * 2: pipeline models may carry a context stage whose thresholds replace the content
 * classifiers' (a reader of version 1 would ignore it and cut at the wrong thresholds).
 */
export const MODEL_FORMAT_VERSION = 2;
/** Hex digits of a hash shown in error messages. */
const HASH_SHOWN = 12;

export interface TrainingSet {
  name: string;
  license: string;
}

export interface ModelArtifact {
  format: typeof MODEL_FORMAT;
  formatVersion: number;
  /** What the model is for, e.g. "content", "segment", "page-type", "domain:example.com". */
  kind: string;
  createdAt?: string;
  featureSchema: { names: string[]; hash: string };
  mode: RenderMode;
  trainingSets: TrainingSet[];
  hyperParameters: Record<string, unknown>;
  metrics: Record<string, unknown>;
  /** Named classifiers, each a Classifier.toJSON(). */
  classifiers: Record<string, unknown>;
  extra?: unknown;
}

export type ArtifactFields = Omit<ModelArtifact, "format" | "formatVersion">;

export class ModelLoadError extends Error {
  override name = "ModelLoadError";
  constructor(
    readonly source: string,
    message: string,
  ) {
    super(message);
  }
}

/** sha256 (hex) of the feature names in order: a default schema hash for callers without one. */
export function hashFeatureNames(names: readonly string[]): string {
  return createHash("sha256").update(names.join("\n")).digest("hex");
}

/** An artifact with format fields filled in and keys in canonical order. */
export function createArtifact(f: ArtifactFields): ModelArtifact {
  return {
    format: MODEL_FORMAT,
    formatVersion: MODEL_FORMAT_VERSION,
    kind: f.kind,
    ...(f.createdAt !== undefined ? { createdAt: f.createdAt } : {}),
    featureSchema: { names: [...f.featureSchema.names], hash: f.featureSchema.hash },
    mode: f.mode,
    trainingSets: f.trainingSets.map((t) => ({ name: t.name, license: t.license })),
    hyperParameters: f.hyperParameters,
    metrics: f.metrics,
    classifiers: f.classifiers,
    ...(f.extra !== undefined ? { extra: f.extra } : {}),
  };
}

/** Top-level keys pretty-printed for diffs; the bulky ones (trees, weights) on one line each. */
const COMPACT_KEYS = new Set(["classifiers", "extra"]);

export function serializeModel(a: ModelArtifact): string {
  const lines = Object.entries(a).map(
    ([k, v]) =>
      `  ${JSON.stringify(k)}: ${
        COMPACT_KEYS.has(k) ? JSON.stringify(v) : JSON.stringify(v, null, 2).replace(/\n/g, "\n  ")
      }`,
  );
  return `{\n${lines.join(",\n")}\n}\n`;
}

/** Writes the artifact atomically (temp file + rename), creating the directory. */
export async function saveModel(file: string, artifact: ModelArtifact): Promise<void> {
  await writeAtomic(file, serializeModel(artifact));
}

export interface ModelExpectation {
  schemaHash: string;
  mode: RenderMode;
}

function short(h: string): string {
  return h.length > HASH_SHOWN ? `${h.slice(0, HASH_SHOWN)}…` : h;
}

/** Checks the shape of a parsed artifact; returns the first problem or null. */
function shapeProblem(a: Record<string, unknown>): string | null {
  const schema = a["featureSchema"] as { names?: unknown; hash?: unknown } | undefined;
  if (typeof a["kind"] !== "string") return "no kind";
  if (!schema || !Array.isArray(schema.names) || !schema.names.every((n) => typeof n === "string"))
    return "no featureSchema.names";
  if (typeof schema.hash !== "string" || schema.hash === "") return "no featureSchema.hash";
  if (a["mode"] !== "chromium" && a["mode"] !== "static") return `unknown mode ${JSON.stringify(a["mode"])}`;
  if (!Array.isArray(a["trainingSets"])) return "no trainingSets";
  for (const k of ["hyperParameters", "metrics", "classifiers"]) {
    if (typeof a[k] !== "object" || a[k] === null || Array.isArray(a[k])) return `no ${k}`;
  }
  return null;
}

/** Parses and validates artifact text; `source` names it in errors. Throws ModelLoadError. */
export function parseModel(text: string, source: string, expected: ModelExpectation): ModelArtifact {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ModelLoadError(
      source,
      `model ${source} is corrupt (not valid JSON: ${(e as Error).message.split("\n")[0]}); ` +
        `restore it or retrain it with \`pith train\``,
    );
  }
  return checkModel(json, source, expected);
}

/** Validates a parsed artifact (parseModel's checks after JSON.parse). Throws ModelLoadError. */
export function checkModel(json: unknown, source: string, expected: ModelExpectation): ModelArtifact {
  const a = (typeof json === "object" && json !== null && !Array.isArray(json) ? json : {}) as Record<
    string,
    unknown
  >;
  if (a["format"] !== MODEL_FORMAT)
    throw new ModelLoadError(
      source,
      `${source} is not a pith model (format ${JSON.stringify(a["format"] ?? null)}, expected "${MODEL_FORMAT}")`,
    );
  const v = a["formatVersion"];
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1)
    throw new ModelLoadError(
      source,
      `model ${source} is corrupt (formatVersion ${JSON.stringify(v ?? null)})`,
    );
  if (v > MODEL_FORMAT_VERSION)
    throw new ModelLoadError(
      source,
      `model ${source} has format version ${v} but this pith reads up to ${MODEL_FORMAT_VERSION}; ` +
        `upgrade pith or retrain it with \`pith train\``,
    );
  const problem = shapeProblem(a);
  if (problem)
    throw new ModelLoadError(
      source,
      `model ${source} is corrupt (${problem}); restore it or retrain it with \`pith train\``,
    );
  const art = a as unknown as ModelArtifact;
  if (art.featureSchema.hash !== expected.schemaHash) {
    throw new ModelLoadError(
      source,
      `model ${source} was trained on feature schema ${short(art.featureSchema.hash)} ` +
        `but this pith computes ${short(expected.schemaHash)}; retrain it with \`pith train\``,
    );
  }
  if (art.mode !== expected.mode) {
    throw new ModelLoadError(
      source,
      `model ${source} was trained for ${art.mode} mode but pith is running in ${expected.mode} mode; ` +
        `use --mode ${art.mode} or retrain it with \`pith train --mode ${expected.mode}\``,
    );
  }
  return art;
}

/** Reads, parses and validates a model file. Throws ModelLoadError (one line) on any problem. */
export async function loadModel(file: string, expected: ModelExpectation): Promise<ModelArtifact> {
  return parseModel(await readModelText(file), file, expected);
}

/** A model file's text; a missing or unreadable file is a one-line ModelLoadError. */
export async function readModelText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ModelLoadError(
      file,
      code === "ENOENT"
        ? `model ${file} not found`
        : `cannot read model ${file} (${code ?? (e as Error).message})`,
    );
  }
}

/**
 * Rebuilds the artifact's classifier `name`; a missing or malformed one is a ModelLoadError.
 * `extraCols`: columns the classifier reads before the schema's (a stacked stage's own inputs).
 */
export async function artifactClassifier(
  artifact: ModelArtifact,
  name: string,
  source = artifact.kind,
  extraCols = 0,
): Promise<Classifier> {
  const json = artifact.classifiers[name];
  if (json === undefined) {
    throw new ModelLoadError(
      source,
      `model ${source} has no classifier "${name}" (it has: ${Object.keys(artifact.classifiers).join(", ") || "none"})`,
    );
  }
  const nCols = (json as { nCols?: unknown } | null)?.nCols;
  if (nCols !== artifact.featureSchema.names.length + extraCols) {
    throw new ModelLoadError(
      source,
      `model ${source} is corrupt (classifier "${name}" reads ${String(nCols)} features, ` +
        `the schema has ${artifact.featureSchema.names.length}${extraCols ? ` + ${extraCols}` : ""})`,
    );
  }
  try {
    return await loadClassifier(json);
  } catch (e) {
    throw new ModelLoadError(
      source,
      `model ${source} is corrupt (classifier "${name}": ${(e as Error).message.split("\n")[0]}); ` +
        `retrain it with \`pith train\``,
    );
  }
}
