/**
 * `pith export --domain HOST --out FILE`: write the per-domain model installed in the model
 * directory (what `pith train --domain` produced) to a file, after checking that it loads
 * for this pith's feature schema and render mode. An unknown domain is a one-line error that
 * lists the installed ones.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadModel, saveModel } from "../ml/artifact.ts";
import { featureSchema } from "../pipeline/features-adapter.ts";
import { BUNDLED_MODEL_DIR, DOMAIN_SUBDIR, domainKey, domainModelPath } from "../pipeline/resolve.ts";
import { EXIT, UsageError, parse, type Command } from "./command.ts";

const HELP = `Usage: pith export --domain HOST --out FILE [options]

Write the per-domain model for HOST (trained with \`pith train --domain HOST\`) to FILE.

Options:
  --domain HOST      the site, e.g. example.com (www. is ignored)
  --out FILE         where to write the model JSON
  --model-dir DIR    where per-domain models are installed (default: models/; they live in DIR/${DOMAIN_SUBDIR}/)
  --mode MODE        render mode the model must be for (default static)`;

/** Installed per-domain models in a model directory. */
export function installedDomains(dir: string): string[] {
  const sub = join(dir, DOMAIN_SUBDIR);
  if (!existsSync(sub)) return [];
  return readdirSync(sub).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
}

export const exportCommand: Command = {
  name: "export",
  help: HELP,
  async run(argv) {
    const { values } = parse("export", argv, { domain: { type: "string" }, out: { type: "string" }, "model-dir": { type: "string" }, mode: { type: "string" } });
    if (!values.domain) throw new UsageError("export: --domain HOST is required");
    if (!values.out) throw new UsageError("export: --out FILE is required");
    const mode = values.mode ?? "static";
    if (mode !== "static" && mode !== "chromium") throw new UsageError("export: --mode must be static or chromium");
    const dir = values["model-dir"] ?? BUNDLED_MODEL_DIR;
    const file = domainModelPath(dir, values.domain);
    if (!existsSync(file)) {
      const known = installedDomains(dir);
      throw new UsageError(`export: unknown domain "${domainKey(values.domain)}": no model at ${file} (installed: ${known.join(", ") || "none"}; train one with \`pith train --domain ${domainKey(values.domain)} --data SETS\`)`);
    }
    const artifact = await loadModel(file, { schemaHash: featureSchema().hash, mode });
    await saveModel(values.out, artifact);
    process.stderr.write(`exported ${artifact.kind} model to ${values.out}\n`);
    return EXIT.ok;
  },
};
