/**
 * Peers that `pith evaluate` runs beside pith's own methods, on the same pages:
 * - `readability`: Mozilla Readability 0.6 on a linkedom document (the setup of ANCHORS.md).
 * - `defuddle`: defuddle's class on a linkedom document with the polyfills its own Node entry
 *   applies (styleSheets, getComputedStyle), `useAsync: false` so it never fetches from the network.
 * - `all-text`: every visible text of the snapshot (the recall ≈ 1 baseline; html-text in ANCHORS.md).
 *
 * Readability and defuddle return HTML; it is turned into text the way pith's own output is
 * (static snapshot + textOf, one line per block), so no peer loses words to glued blocks.
 * Peers return text only (`nodes` null): node-level metrics are not computed for them.
 *
 * Readability, defuddle and linkedom are development dependencies, imported on a peer's first
 * page: pith's own commands neither load them (they took a fifth of every command's start-up)
 * nor need them installed (`npm install --omit=dev`).
 */
import { firstLine } from "../errors.ts";
import { applyBrowserShims } from "./linkedom-shims.ts";
import { buildTree } from "../dom/tree.ts";
import { textOf } from "../dom/text.ts";
import { staticSnapshot } from "../render/static.ts";
import { NO_LIMIT, type Limit } from "../time-limit.ts";
import type { PageInput, PageSnapshot } from "../types.ts";

export interface PeerOutput {
  text: string;
  /** Chosen snapshot nodes when the peer works on the snapshot; null when it only returns text. */
  nodes: number[] | null;
}

export interface Peer {
  readonly name: string;
  readonly description: string;
  /**
   * `input` is the raw page; `page` its snapshot in the run's render mode. The synchronous work
   * (parse and extraction, after the package is loaded) runs under `limit`.
   */
  extract(input: PageInput, page: PageSnapshot, limit?: Limit): PeerOutput | Promise<PeerOutput>;
}

/** Plain text of an HTML fragment, one line per block. */
export function htmlToText(html: string): string {
  const snap = staticSnapshot({
    id: "fragment",
    source: "fragment",
    url: null,
    html,
    encoding: "utf-8",
    remote: false,
  });
  return textOf(snap, buildTree(snap), [0]);
}

/** What defuddle's Node entry uses for a page without a URL (its extractor lookup needs one). */
const BLANK_URL = "about:blank";

type Linkedom = typeof import("linkedom");
type LinkedomDocument = ReturnType<Linkedom["parseHTML"]>["document"];

/** Imports a peer's package once; a missing one is a clear error naming the package. */
function lazily<T>(pkg: string, load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | null = null;
  return () =>
    (loaded ??= load().catch((e: unknown) => {
      loaded = null;
      throw new Error(
        `this peer needs the development dependency ${pkg} (npm install --include=dev): ${firstLine(e)}`,
      );
    }));
}

const linkedom = lazily("linkedom", () => import("linkedom"));
const readability = lazily("@mozilla/readability", () => import("@mozilla/readability"));
const defuddle = lazily("defuddle", () => import("defuddle/node"));

function linkedomDocument(parseHTML: Linkedom["parseHTML"], input: PageInput): LinkedomDocument {
  const { document } = parseHTML(input.html);
  applyBrowserShims(document, input.url ?? BLANK_URL);
  return document;
}

export const readabilityPeer: Peer = {
  name: "readability",
  description: "Mozilla Readability 0.6 on linkedom (peer)",
  async extract(input, _page, limit = NO_LIMIT) {
    const [{ parseHTML }, { Readability }] = await Promise.all([linkedom(), readability()]);
    return limit.run(() => {
      const article = new Readability(linkedomDocument(parseHTML, input) as unknown as Document).parse();
      return { text: article?.content ? htmlToText(article.content) : "", nodes: null };
    });
  },
};

/**
 * Run a synchronous library call with console output muted (defuddle logs every bad JSON-LD
 * block). A time limit goes inside `fn`, never around this: a terminated call skips `finally`
 * (time-limit.ts), which would leave the console muted.
 */
function quietly<T>(fn: () => T): T {
  const saved = { error: console.error, warn: console.warn, log: console.log };
  console.error = console.warn = console.log = () => {};
  try {
    return fn();
  } finally {
    Object.assign(console, saved);
  }
}

export const defuddlePeer: Peer = {
  name: "defuddle",
  description: "defuddle 0.19 on linkedom, no network (peer)",
  async extract(input, _page, limit = NO_LIMIT) {
    const [{ parseHTML }, { DefuddleClass: Defuddle }] = await Promise.all([linkedom(), defuddle()]);
    const options = { useAsync: false, url: input.url ?? BLANK_URL };
    return quietly(() =>
      limit.run(() => {
        const result = new Defuddle(
          linkedomDocument(parseHTML, input) as unknown as Document,
          options,
        ).parse();
        return { text: result.content ? htmlToText(result.content) : "", nodes: null };
      }),
    );
  },
};

export const allTextPeer: Peer = {
  name: "all-text",
  description: "all visible text of the page (recall ≈ 1 baseline)",
  extract(_input, page, limit = NO_LIMIT) {
    return limit.run(() => ({ text: textOf(page, buildTree(page), [0]), nodes: [0] }));
  },
};

export const PEERS: ReadonlyMap<string, Peer> = new Map(
  [readabilityPeer, defuddlePeer, allTextPeer].map((p) => [p.name, p]),
);

export function getPeer(name: string): Peer | undefined {
  return PEERS.get(name);
}
