/** `pith render`: pages → PageSnapshot JSON, for caching and inspection. */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { readInputs } from "../io/inputs.ts";
import { createRenderer, mapLimit, renderPage } from "../render/index.ts";
import type { PageError, PageInput, PageResult, PageSnapshot, RenderMode } from "../types.ts";
import { EXIT, UsageError, parse, type Command } from "./command.ts";
import { DEFAULT_TIMEOUT_MS, renderOptionsFrom, RENDER_FLAGS, RENDER_HELP } from "./render-flags.ts";

const HELP = `Usage: pith render <input...> [options]

Render pages (files, directories, URLs, WARC files, or - for stdin) into page snapshots:
every element and text node with tag, kept attributes, text, and in Chromium mode its box and
computed style.

Options:
${RENDER_HELP}
  --out DIR          write one <page>.snapshot.json per page under DIR (default: JSON lines on stdout)
  --gzip             gzip the files written with --out (.snapshot.json.gz)
  --summary          print one summary line per page instead of the snapshot
  -h, --help         this help

Exit codes: 0 every page rendered, 1 some pages failed (each reported on stderr), 2 usage, 3 fatal.`;

export function outputName(id: string, extension: string): string {
  const base = id.replace(/^[a-z]+:\/\//i, "").replace(/[?#].*$/, "").replace(/\.(x?html?|xht)(\.gz)?$/i, "").replace(/\/$/, "/index");
  return base.replace(/[^\p{L}\p{N}._\/-]+/gu, "_").replace(/^\/+/, "") + extension;
}

function summary(s: PageSnapshot): string {
  const elements = s.nodes.filter((n) => n.type === 1).length;
  const visible = s.nodes.filter((n) => n.visible && n.type === 3 && n.text?.trim()).length;
  return `${s.id}\t${s.mode}\t${elements} elements\t${s.nodes.length - elements} text nodes (${visible} visible)\t${s.ms.toFixed(0)} ms\t${s.title.slice(0, 60)}`;
}

export const renderCommand: Command = {
  name: "render",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parse("render", argv, { ...RENDER_FLAGS, out: { type: "string" }, gzip: { type: "boolean" }, summary: { type: "boolean" } });
    if (!positionals.length) throw new UsageError("render: give at least one input (file, directory, URL or -)");
    const { mode, options, concurrency } = renderOptionsFrom("render", values);
    const renderer = await createRenderer(mode as RenderMode, { concurrency });
    const errors: PageError[] = [];
    let ok = 0;
    try {
      await mapLimit(readInputs(positionals, { fetchTimeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS }), concurrency, async (r: PageResult<PageInput>) => (r.ok ? renderPage(renderer, r.value, options) : r), async (r) => {
        if (!r.ok) {
          errors.push(r.error);
          process.stderr.write(`error\t${r.error.id}\t${r.error.stage}\t${r.error.reason}\n`);
          return;
        }
        ok++;
        await emit(r.value, values);
      });
    } finally {
      await renderer.close();
    }
    process.stderr.write(`rendered ${ok} page(s), ${errors.length} error(s)\n`);
    return errors.length ? EXIT.pageErrors : EXIT.ok;
  },
};

async function emit(s: PageSnapshot, values: { out?: string | undefined; gzip?: boolean | undefined; summary?: boolean | undefined }): Promise<void> {
  if (values.summary) {
    process.stdout.write(summary(s) + "\n");
    return;
  }
  const json = JSON.stringify(s);
  if (!values.out) {
    process.stdout.write(json + "\n");
    return;
  }
  const path = join(values.out, outputName(s.id, values.gzip ? ".snapshot.json.gz" : ".snapshot.json"));
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, values.gzip ? gzipSync(json) : json);
}
