/**
 * n-SET selection: which pages of the key page's site to compare it with.
 *
 * Alarte, Insa, Silva, Tamarit, "Main Content Extraction from Heterogeneous Webpages"
 * (WISE 2018), §2.1: collect the key page's hyperlinks to other pages of the same domain,
 * sort them by *hyperlink distance* (closest to zero first) and, within equal hyperlink
 * distance, by *DOM distance* (farthest apart first), and take the first n. The paper defers
 * both distances to its references [2]/[3] (Alarte et al., WWV 2014 and PSI 2015). Our
 * definitions, chosen so each is computable from one page and cheap:
 *
 * - hyperlink distance(key, target): the distance between the two URLs in the site's path
 *   hierarchy — path segments of key and target after their longest common prefix, counted on
 *   both sides (/news/a → /news/b is 2, /news/a → /sport/b is 4). A query string counts as
 *   one more segment. Sibling pages in the same section are the likeliest to share the key
 *   page's template, which is what the n-SET needs.
 * - DOM distance of a link: the sum of tree distances (edges through the lowest common
 *   ancestor) from its <a> element to every other same-domain <a> of the key page. Large
 *   means the link sits apart from the others (a different menu or region), so the n-SET
 *   spreads over the site instead of one menu — the paper's "as far as possible (among all
 *   of them) in the DOM tree". Computed for all links at once in O(nodes) by rerooting.
 *
 * With a SiteContext (pages already at hand) the same order ranks the given pages: pages the
 * key page links to carry their link's DOM distance; pages it does not link to come after
 * linked pages of the same hyperlink distance.
 */
import type { PageSnapshot, SnapshotNode } from "../types.ts";
import type { Tree } from "../dom/tree.ts";

/** Alarte et al. §3.1: the 4-SET gave the best F1 (Table 1). */
export const DEFAULT_NSET_SIZE = 4;

export interface SiteLink {
  /** Absolute URL without fragment. */
  url: string;
  /** First <a> node linking there. */
  node: number;
  hyperlinkDistance: number;
  domDistance: number;
}

function hostKey(u: URL): string {
  return u.hostname.toLowerCase().replace(/^www\./, "");
}

/** URL without its fragment, or null when not http(s). */
export function normaliseUrl(href: string, base?: string | null): string | null {
  try {
    const u = base ? new URL(href, base) : new URL(href);
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    u.hash = "";
    return u.href;
  } catch {
    return null;
  }
}

function segments(u: URL): string[] {
  const segs = u.pathname.split("/").filter((s) => s.length > 0);
  if (u.search) segs.push(u.search);
  return segs;
}

/** Path-hierarchy distance between two URLs (Infinity for other hosts or invalid URLs). */
export function hyperlinkDistance(key: string | null, target: string | null): number {
  if (!key || !target) return Infinity;
  let a: URL;
  let b: URL;
  try {
    a = new URL(key);
    b = new URL(target);
  } catch {
    return Infinity;
  }
  if (hostKey(a) !== hostKey(b)) return Infinity;
  const sa = segments(a);
  const sb = segments(b);
  let c = 0;
  while (c < sa.length && c < sb.length && sa[c] === sb[c]) c++;
  return sa.length - c + (sb.length - c);
}

/** Per node: sum of tree distances to every marked node (rerooting, two linear passes). */
export function sumOfDistances(tree: Tree, marked: Uint8Array): Float64Array {
  const n = tree.n;
  const cnt = new Float64Array(n);
  const down = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    cnt[i] = (cnt[i] as number) + (marked[i] as number);
    const p = tree.parent[i] as number;
    if (p >= 0) {
      cnt[p] = (cnt[p] as number) + (cnt[i] as number);
      down[p] = (down[p] as number) + (down[i] as number) + (cnt[i] as number);
    }
  }
  const total = n > 0 ? (cnt[0] as number) : 0;
  const full = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = tree.parent[i] as number;
    full[i] = p < 0 ? (down[i] as number) : (full[p] as number) + total - 2 * (cnt[i] as number);
  }
  return full;
}

/** Same-domain links of the key page (not to itself), one per URL, ranked as in §2.1. */
export function rankSiteLinks(page: PageSnapshot, tree: Tree): SiteLink[] {
  const self = page.url ? normaliseUrl(page.url) : null;
  if (!self) return [];
  const host = hostKey(new URL(self));
  const firstNode = new Map<string, number>();
  const marked = new Uint8Array(tree.n);
  for (let i = 0; i < tree.n; i++) {
    const node = page.nodes[i] as SnapshotNode;
    const href = node.type === 1 && node.tag === "a" ? node.attrs?.["href"] : undefined;
    if (href === undefined) continue;
    const url = normaliseUrl(href, self);
    if (!url || url === self || hostKey(new URL(url)) !== host) continue;
    marked[i] = 1;
    if (!firstNode.has(url)) firstNode.set(url, i);
  }
  const dist = sumOfDistances(tree, marked);
  const links = [...firstNode].map(([url, node]) => ({
    url,
    node,
    hyperlinkDistance: hyperlinkDistance(self, url),
    domDistance: dist[node] as number,
  }));
  return links.sort(
    (x, y) => x.hyperlinkDistance - y.hyperlinkDistance || y.domDistance - x.domDistance || x.node - y.node,
  );
}

export interface RankedPage {
  page: PageSnapshot;
  hyperlinkDistance: number;
  /** DOM distance of the key page's link to it; -1 when the key page does not link to it. */
  domDistance: number;
}

/** Order given pages of the site (SiteContext) for the n-SET of `key`. */
export function rankSitePages(
  key: PageSnapshot,
  keyTree: Tree,
  pages: readonly PageSnapshot[],
): RankedPage[] {
  const links = new Map(rankSiteLinks(key, keyTree).map((l) => [l.url, l]));
  const self = key.url ? normaliseUrl(key.url) : null;
  const ranked: (RankedPage & { order: number })[] = [];
  pages.forEach((page, order) => {
    if (page === key) return;
    const url = page.url ? normaliseUrl(page.url) : null;
    if (url && url === self) return;
    const link = url ? links.get(url) : undefined;
    ranked.push({
      page,
      order,
      hyperlinkDistance: hyperlinkDistance(self, url),
      domDistance: link ? link.domDistance : -1,
    });
  });
  ranked.sort(
    (x, y) =>
      cmpDistance(x.hyperlinkDistance, y.hyperlinkDistance) ||
      y.domDistance - x.domDistance ||
      x.order - y.order,
  );
  return ranked.map(({ page, hyperlinkDistance, domDistance }) => ({ page, hyperlinkDistance, domDistance }));
}

function cmpDistance(a: number, b: number): number {
  if (a === b) return 0;
  return a < b ? -1 : 1; // Infinity-safe
}

/** Seeded shuffle (mulberry32) for the paper's random-selection baseline (Table 2, last row). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const rand = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
