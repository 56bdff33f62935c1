/**
 * Worker thread of `pith extract` (extract-pool.ts): prepares the extractor once (loads the
 * model), says it is ready, then answers each {id, job} (the page's bytes as read) with that
 * page's output or error record: decoded, rendered with the static parser and formatted exactly
 * as the in-thread path does.
 */
import { parentPort, workerData } from "node:worker_threads";
import "../methods.ts";
import { getExtractor } from "../extractors.ts";
import { renderPage } from "../render/index.ts";
import { StaticRenderer } from "../render/static.ts";
import { decodePage, type PageBytes } from "../io/inputs.ts";
import type { PoolReply, PoolRequest } from "./pool.ts";
import type { ExtractSetup } from "./extract-pool.ts";
import { pageOutput, type PageOutput } from "./page-output.ts";
import { firstLine } from "../errors.ts";
import type { PageResult } from "../types.ts";

const port = parentPort;
if (!port) throw new Error("src/batch/extract-worker.ts must run in a worker thread");
const setup = workerData as ExtractSetup;
const reply = (m: PoolReply<PageResult<PageOutput>>): void => port.postMessage(m);

try {
  const extractor = getExtractor(setup.method);
  await extractor.prepare?.(setup.context);
  const renderer = new StaticRenderer();
  const context = setup.context;
  port.on("message", async (m: PoolRequest<PageBytes>) => {
    if (!("job" in m)) return; // no close message: the pool terminates extract workers
    const page = decodePage(m.job);
    const rendered = page.ok ? await renderPage(renderer, page.value, setup.render) : page;
    reply({ id: m.id, result: await pageOutput(rendered, extractor, context, setup.format, setup.output) });
  });
  reply({ ready: true });
} catch (e) {
  reply({ fatal: firstLine(e, "could not prepare the extractor") });
}
