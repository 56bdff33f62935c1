/**
 * pith's pipeline contracts — the first file a reader opens.
 *
 *   input (file | URL | dir | WARC | stdin) → PageInput
 *     → render (Chromium or static parser)   → PageSnapshot
 *     → features                              → FeatureTable (named, versioned schema)
 *     → segment + content classifiers         → scored nodes
 *     → refiners (LBS, SLS, TP)               → Extraction {text, nodes, trace}
 *     → output (text | markdown | html | json)
 *
 * A PageSnapshot is the single representation every later stage reads. Both renderers
 * (src/render/chromium.ts, src/render/static.ts) produce it; the static one leaves
 * geometry and computed style absent (never zero) so features can tell "unknown" from "0".
 */

/** Bump when the PageSnapshot shape or the meaning of a field changes. */
export const SNAPSHOT_VERSION = 1;

export type RenderMode = "chromium" | "static";

/** A page as bytes or decoded text, before rendering. */
export interface PageInput {
  /** Stable id for reports: dataset id, file path or URL. */
  id: string;
  /** Where it came from (file path, URL, "-" for stdin). */
  source: string;
  /** The page's own URL when known (used as base URL and for site grouping). */
  url: string | null;
  /** Decoded HTML (see src/io/decode.ts for the encoding rules). */
  html: string;
  /** How the bytes were decoded, e.g. "utf-8 (bom)", "shift_jis (meta)". */
  encoding: string;
  /** True when this input was fetched from the network (URL input). */
  remote: boolean;
  /** What was wrong with the bytes but did not stop the page (a truncated gzip), for its record. */
  warnings?: string[];
  /**
   * Set when an HTTP Content-Type says the page is XHTML (application/xhtml+xml): a browser
   * parses it as XML even without an XML declaration (src/render/xhtml.ts).
   */
  xhtml?: boolean;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Computed style, Chromium mode only. */
export interface NodeStyle {
  display: string;
  visibility: string;
  position: string;
  /** px */
  fontSize: number;
  /** 100..900 */
  fontWeight: number;
}

/** Attributes that later stages read; everything else is dropped at render time. */
export const KEPT_ATTRIBUTES = [
  "id",
  "class",
  "role",
  "itemprop",
  "itemtype",
  "itemscope",
  "href",
  "src",
  "alt",
  "hidden",
  "type",
  "lang",
  "style",
  "colspan",
  "rowspan",
  "start",
] as const;
/** Also kept: every attribute starting with this prefix (aria-label, aria-hidden, …). */
export const KEPT_ATTRIBUTE_PREFIX = "aria-";

export interface SnapshotNode {
  /** Index of the parent in PageSnapshot.nodes; -1 for the root element. Parents precede children. */
  parent: number;
  /** 1 = element, 3 = text (DOM nodeType numbers). */
  type: 1 | 3;
  /** Lower-case tag name for elements; "#text" for text nodes. */
  tag: string;
  /** Kept attributes (elements only). */
  attrs?: Record<string, string>;
  /** Raw text data (text nodes only; whitespace not collapsed). */
  text?: string;
  /** Border box in CSS px relative to the document (Chromium only). */
  box?: Box;
  /** Computed style (Chromium only, elements only). */
  style?: NodeStyle;
  /**
   * Rendered and visible. Chromium: has a layout box, visibility visible, not display:none
   * (text nodes inherit from their parent). Static: not inside hidden / aria-hidden=true /
   * inline display:none|visibility:hidden / <template>.
   */
  visible: boolean;
}

export interface PageMeta {
  canonicalUrl: string | null;
  ogType: string | null;
  schemaTypes: string[];
  /**
   * What the page states about itself (src/render/declared-meta.ts); absent in snapshots written before it.
   */
  declared?: DeclaredMeta;
  /**
   * Where a `<meta http-equiv="refresh" content="0; url=…">` sends the
   * browser, as written; absent when the page has none.
   */
  refreshUrl?: string;
}

/** Metadata a page declares in <meta> tags and JSON-LD; null when it does not say. */
export interface DeclaredMeta {
  description: string | null;
  author: string | null;
  /** As written by the page (usually ISO 8601). */
  published: string | null;
  modified: string | null;
  siteName: string | null;
  /** The lead image's URL as declared (og:image). */
  image: string | null;
}

export interface PageSnapshot {
  version: typeof SNAPSHOT_VERSION;
  mode: RenderMode;
  id: string;
  source: string;
  url: string | null;
  title: string;
  /** <html lang> when present. */
  lang: string | null;
  /** Full document size in CSS px (Chromium only). */
  document?: { width: number; height: number };
  /** Viewport used for layout (Chromium only). */
  viewport?: { width: number; height: number };
  /**
   * Metadata read from the raw HTML (src/render/page-meta.ts): canonical URL, og:type,
   * schema.org types. Absent in snapshots cached before it existed.
   */
  meta?: PageMeta;
  /** Every element and text node in document order (pre-order). Script/style bodies are not kept. */
  nodes: SnapshotNode[];
  /** Render time in ms, for benchmarks and reports. */
  ms: number;
  /** The input's warnings (PageInput.warnings), carried to the page's record. */
  warnings?: string[];
}

/** A page that could not be processed: what every batch reports instead of throwing. */
export interface PageError {
  id: string;
  source: string;
  /** Short machine-readable stage: "read", "decode", "render", "timeout", "extract", … */
  stage: string;
  /** One-line human-readable reason. */
  reason: string;
}

export type PageResult<T> = { ok: true; value: T } | { ok: false; error: PageError };

/** Options every renderer accepts. */
export interface RenderOptions {
  /** Run page JavaScript (default false). */
  javascript?: boolean;
  /** Allow network requests for local input (default false). URL input always may fetch its document. */
  network?: boolean;
  /** Load images, media and fonts (default false). */
  loadResources?: boolean;
  /** Per-page time limit in ms (default 15000). */
  timeoutMs?: number;
  /**
   * Read what the page declares about itself (PageMeta.declared: author, dates, description;
   * JSON output's `metadata`). Default false: it costs about 0.2 ms a page that other outputs,
   * evaluation and training do not need.
   */
  declaredMeta?: boolean;
}

export interface Renderer {
  readonly mode: RenderMode;
  render(input: PageInput, options?: RenderOptions): Promise<PageSnapshot>;
  close(): Promise<void>;
}

/** One removal or selection decision, so a user can ask "why was this dropped?". */
export interface TraceEntry {
  /** Pipeline step that decided, e.g. "content-classifier", "lbs", "cnr". */
  step: string;
  /** Node index in the snapshot (or -1 for text-level decisions). */
  node: number;
  /** Node path, e.g. "html>body>div#main>p:3". */
  path: string;
  action: "keep" | "drop";
  reason: string;
  /** First characters of the text concerned. */
  text: string;
  score?: number;
}

/** What every extractor (learned pipeline, paper algorithms, peers) returns. */
export interface Extraction {
  /** Extractor name, e.g. "ml", "cnr", "lbs". */
  method: string;
  /** Main content as plain text, one block per line. */
  text: string;
  /** Chosen snapshot node indices (roots of the chosen subtrees), in document order. */
  nodes: number[];
  /** Optional per-chosen-node scores, parallel to `nodes`. */
  scores?: number[];
  /** Model or configuration used. */
  model?: string;
  /** Decisions, in order. */
  trace: TraceEntry[];
  /** Set when the extractor returned nothing on purpose (no text, no site context, …). */
  emptyReason?: string;
  /**
   * The snapshot the extractor read when it is not the input (same nodes, other visibility: a
   * static model that reads markup-hidden text, src/pipeline/hidden-text.ts). The output formats
   * render the chosen nodes from it.
   */
  view?: PageSnapshot;
}

/** Site context: other pages of the same site, for the site-level methods and features. */
export interface SiteContext {
  domain: string;
  pages: PageSnapshot[];
}

export interface ExtractorContext {
  site?: SiteContext;
  /** The render mode whose model a learned method uses (default: the snapshot's own mode). */
  mode?: RenderMode;
  /** A learned method's model file (default: a per-domain model, else the bundled one for the mode). */
  model?: string;
  /** Where per-domain models are looked up before the bundled models/ (`pith train --domain` writes them). */
  modelDir?: string;
  /**
   * The learned pipeline's site-aware model (`pith extract --site-features on`): used, with the
   * site features computed against `site`, on a page whose site has at least SITE_MIN_PAGES pages
   * at hand (src/io/site-group.ts); a page with fewer keeps the single-page model. Unset: the site
   * context never reaches the learned pipeline.
   */
  siteModel?: string;
  /** Record a trace of every keep/drop decision (default true; only JSON output shows it). */
  trace?: boolean;
  /** The page's gold text, for a method that reads it (Extractor.needsGold: `pith evaluate` only). */
  gold?: string;
  /** The method's own knobs (`--param K=V`), each declared in Extractor.knownParams. */
  params?: Record<string, number | string | boolean>;
}

export interface Extractor {
  readonly name: string;
  /** One-line description with the paper it comes from. */
  readonly description: string;
  /** True when the method needs other pages of the same site (SiteContext) to work. */
  readonly needsSite?: boolean;
  /** True when the method reads the page's gold text (ExtractorContext.gold): it runs in `pith evaluate` only. */
  readonly needsGold?: boolean;
  /** Checks and loads what every page needs (e.g. a model) before a batch; throws one clear error. */
  prepare?(context: ExtractorContext): Promise<void>;
  /** Throws on a parameter value the method cannot use (the CLI makes it a usage error). */
  checkParams?(params: NonNullable<ExtractorContext["params"]>): void;
  /**
   * Every param the method reads, when it declares them: a command
   * running it alone refuses other names (a typo).
   */
  readonly knownParams?: readonly string[];
  /**
   * The snapshot the method reads when it is not the page as rendered (the learned pipeline's
   * static models also read markup-hidden text, src/pipeline/hidden-text.ts): runExtractor looks
   * for visible words in it. Default: the page.
   */
  view?(page: PageSnapshot, context: ExtractorContext): PageSnapshot | Promise<PageSnapshot>;
  /**
   * The method on one page. Commands call it through runExtractor (src/extractors.ts), which has
   * already turned a feed, a sitemap or a page without visible words into an empty extraction;
   * called directly it must still give an empty extraction with a reason there, never throw.
   */
  extract(page: PageSnapshot, context?: ExtractorContext): Extraction | Promise<Extraction>;
}
