/**
 * What a linkedom document lacks that the peers read (defuddle's Node entry applies the same):
 * `styleSheets`, `getComputedStyle` (every element shown) and the page's URL. Used by
 * `pith evaluate`'s peers (peers.ts) and the peer CLIs `npm run bench:cli` times
 * (scripts/peers/common.ts); it imports nothing, so those stay standalone.
 */
export function applyBrowserShims(document: unknown, url: string): void {
  const doc = document as {
    styleSheets?: unknown;
    defaultView?: { getComputedStyle?: unknown } | null;
    URL: string;
  };
  doc.styleSheets ??= [];
  if (doc.defaultView && !doc.defaultView.getComputedStyle)
    doc.defaultView.getComputedStyle = () => ({ display: "" });
  doc.URL = url;
}
