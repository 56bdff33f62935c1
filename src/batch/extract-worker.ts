/**
 * Worker thread of `pith extract` (extract-pool.ts): prepares the extractor once (loads the
 * model), says it is ready, then answers each {id, job} (the page's bytes as read) with that
 * page's output or error record: decoded, rendered with the static parser and formatted exactly
 * as the in-thread path does. A page that comes with other pages of its site (SitePageBytes.siblings,
 * `--site-features on`) is extracted with them, rendered here, as its SiteContext; the last
 * SIBLINGS_KEPT rendered siblings are kept, since a site's pages arrive one after another.
 */
import { parentPort, workerData } from "node:worker_threads";
import "../methods.ts";
import { getExtractor } from "../extractors.ts";
import { renderPage } from "../render/index.ts";
import { StaticRenderer } from "../render/static.ts";
import { decodePage } from "../io/inputs.ts";
import type { PageBytes } from "../io/page-bytes.ts";
import { siteKey } from "../io/site-group.ts";
import type { PoolReply, PoolRequest } from "./pool.ts";
import type { ExtractSetup, SitePageBytes } from "./extract-pool.ts";
import { outputOf, pageOutput, type PageOutput } from "./page-output.ts";
import { autoPlan } from "./auto-render.ts";
import { NO_LIMIT } from "../time-limit.ts";
import { firstLine } from "../errors.ts";
import type { ExtractorContext, PageResult, PageSnapshot } from "../types.ts";
import { SITE_MAX_OTHERS } from "../features/site.ts";

const port = parentPort;
if (!port) throw new Error("src/batch/extract-worker.ts must run in a worker thread");
const setup = workerData as ExtractSetup;
const reply = (m: PoolReply<PageResult<PageOutput>>): void => port.postMessage(m);

/** Rendered siblings kept for the next pages of their site (a site's siblings and a few more). */
const SIBLINGS_KEPT = 4 * SITE_MAX_OTHERS;
const renderer = new StaticRenderer();
const rendered = new Map<string, PageSnapshot | null>();

/** A sibling page rendered as the in-thread path renders it (null when it fails to decode or render). */
async function renderSibling(bytes: PageBytes): Promise<PageSnapshot | null> {
  const key = `${bytes.source}\u0000${bytes.id}`;
  if (rendered.has(key)) return rendered.get(key) as PageSnapshot | null;
  const page = decodePage(bytes);
  const snap = page.ok ? await renderPage(renderer, page.value, setup.render) : page;
  const out = snap.ok ? snap.value : null;
  rendered.set(key, out);
  if (rendered.size > SIBLINGS_KEPT) rendered.delete(rendered.keys().next().value as string);
  return out;
}

/** The page's context: the batch's, with its rendered siblings as SiteContext when it has some. */
async function contextOf(job: SitePageBytes): Promise<ExtractorContext> {
  if (!job.siblings?.length) return setup.context;
  const pages: PageSnapshot[] = [];
  for (const s of job.siblings) {
    const snap = await renderSibling(s);
    if (snap) pages.push(snap);
  }
  return { ...setup.context, site: { domain: siteKey(job), pages } };
}

try {
  const extractor = getExtractor(setup.method);
  await extractor.prepare?.(setup.context);
  port.on("message", async (m: PoolRequest<SitePageBytes>) => {
    if (!("job" in m)) return; // no close message: the pool terminates extract workers
    const page = decodePage(m.job);
    const snap = page.ok ? await renderPage(renderer, page.value, setup.render) : page;
    const context = await contextOf(m.job);
    const result = setup.auto
      ? await outputOf(snap, extractor, context, autoPlan(setup, NO_LIMIT))
      : await pageOutput(snap, extractor, context, setup.format, setup.output);
    reply({ id: m.id, result });
  });
  reply({ ready: true });
} catch (e) {
  reply({ fatal: firstLine(e, "could not prepare the extractor") });
}
