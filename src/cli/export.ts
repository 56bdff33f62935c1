/**
 * `pith export --domain HOST --out FILE`: write the per-domain model installed in the model
 * directory (what `pith train --domain` produced) to a file, after checking that it loads
 * for this pith's feature schema and render mode. An unknown domain is a one-line error that
 * lists the installed ones.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadModel, saveModel } from "../ml/artifact.ts";
import { featureSchema } from "../features/index.ts";
import { BUNDLED_MODEL_DIR, DOMAIN_SUBDIR, domainKey, domainModelPath } from "../pipeline/model/resolve.ts";
import type { RenderMode } from "../types.ts";
import { EXIT, UsageError, parse, type Command } from "./command.ts";

const HELP =
  `Usage: pith export --domain HOST --out FILE [options]

Write the per-domain model for HOST (trained with \`pith train --domain HOST\`) to FILE.

Options:
  --domain HOST      the site, e.g. example.com (www. is ignored)
  --out FILE         where to write the model JSON
  --model-dir DIR    where per-domain models are installed (default: models/; they live in DIR/${DOMAIN_SUBDIR}/)
  --mode MODE        render mode of the model (default static; a chromium one is ` +
  `DIR/${DOMAIN_SUBDIR}/HOST.chromium.json)`;

/** Installed per-domain models for `mode` in a model directory. */
export function installedDomains(dir: string, mode: RenderMode = "static"): string[] {
  const sub = join(dir, DOMAIN_SUBDIR);
  if (!existsSync(sub)) return [];
  const chromium = (f: string): boolean => f.endsWith(".chromium.json");
  return readdirSync(sub)
    .filter((f) => f.endsWith(".json") && chromium(f) === (mode === "chromium"))
    .map((f) => f.slice(0, f.length - (chromium(f) ? ".chromium.json" : ".json").length))
    .sort();
}

export const exportCommand: Command = {
  name: "export",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parse("export", argv, {
      domain: { type: "string" },
      out: { type: "string" },
      "model-dir": { type: "string" },
      mode: { type: "string" },
    });
    if (positionals.length)
      throw new UsageError(
        `export: unexpected argument "${positionals[0]}" (the site is given with --domain HOST)`,
      );
    if (!values.domain) throw new UsageError("export: --domain HOST is required");
    if (!values.out) throw new UsageError("export: --out FILE is required");
    const mode = values.mode ?? "static";
    if (mode !== "static" && mode !== "chromium")
      throw new UsageError("export: --mode must be static or chromium");
    const dir = values["model-dir"] ?? BUNDLED_MODEL_DIR;
    let file: string;
    try {
      file = domainModelPath(dir, values.domain, mode);
    } catch (e) {
      throw new UsageError(`export: ${(e as Error).message}`);
    }
    if (!existsSync(file)) {
      const known = installedDomains(dir, mode);
      throw new UsageError(
        `export: unknown domain "${domainKey(values.domain)}": no model at ${file} ` +
          `(installed: ${known.join(", ") || "none"}; ` +
          `train one with \`pith train --domain ${domainKey(values.domain)} --data SETS\`)`,
      );
    }
    const artifact = await loadModel(file, { schemaHash: featureSchema().hash, mode });
    await saveModel(values.out, artifact);
    process.stderr.write(`exported ${artifact.kind} model to ${values.out}\n`);
    return EXIT.ok;
  },
};
