/**
 * Renderer factory and the error-catching wrapper every batch uses. Chromium is imported lazily
 * so static mode never loads Puppeteer.
 */
import { firstLine } from "../errors.ts";
import { NO_LIMIT, TimeLimit, type Limit } from "../time-limit.ts";
import type { PageInput, PageResult, PageSnapshot, RenderMode, RenderOptions, Renderer } from "../types.ts";
import { StaticRenderer } from "./static.ts";

export const RENDER_MODES: readonly RenderMode[] = ["static", "chromium"];

export interface RendererOptions {
  /** Pages rendered at once (Chromium page pool size). */
  concurrency?: number;
  /** Chromium: hears the running browsers' profile directories whenever they change (chromium.ts). */
  onBrowsers?: (dirs: string[]) => void;
}

export async function createRenderer(mode: RenderMode, options: RendererOptions = {}): Promise<Renderer> {
  if (mode === "static") return new StaticRenderer();
  const { ChromiumRenderer } = await import("./chromium.ts");
  return ChromiumRenderer.launch({
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.onBrowsers ? { onBrowsers: options.onBrowsers } : {}),
  });
}

/**
 * Render one page; any failure becomes an error record naming the page and the reason. The
 * render's synchronous part runs under `limit` (time-limit.ts): all of a static render, which
 * no timer could interrupt; past it, a timeout record.
 */
export async function renderPage(
  renderer: Renderer,
  input: PageInput,
  options: RenderOptions = {},
  limit: Limit = NO_LIMIT,
): Promise<PageResult<PageSnapshot>> {
  try {
    const snapshot = await limit.run(() => renderer.render(input, options));
    if (input.warnings) snapshot.warnings = input.warnings;
    return { ok: true, value: snapshot };
  } catch (e) {
    const message = firstLine(e);
    const stage = message.startsWith("timeout") ? "timeout" : "render";
    return { ok: false, error: { id: input.id, source: input.source, stage, reason: message } };
  }
}

/**
 * The time limit of a page's synchronous work in this thread (time-limit.ts): `options.timeoutMs`
 * (set by every command's --timeout), none when it is unset. `what` names the work in the error.
 */
export function pageLimit(options: RenderOptions, what = "extraction"): Limit {
  return options.timeoutMs !== undefined ? new TimeLimit(options.timeoutMs, what) : NO_LIMIT;
}

/**
 * The time limit of a page rendered in this thread: pageLimit for a static render (parsing is
 * synchronous), none for Chromium, whose renderer enforces the limit on its own waits.
 */
export function renderLimit(renderer: Renderer, options: RenderOptions): Limit {
  return renderer.mode === "static" ? pageLimit(options, "rendering") : NO_LIMIT;
}

/**
 * Outputs handed over but not yet finished (an `onResult` promise still pending) above which no
 * new item starts. Without it a batch whose outputs were slower than its renders (writing files,
 * a slow stdout reader) kept every waiting result in memory: 5,432 pages through `pith extract
 * --out` grew to 2.3 GB and died under a 300 MB heap after 456 pages.
 */
export const MAX_PENDING_OUTPUTS = 16;

/**
 * Map over items with at most `limit` in flight, handing results to `onResult` in input order,
 * one at a time (an `onResult` that returns a promise finishes before the next one starts). A
 * result is held only until every earlier one has been handed over, and no new item starts while
 * more than MAX_PENDING_OUTPUTS outputs are unfinished, so memory stays bounded whatever the batch
 * size. A rejected `onResult` rejects the whole map.
 */
export async function mapLimit<T, R>(
  items: AsyncIterable<T> | Iterable<T>,
  limit: number,
  fn: (item: T) => Promise<R>,
  onResult: (r: R) => void | Promise<void>,
): Promise<void> {
  const inflight = new Set<Promise<void>>();
  const finished = new Map<number, R>();
  let started = 0;
  let next = 0;
  let outputs: Promise<void> = Promise.resolve();
  let pendingOutputs = 0;
  let failure: { error: unknown } | null = null;
  const drain = (): void => {
    while (finished.has(next)) {
      const r = finished.get(next) as R;
      finished.delete(next++);
      pendingOutputs++;
      outputs = outputs.then(() => onResult(r)).finally(() => pendingOutputs--);
      outputs.catch((error: unknown) => (failure ??= { error })); // observed here, rethrown below
    }
  };
  for await (const item of items) {
    while (pendingOutputs > MAX_PENDING_OUTPUTS && !failure) await outputs.catch(() => {});
    if (failure) break;
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
  await outputs;
}
