/** `pith render`: pages → PageSnapshot JSON, for caching and inspection. */
import { gzipSync } from "node:zlib";
import { readInputs } from "../io/inputs.ts";
import { createRenderer, mapLimit, renderLimit, renderPage } from "../render/index.ts";
import type { PageError, PageInput, PageResult, PageSnapshot, RenderMode } from "../types.ts";
import { EXIT, UsageError, parse, type Command } from "./command.ts";
import { commandInputs, INPUT_FLAGS, INPUT_HELP } from "./input-flags.ts";
import { OutputDir } from "../batch/output-files.ts";
import { renderOptionsFrom, RENDER_FLAGS, RENDER_HELP } from "./render-flags.ts";

const HELP = `Usage: pith render <input...> [options]
       pith render --input-list FILE [options]

Render pages (files, directories, URLs, WARC files, or - for stdin) into page snapshots:
every element and text node with tag, kept attributes, text, and in Chromium mode its box and
computed style.

Options:
${INPUT_HELP}
${RENDER_HELP}
  --out DIR          write one <page>.snapshot.json per page under DIR (default: JSON lines on stdout),
                     named as pith extract --out names its files (see pith extract --help)
  --skip-existing    with --out: leave out pages whose snapshot file is already there, as pith
                     extract --skip-existing does (see pith extract --help)
  --gzip             gzip the files written with --out (.snapshot.json.gz)
  --summary          print one summary line per page instead of the snapshot
  -h, --help         this help

Exit codes: 0 every page rendered, 1 some pages failed (each reported on stderr), 2 usage, 3 fatal.`;

function summary(s: PageSnapshot): string {
  const elements = s.nodes.filter((n) => n.type === 1).length;
  const visible = s.nodes.filter((n) => n.visible && n.type === 3 && n.text?.trim()).length;
  return (
    `${s.id}\t${s.mode}\t${elements} elements\t${s.nodes.length - elements} text nodes (${visible} visible)\t` +
    `${s.ms.toFixed(0)} ms\t${s.title.slice(0, 60)}`
  );
}

export const renderCommand: Command = {
  name: "render",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parse("render", argv, {
      ...RENDER_FLAGS,
      ...INPUT_FLAGS,
      out: { type: "string" },
      gzip: { type: "boolean" },
      summary: { type: "boolean" },
      "skip-existing": { type: "boolean" },
    });
    const inputs = commandInputs("render", positionals, values["input-list"]);
    if (values["skip-existing"] && !values.out)
      throw new UsageError("render: --skip-existing needs --out DIR");
    if (values.gzip && !values.out)
      throw new UsageError("render: --gzip needs --out DIR (it gzips the files written there)");
    if (values.summary && values.out)
      throw new UsageError(
        "render: --summary prints to stdout and writes no files: give --summary or --out DIR, not both",
      );
    const { mode, options, concurrency, read } = renderOptionsFrom("render", values);
    options.declaredMeta = true; // a snapshot written for inspection holds what the page declares
    const files =
      values.out && !values.summary
        ? await OutputDir.open("render", values.out, values.gzip ? ".snapshot.json.gz" : ".snapshot.json")
        : null;
    let skipped = 0;
    if (files && values["skip-existing"]) read.skip = files.skipDone(() => skipped++);
    const renderer = await createRenderer(mode as RenderMode, { concurrency });
    let errors = 0; // each reported as it comes: a batch of millions keeps no list
    let ok = 0;
    const fail = (error: PageError) => {
      errors++;
      process.stderr.write(`error\t${error.id}\t${error.stage}\t${error.reason}\n`);
    };
    try {
      await mapLimit(
        readInputs(inputs.specs, read),
        concurrency,
        async (r: PageResult<PageInput>) =>
          r.ok ? renderPage(renderer, r.value, options, renderLimit(renderer, options)) : r,
        async (r) => {
          if (!r.ok) return fail(r.error);
          const failed = await emit(r.value, values, files);
          if (failed) return fail(failed);
          ok++;
        },
      );
    } finally {
      await renderer.close();
    }
    const skips = skipped ? `, ${skipped} skipped (output already there)` : "";
    process.stderr.write(`rendered ${ok} page(s), ${errors} error(s)${skips}\n`);
    return errors ? EXIT.pageErrors : EXIT.ok;
  },
};

/** Prints or writes one snapshot; the error record when its file cannot be written. */
async function emit(
  s: PageSnapshot,
  values: { gzip?: boolean | undefined; summary?: boolean | undefined },
  files: OutputDir | null,
): Promise<PageError | null> {
  if (values.summary) {
    process.stdout.write(summary(s) + "\n");
    return null;
  }
  const json = JSON.stringify(s);
  if (files) return files.write(s.id, s.source, values.gzip ? gzipSync(json) : json);
  process.stdout.write(json + "\n");
  return null;
}
