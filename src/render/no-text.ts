/**
 * Why a page has no visible text, with what to try. A page whose body is empty but which carries
 * scripts is usually an application shell that a script fills after load (a single-page app, a
 * forum that fetches its posts from an API). Static mode never runs scripts, so the reason says
 * how to: Chromium with JavaScript on (and network, which a local file does not get unless
 * asked). Scripts are counted in static snapshots only: a Chromium snapshot does not record
 * whether its scripts ran.
 */
import type { PageSnapshot } from "../types.ts";

/** `<script type>` values that hold code a browser runs (absent or empty: JavaScript). */
const CODE_TYPES = new Set(["", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript"]);

/** Script elements of the page that a browser would run (not JSON-LD, templates or other data). */
export function codeScripts(page: PageSnapshot): number {
  let n = 0;
  for (const node of page.nodes) if (node.type === 1 && node.tag === "script" && CODE_TYPES.has((node.attrs?.["type"] ?? "").trim().toLowerCase())) n++;
  return n;
}

/** The empty-extraction reason of a page without visible text. */
export function noVisibleTextReason(page: PageSnapshot): string {
  const scripts = page.mode === "static" ? codeScripts(page) : 0;
  if (scripts === 0) return "the page has no visible text";
  return `the page has no visible text, but ${scripts} script${scripts === 1 ? "" : "s"} that may build it: try --mode chromium --js (and --network for a local file)`;
}
