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

/** Map over items with at most `limit` in flight, keeping input order in the results. */
export async function mapLimit<T, R>(items: AsyncIterable<T> | Iterable<T>, limit: number, fn: (item: T) => Promise<R>, onResult: (r: R) => void): Promise<void> {
  const inflight = new Set<Promise<void>>();
  const results: { done: boolean; value?: R }[] = [];
  let next = 0;
  const drain = (): void => {
    while (next < results.length && results[next]?.done) onResult(results[next++]?.value as R);
  };
  for await (const item of items) {
    const slot = { done: false } as { done: boolean; value?: R };
    results.push(slot);
    const p: Promise<void> = fn(item).then((value) => {
      slot.value = value;
      slot.done = true;
      inflight.delete(p);
      drain();
    });
    inflight.add(p);
    if (inflight.size >= limit) await Promise.race(inflight);
  }
  await Promise.all(inflight);
  drain();
}
