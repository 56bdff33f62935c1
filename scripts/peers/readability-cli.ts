/**
 * Mozilla Readability 0.6 as a command, for `npm run bench:cli`: the text of every page of a
 * directory, parsed with linkedom as `pith evaluate`'s readability peer does (common.ts).
 * The text is Readability's own `textContent` of the article.
 *
 *   node --import tsx scripts/peers/readability-cli.ts DIR --out OUT
 */
import { Readability } from "@mozilla/readability";
import { linkedomDocument, peerCli } from "./common.ts";

peerCli("readability", (html) => new Readability(linkedomDocument(html)).parse()?.textContent ?? "");
