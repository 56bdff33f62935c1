/** The rendering flags every command that renders accepts (--mode, --js, --network, …). */
import type { ReadOptions } from "../io/inputs.ts";
import type { RenderMode, RenderOptions } from "../types.ts";
import { UsageError, intOption } from "./command.ts";
import { DEFAULT_TIMEOUT_MS } from "../time-limit.ts";

export const RENDER_FLAGS = {
  mode: { type: "string" },
  js: { type: "boolean" },
  network: { type: "boolean" },
  resources: { type: "boolean" },
  timeout: { type: "string" },
  concurrency: { type: "string" },
} as const;

export const RENDER_HELP = [
  "  --mode MODE        static (fast HTML parser, default) or chromium (headless Chromium: layout and style)",
  "  --js               run the page's JavaScript (chromium; default off)",
  "  --network          let local pages fetch subresources (default: no network for local input)",
  "  --resources        load images, media and fonts (default blocked)",
  `  --timeout MS       per-page time limit (default ${DEFAULT_TIMEOUT_MS}) on rendering, parsing and`,
  "                     extraction; a URL's fetch, redirects and body included, has one of its own",
  "  --concurrency N    pages in flight in one thread: Chromium tabs, URLs fetched (default 2)",
].join("\n");

export interface RenderFlagValues {
  mode?: string | undefined;
  js?: boolean | undefined;
  network?: boolean | undefined;
  resources?: boolean | undefined;
  timeout?: string | undefined;
  concurrency?: string | undefined;
}

/**
 * The parsed flags: render mode and options, pages in flight, and how inputs are read (a URL
 * fetch has the page time limit, and --concurrency fetches run at once).
 */
export function renderOptionsFrom(
  command: string,
  v: RenderFlagValues,
  defaultMode: RenderMode = "static",
): { mode: RenderMode; options: RenderOptions; concurrency: number; read: ReadOptions } {
  const mode = (v.mode ?? defaultMode) as RenderMode;
  if (mode !== "static" && mode !== "chromium")
    throw new UsageError(`${command}: --mode must be static or chromium, got "${v.mode}"`);
  // the static parser runs no script and loads nothing: these would be silently nothing
  for (const flag of ["js", "resources"] as const)
    if (mode === "static" && v[flag])
      throw new UsageError(`${command}: --${flag} needs a browser: add --mode chromium`);
  const concurrency = intOption(command, "concurrency", v.concurrency, 2);
  if (concurrency < 1) throw new UsageError(`${command}: --concurrency must be at least 1`);
  const timeoutMs = intOption(command, "timeout", v.timeout, DEFAULT_TIMEOUT_MS);
  // 0 timed out every page of a batch and none of a single page
  if (timeoutMs < 1) throw new UsageError(`${command}: --timeout must be at least 1 ms, got ${timeoutMs}`);
  return {
    mode,
    concurrency,
    options: {
      javascript: v.js ?? false,
      network: v.network ?? false,
      loadResources: v.resources ?? false,
      timeoutMs,
    },
    read: { fetchTimeoutMs: timeoutMs, fetchConcurrency: concurrency },
  };
}
