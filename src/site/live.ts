/**
 * Live n-SET: fetch the key page's best-ranked same-domain links over HTTP and render them
 * statically, for the site-level methods when no other pages of the site are at hand.
 * Alarte et al. (WISE 2018) §2.1: "selects the first n hyperlinks of the sorted set and
 * collects the set of webpages pointed by these hyperlinks". Links that fail to load are
 * skipped and the next ranked link is tried, up to MAX_FETCH_ATTEMPTS_FACTOR × n fetches.
 * Network I/O is injected (`fetch` option) so callers and tests control it.
 */
import type { PageError, PageInput, PageResult, PageSnapshot } from "../types.ts";
import { fetchPage } from "../io/inputs.ts";
import { staticSnapshot } from "../render/static.ts";
import { buildTree, type Tree } from "../dom/tree.ts";
import { rankSiteLinks, type SiteLink } from "./nset.ts";

/** Try at most this many links per wanted page before giving up. */
export const MAX_FETCH_ATTEMPTS_FACTOR = 2;
/** Pages fetched at the same time. */
export const FETCH_CONCURRENCY = 4;

export interface LiveNSetOptions {
  /** Fetcher (default src/io/inputs.ts fetchPage). */
  fetch?: (url: string) => Promise<PageResult<PageInput>>;
  /** Renderer (default the static renderer). */
  render?: (input: PageInput) => PageSnapshot | Promise<PageSnapshot>;
}

export interface LiveNSet {
  /** Fetched pages, in link rank order. */
  pages: PageSnapshot[];
  /** Ranked links that were considered. */
  links: SiteLink[];
  /** Links that failed. */
  errors: PageError[];
}

/** Fetch up to n pages of the key page's site, following its ranked same-domain links. */
export async function fetchNSet(
  key: PageSnapshot,
  n: number,
  options: LiveNSetOptions = {},
  tree: Tree = buildTree(key),
): Promise<LiveNSet> {
  const fetcher = options.fetch ?? ((url: string) => fetchPage(url));
  const render = options.render ?? staticSnapshot;
  const links = rankSiteLinks(key, tree).slice(0, n * MAX_FETCH_ATTEMPTS_FACTOR);
  const got: (PageSnapshot | null)[] = new Array<PageSnapshot | null>(links.length).fill(null);
  const errors: PageError[] = [];
  let next = 0;
  let ok = 0;
  let inFlight = 0; // never start more fetches than pages still wanted
  /** Fetch and render link k; true when it gave a page. */
  const load = async (k: number): Promise<boolean> => {
    const r = await fetcher((links[k] as SiteLink).url);
    if (!r.ok) {
      errors.push(r.error);
      return false;
    }
    try {
      got[k] = await render(r.value);
      return true;
    } catch (e) {
      errors.push({
        id: r.value.id,
        source: r.value.source,
        stage: "render",
        reason: String((e as Error).message ?? e),
      });
      return false;
    }
  };
  const worker = async (): Promise<void> => {
    while (next < links.length && ok + inFlight < n) {
      const k = next++;
      inFlight++; // until fetched *and* rendered, so no other worker starts a fetch that is not needed
      const loaded = await load(k);
      if (loaded) ok++;
      inFlight--;
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, Math.max(1, n)) }, worker));
  const pages = got.filter((p): p is PageSnapshot => p !== null).slice(0, n);
  return { pages, links, errors };
}
