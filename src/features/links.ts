/**
 * Link-target features: where a node's links point. Link density (dom_anchor_ratio) says how
 * much of a node is link text; it does not say whether the links lead off the site (citations,
 * sources, shop partners), to the site's home and section pages (menus), to pages shaped like
 * this one (related articles, "similar items" cards) or inside the page (tables of contents).
 * Motivation (pith, measured on wcxb-dev, static, words in anchors by target, share of them in
 * the gold; .scratch/linksig.mts): article pages' external-link words are 43 % main, internal
 * ones 7-14 %; collection pages' deep internal links 37 % main, same-shaped ones 11 %, section
 * links 16 %. None of the four papers reads link targets.
 *
 * Choices (written down because nothing here is from a paper):
 *  - The page's own host is the host of its URL (input URL, else canonical / og:url, as the page
 *    features read it: src/features/page.ts pageUrl). Without one, it is the most frequent host
 *    among absolute links when absolute links outnumber relative ones (sites that write every
 *    internal link in full), else unknown, and then every absolute link counts as external.
 *    Hosts compare by their registrable part (siteOfHost: subdomains are the same site).
 *  - A link is: in-page (a fragment "#…", or the page's own URL), external (another host), a section link (same host, at most
 *    one path segment, no query: home, categories), same-shaped (same host, as many path segments
 *    as the page's URL and the same first segment, not the page itself), or another internal
 *    link. javascript:, mailto: and tel: links and anchors without href count in none.
 *  - Same-shaped is NaN without a page URL (nothing to compare with).
 *  - hrefs are read as strings (no URL parser: a page has hundreds of links), "../" is not
 *    resolved; a relative path is taken relative to the page's directory.
 * Each column is the share of the node's content words inside links of one kind; the
 * LINK_ANCESTOR-th ancestor's shares describe the card or box around a leaf.
 * Linear time, no recursion: one forward pass (the link a node is in), one reverse pass (sums).
 */
import type { SnapshotNode } from "../types.ts";
import { pageUrl } from "./page.ts";
import { def, ratio, type FeatureDef, type FeatureFamily, type PageFacts } from "./registry.ts";

/** Ancestor whose link shares describe "the box around this node" (as region.ts PRICE_ANCESTOR). */
export const LINK_ANCESTOR = 3;

export const LINK_KINDS = ["in_page", "external", "section", "same_shape", "internal"] as const;
export type LinkKind = (typeof LINK_KINDS)[number];
const NONE = -1;

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const AUTHORITY = /^(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#]*)([^?#]*)(\?[^#]*)?/i;
const IGNORED_SCHEMES = new Set(["javascript", "mailto", "tel", "data", "sms"]);

/**
 * The registrable part of a host, approximately: its last two labels, or three when the second
 * to last is a short public suffix label ("bbc.co.uk", "abc.net.au"). Subdomains of one site
 * (shop.example.com, www.example.com) are the same site; no public-suffix list is shipped.
 */
function siteOfHost(authority: string): string {
  const at = authority.lastIndexOf("@");
  const host = (at >= 0 ? authority.slice(at + 1) : authority).replace(/:\d*$/, "").replace(/\.$/, "").toLowerCase();
  const labels = host.split(".");
  if (labels.length <= 2) return host;
  const keep = (labels[labels.length - 2] as string).length <= 3 && (labels[labels.length - 1] as string).length === 2 ? 3 : 2;
  return labels.slice(-keep).join(".");
}

function segments(path: string): string[] {
  return path.split("/").filter((s) => s.length > 0);
}

/** The page's host and path segments, as far as they are known. */
export interface LinkBase {
  host: string | null;
  /** Path segments of the page's URL; null without a URL. */
  path: string[] | null;
  /** The page's path + query, to recognise links to itself. */
  self: string | null;
}

/** A parsed href: absolute (with host) or relative (path only). */
interface Href {
  host: string | null;
  path: string;
  query: string;
}

function parseHref(href: string): Href | "fragment" | null {
  if (href.length === 0) return null;
  if (href.charCodeAt(0) === 35) return "fragment"; // '#'
  const scheme = SCHEME.exec(href);
  if (scheme && IGNORED_SCHEMES.has((scheme[1] as string).toLowerCase())) return null;
  const abs = AUTHORITY.exec(href);
  if (abs) return { host: siteOfHost(abs[1] as string), path: abs[2] as string, query: abs[3] ?? "" };
  if (scheme) return null; // another scheme without an authority
  const cut = href.search(/[?#]/);
  const path = cut >= 0 ? href.slice(0, cut) : href;
  const query = cut >= 0 && href[cut] === "?" ? href.slice(cut).replace(/#.*$/, "") : "";
  return { host: null, path, query };
}

/** The page's host and path: its URL, else the dominant absolute-link host (see the header). */
export function linkBase(f: PageFacts, hrefs: readonly Href[]): LinkBase {
  const url = pageUrl(f.page);
  if (url) return { host: siteOfHost(url.host), path: segments(url.pathname), self: url.pathname + url.search };
  const counts = new Map<string, number>();
  let relative = 0;
  for (const h of hrefs) {
    if (h.host === null) relative++;
    else counts.set(h.host, (counts.get(h.host) ?? 0) + 1);
  }
  let host: string | null = null;
  let best = 0;
  for (const [k, c] of counts) if (c > best) [host, best] = [k, c];
  return { host: hrefs.length - relative > relative ? host : null, path: null, self: null };
}

function kindOf(h: Href, base: LinkBase): LinkKind {
  if (h.host !== null && h.host !== base.host) return "external";
  let segs: string[];
  if (h.host !== null || h.path.startsWith("/")) segs = segments(h.path);
  else if (base.path) segs = [...base.path.slice(0, -1), ...segments(h.path)];
  else segs = segments(h.path);
  if (base.self !== null && (h.path.length === 0 || `/${segs.join("/")}${h.query}` === base.self || `/${segs.join("/")}/${h.query}` === base.self)) return "in_page";
  if (segs.length <= 1 && h.query.length <= 1) return "section";
  if (base.path && base.path.length > 0 && segs.length === base.path.length && segs[0] === base.path[0]) return "same_shape";
  return "internal";
}

/** Per node: the kind (index into LINK_KINDS) of the link it is in, or NONE. */
export function linkKinds(f: PageFacts): Int8Array {
  const { page, tree } = f;
  const hrefAt = new Map<number, Href | "fragment">();
  for (let i = 0; i < tree.n; i++) {
    const node = page.nodes[i] as SnapshotNode;
    if (node.type !== 1 || node.tag !== "a") continue;
    const h = parseHref((node.attrs?.["href"] ?? "").trim());
    if (h) hrefAt.set(i, h);
  }
  const base = linkBase(f, [...hrefAt.values()].filter((h): h is Href => h !== "fragment"));
  const kind = new Int8Array(tree.n).fill(NONE);
  for (let i = 0; i < tree.n; i++) {
    const p = tree.parent[i] as number;
    if (p >= 0 && kind[p] !== NONE) kind[i] = kind[p] as number;
    else {
      const h = hrefAt.get(i);
      if (h !== undefined) kind[i] = LINK_KINDS.indexOf(h === "fragment" ? "in_page" : kindOf(h, base));
    }
  }
  return kind;
}

function linkDefs(): FeatureDef[] {
  const P = "pith";
  const own = LINK_KINDS.map((k) => def(`lnk_${k}`, `share of the node's words in ${k.replace("_", "-")} links (see src/features/links.ts)`, P));
  const around = (["external", "section", "same_shape"] as const).map((k) =>
    def(`lnk_anc${LINK_ANCESTOR}_${k}`, `share of the ${LINK_ANCESTOR}. ancestor's words in ${k.replace("_", "-")} links`, P),
  );
  return [...own, ...around];
}

export const linkFamily: FeatureFamily = {
  family: "links",
  defs: linkDefs(),
  fill(f, out) {
    const { page, tree, stats } = f;
    const K = LINK_KINDS.length;
    const kind = linkKinds(f);
    const sums = new Int32Array(tree.n * K);
    for (let i = tree.n - 1; i >= 0; i--) {
      const k = kind[i] as number;
      if (k !== NONE && (page.nodes[i] as SnapshotNode).type === 3) sums[i * K + k] = (sums[i * K + k] as number) + (stats.words[i] as number);
      const p = tree.parent[i] as number;
      if (p >= 0) for (let c = 0; c < K; c++) sums[p * K + c] = (sums[p * K + c] as number) + (sums[i * K + c] as number);
    }
    const hasPath = pageUrl(page) !== null;
    const own = LINK_KINDS.map((k) => out.col(`lnk_${k}`));
    const aroundKinds = [1, 2, 3];
    const around = aroundKinds.map((k) => out.col(`lnk_anc${LINK_ANCESTOR}_${LINK_KINDS[k]}`));
    const sameShape = LINK_KINDS.indexOf("same_shape");
    for (let row = 0; row < f.rows.length; row++) {
      const i = f.rows[row] as number;
      const w = stats.words[i] as number;
      for (let k = 0; k < K; k++) out.set(row, own[k] as number, k === sameShape && !hasPath ? NaN : ratio(sums[i * K + k] as number, w));
      let a = i;
      for (let up = 0; up < LINK_ANCESTOR && a >= 0; up++) a = tree.parent[a] as number;
      for (let j = 0; j < aroundKinds.length; j++) {
        const k = aroundKinds[j] as number;
        out.set(row, around[j] as number, a < 0 || (k === sameShape && !hasPath) ? NaN : ratio(sums[a * K + k] as number, stats.words[a] as number));
      }
    }
  },
};
