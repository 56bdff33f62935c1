/**
 * `pith studio DIR...`: a local web app over labeled (or plain) folders of pages: see what pith
 * kept and why, label pages by clicking, save them in the dataset format (src/studio/).
 */
import { createRenderer } from "../render/index.ts";
import { exitOnSignals } from "../exit-on-signal.ts";
import { serveStudio, PortTakenError } from "../studio/server.ts";
import { Studio } from "../studio/studio.ts";
import { uiFiles } from "../studio/ui-bundle.ts";
import { openWorkspace, WorkspaceError, DEFAULT_OUT } from "../studio/workspace.ts";
import { DatasetError } from "../io/dataset.ts";
import type { RenderMode } from "../types.ts";
import { EXIT, UsageError, intOption, parse, type Command } from "./command.ts";

/** The port the studio listens on unless --port says. */
export const DEFAULT_PORT = 7878;
const LOOPBACK_HOST = "127.0.0.1";
const LOOPBACK = new Set([LOOPBACK_HOST, "localhost", "::1"]);

const HELP = `Usage: pith studio DIR... [options]
       pith studio --input-list FILE --out DIR [options]

A local web app over labeled folders of pages: a table of the pages with their host, page type
and, where they have gold, pith's word P/R/F1; each page as pith saw it, with the blocks it kept
and dropped outlined, their P(main) and the step that decided; and labeling by clicks, saved in
the dataset format (gold/<id>.txt, gold-html/<id>.html.gz, index.jsonl) that \`pith train\` reads.

DIR is a labeled dataset folder (index.jsonl, html/, gold/: data/README.md), whose labels are
written in place; a plain folder of pages (.html, .htm, .html.gz) or a WARC file, whose labeled
pages go to a dataset folder of their own (--out); --input-list FILE lists URLs (one a line),
fetched once at start.

It listens on 127.0.0.1 only and prints a URL with an access token; open that URL in a browser.
Pages are shown from their snapshot, without their scripts and without any network request.

Options:
  --port N           port to listen on (default ${DEFAULT_PORT}; 0: any free port)
  --host HOST        address to listen on (default ${LOOPBACK_HOST}; another address lets other
                     machines reach the studio, still only with the token)
  --mode MODE        static (default) or chromium: how pages are rendered
  --model FILE       the model to run (default: a per-domain model for the page's host, else the
                     bundled one for the mode)
  --model-dir DIR    where per-domain models are looked up (default: models/)
  --out DIR          where a plain folder's, a WARC's or a URL list's labeled pages go
                     (default for a folder: DIR/${DEFAULT_OUT}; required for the others)
  --input-list FILE  URLs to label (one per line; # starts a comment)

Examples:
  pith studio data/sample
  pith studio saved-pages/ --out my-site-labels/ --port 8080
`;

function modeOf(value: string | undefined): RenderMode {
  if (value === undefined || value === "static" || value === "chromium") return value ?? "static";
  throw new UsageError(`studio: --mode must be static or chromium, not "${value}"`);
}

export const studioCommand: Command = {
  name: "studio",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parse("studio", argv, {
      port: { type: "string" },
      host: { type: "string" },
      mode: { type: "string" },
      model: { type: "string" },
      "model-dir": { type: "string" },
      out: { type: "string" },
      "input-list": { type: "string" },
    });
    if (!positionals.length && !values["input-list"])
      throw new UsageError("studio: give a folder of pages (see `pith studio --help`)");
    const port = intOption("studio", "port", values.port, DEFAULT_PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`studio: --port must be 0-65535, not "${values.port}"`);
    const mode = modeOf(values.mode);
    let workspace;
    try {
      workspace = await openWorkspace(positionals, values.out, values["input-list"]);
    } catch (e) {
      if (e instanceof WorkspaceError || e instanceof DatasetError)
        throw new UsageError(`studio: ${e.message}`);
      throw e;
    }
    const flags = {
      mode,
      ...(values.model ? { model: values.model } : {}),
      ...(values["model-dir"] ? { modelDir: values["model-dir"] } : {}),
    };
    const renderer = await createRenderer(mode);
    const studio = new Studio(workspace, flags, renderer);
    let server;
    try {
      server = await serveStudio(studio, await uiFiles(), { host: values.host ?? LOOPBACK_HOST, port });
    } catch (e) {
      await renderer.close();
      if (e instanceof PortTakenError) {
        process.stderr.write(`pith studio: ${e.message}\n`);
        return EXIT.pageErrors;
      }
      throw e;
    }
    exitOnSignals();
    if (!LOOPBACK.has(values.host ?? LOOPBACK_HOST))
      process.stderr.write(
        `pith studio: listening on ${values.host}: other machines can reach it (with the token in the URL)\n`,
      );
    process.stdout.write(`pith studio: ${workspace.pages.length} pages; open ${server.url}\n`);
    return new Promise<number>(() => undefined); // serves until a signal ends the process
  },
};
