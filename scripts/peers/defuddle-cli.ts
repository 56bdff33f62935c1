/**
 * defuddle 0.19 as a command, for `npm run bench:cli`: the text of every page of a directory,
 * parsed with linkedom as `pith evaluate`'s defuddle peer does (common.ts: the polyfills of
 * defuddle's Node entry, `useAsync: false` so it never fetches, console muted). defuddle returns
 * HTML; the text is linkedom's `textContent` of it.
 *
 *   node --import tsx scripts/peers/defuddle-cli.ts DIR --out OUT
 */
import { DefuddleClass as Defuddle } from "defuddle/node";
import { parseHTML } from "linkedom";
import { linkedomDocument, peerCli, quietly } from "./common.ts";

const URL = "about:blank";

peerCli("defuddle", (html) => {
  const content = quietly(() =>
    new Defuddle(linkedomDocument(html, URL), { useAsync: false, url: URL }).parse(),
  ).content;
  if (!content) return "";
  return parseHTML(`<!doctype html><html><body>${content}</body></html>`).document.body.textContent ?? "";
});
