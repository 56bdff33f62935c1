/**
 * Renderer factory and the error-catching wrapper every batch uses. Chromium is imported lazily
 * so static mode never loads Puppeteer.
 */
import type { PageInput, PageResult, PageSnapshot, RenderMode, RenderOptions, Renderer } from "../types.ts";
import { StaticRenderer } from "./static.ts";

export const RENDER_MODES: readonly RenderMode[] = ["static", "chromium"];

export interface RendererOptions {
  /** Pages rendered at once (Chromium page pool size). */
  concurrency?: number;
}

export async function createRenderer(mode: RenderMode, options: RendererOptions = {}): Promise<Renderer> {
  if (mode === "static") return new StaticRenderer();
  const { ChromiumRenderer } = await import("./chromium.ts");
  return ChromiumRenderer.launch(options.concurrency === undefined ? {} : { concurrency: options.concurrency });
}

/** Render one page; any failure becomes an error record naming the page and the reason. */
export async function renderPage(renderer: Renderer, input: PageInput, options: RenderOptions = {}): Promise<PageResult<PageSnapshot>> {
  try {
    return { ok: true, value: await renderer.render(input, options) };
  } catch (e) {
    const message = String((e as Error)?.message ?? e).split("\n")[0] ?? "render failed";
    const stage = message.startsWith("timeout") ? "timeout" : "render";
    return { ok: false, error: { id: input.id, source: input.source, stage, reason: message } };
  }
}

/**
 * Map over items with at most `limit` in flight, handing results to `onResult` in input order.
 * A result is held only until every earlier one has been handed over, so memory stays bounded
 * by the results in flight, whatever the batch size.
 */
export async function mapLimit<T, R>(items: AsyncIterable<T> | Iterable<T>, limit: number, fn: (item: T) => Promise<R>, onResult: (r: R) => void): Promise<void> {
  const inflight = new Set<Promise<void>>();
  const finished = new Map<number, R>();
  let started = 0;
  let next = 0;
  const drain = (): void => {
    while (finished.has(next)) {
      const r = finished.get(next) as R;
      finished.delete(next++);
      onResult(r);
    }
  };
  for await (const item of items) {
    const index = started++;
    const p: Promise<void> = fn(item).then((value) => {
      finished.set(index, value);
      inflight.delete(p);
      drain();
    });
    inflight.add(p);
    if (inflight.size >= limit) await Promise.race(inflight);
  }
  await Promise.all(inflight);
  drain();
}
