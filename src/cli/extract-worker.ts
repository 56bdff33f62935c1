/**
 * Worker thread of `pith extract` (extract-pool.ts): prepares the extractor once (loads the
 * model), says it is ready, then answers each {id, input} (the page's bytes as read) with that
 * page's output or error record: decoded, rendered with the static parser and formatted exactly
 * as the in-thread path does.
 */
import { parentPort, workerData } from "node:worker_threads";
import "../algorithms/index.ts";
import { getExtractor } from "../extractors.ts";
import { renderPage } from "../render/index.ts";
import { StaticRenderer } from "../render/static.ts";
import { decodePage, type PageBytes } from "../io/inputs.ts";
import type { ExtractSetup, WorkerReply } from "./extract-pool.ts";
import { firstLine, pageOutput } from "./extract-page.ts";

const port = parentPort;
if (!port) throw new Error("src/cli/extract-worker.ts must run in a worker thread");
const setup = workerData as ExtractSetup;
const reply = (m: WorkerReply): void => port.postMessage(m);

try {
  const extractor = getExtractor(setup.method);
  await extractor.prepare?.(setup.params);
  const renderer = new StaticRenderer();
  const context = { params: setup.params };
  port.on("message", async ({ id, input }: { id: number; input: PageBytes }) => {
    const page = decodePage(input);
    const rendered = page.ok ? await renderPage(renderer, page.value, setup.render) : page;
    reply({ id, result: await pageOutput(rendered, extractor, context, setup.format) });
  });
  reply({ ready: true });
} catch (e) {
  reply({ fatal: firstLine(e, "could not prepare the extractor") });
}
