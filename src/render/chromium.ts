/**
 * Chromium renderer: lays pages out in a headless system Chromium (via puppeteer-core; this is
 * the only file that imports it) and snapshots every element and text node with its box and
 * computed style (see in-page.ts for the walk).
 *
 * A browser is reused across pages with a small pool of tabs (default 2 rendering at once);
 * a tab is replaced after TAB_MAX_PAGES pages to bound its memory.
 *
 * Resource policy (the same for training and prediction):
 * - local input (`remote: false`), the default: no network at all. The tab blocks every
 *   network scheme in the browser (Network.setBlockedURLs: blocked requests fail at once), the
 *   browser resolves no hostname but 127.0.0.1 and sends anything else to a dead proxy (which
 *   also stops preconnects and iframe navigations). JavaScript off unless `javascript`. The HTML
 *   is written into the tab with document.write (as Puppeteer's setContent does) after a
 *   `<base href>` for `input.url`; with JavaScript off, writing and walking is ONE CDP call.
 *   These tabs are driven over a bare CDP session (OfflineTab), not a Puppeteer Page.
 * - URL input (`remote`), or `network: true`: a Puppeteer Page navigates to the page's URL and
 *   the document request is answered with the HTML src/io already fetched (NetworkTab).
 *   Scripts, stylesheets, XHR/fetch go out only when JavaScript is on (what the page needs to
 *   build its DOM); images, media and fonts only with `loadResources`. Chromium's Local Network
 *   Access checks stay on: a public page cannot reach 127.0.0.1 or private addresses.
 * A page that sends the browser elsewhere (script, meta refresh) stays: the navigation is aborted
 * and the page read as it stood (stayOnWrittenDocument).
 * Blink's image switch and the offline network ban are launch flags, so each combination in
 * use gets its own browser, launched on first use.
 *
 * Failure handling: a per-page time limit covers getting a tab, loading and the walk; the
 * `load` event (document "complete") is waited for during LOAD_WAIT_SHARE of it, then the DOM
 * is walked as it stands. On timeout the render rejects at once with "timeout: …" and, in the
 * background, the tab is closed and the browser killed if it stopped answering. A crashed or
 * disconnected browser is relaunched for the next page.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import type { Browser, CDPSession, HTTPRequest, Page } from "puppeteer-core";
import type { PageInput, PageSnapshot, RenderOptions, Renderer } from "../types.ts";
import { SNAPSHOT_VERSION } from "../types.ts";
import { killChromium, processTree, releaseBrowser, trackBrowser } from "./browser-processes.ts";
import { findChromium } from "./find-browser.ts";
import { INJECTED_MARKER, decodeWalk, walkConfig, walkExpression, writeAndWalkExpression, writeExpression } from "./in-page.ts";
import type { WalkResult } from "./in-page.ts";
import { closeSelfClosedIframes } from "./repair.ts";
import { pageMeta } from "./page-meta.ts";
import { hideEscapedNoscriptMarkup } from "./escaped-markup.ts";
import { revealScriptHiddenPage } from "./reveal.ts";
import { withoutControls } from "./control-chars.ts";
import { isXhtml, xhtmlAsHtml } from "./xhtml.ts";

/** Layout viewport (a common laptop screen), for every page. */
export const VIEWPORT = { width: 1366, height: 768 } as const;
/** Per-page time limit when the caller gives none. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Tabs rendering at once; 2 vCPU gain only 1.3-1.7x from parallel pages (DEPENDENCIES.md). */
export const DEFAULT_CONCURRENCY = 2;
/** Share of the time limit spent waiting for the `load` event; after it the DOM is walked as is. */
const LOAD_WAIT_SHARE = 0.6;
/**
 * A tab is closed and replaced after this many pages: its renderer's memory grows by a few MB
 * per written document (old documents and evaluated sources are kept; measured 150 MB -> 560 MB
 * over 100 wcxb pages), and a fresh tab starts from ~150 MB again.
 */
const TAB_MAX_PAGES = 20;
/** Poll interval while an offline page is still loading (its parser waits on a failing resource, or scripts run). */
const READY_POLL_MS = 5;
/** How long closing a tab or asking the browser for its version may take before we give up on it. */
const CLOSE_TAB_TIMEOUT_MS = 3_000;
const PING_TIMEOUT_MS = 3_000;
/** Browser start-up limit (a cold start takes 0.3-0.5 s here). */
const LAUNCH_TIMEOUT_MS = 30_000;
/** CDP call limit; a 10 MB page goes through one call. */
const PROTOCOL_TIMEOUT_MS = 120_000;

/**
 * Launch flags that work offline and as root. --no-sandbox: root cannot use the setuid sandbox.
 * The rest stop background traffic (updates, sync, first-run pages, QUIC), avoid /dev/shm
 * (small in containers) and the GPU. Puppeteer adds --headless=new and --hide-scrollbars.
 */
const BASE_FLAGS = [
  "--no-sandbox",
  "--headless=new",
  "--disable-gpu",
  "--disable-component-update",
  "--disable-background-networking",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
  "--disable-quic",
  // Text metrics without hinting, in both builds: the headless shell (find-browser.ts) otherwise
  // hints glyphs to whole pixels (text boxes 1-3 % off the full browser's); with it, 57 of 60
  // wcxb-dev snapshots are identical to the full browser's and 3 differ by < 1 px in a few boxes.
  // The full browser's snapshots do not change.
  "--font-render-hinting=none",
  // Chromium 14x+ headless runs the WebUI omnibox popup in its own renderer, which redraws on
  // every document we write: ~12 ms renderer + ~8 ms browser CPU per page (measured, 2 vCPU).
  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
] as const;
/** Every hostname fails to resolve except 127.0.0.1 (interception alone misses preconnects). */
const OFFLINE_RESOLVER_FLAG = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1";
/** Images off in Blink: same boxes as blocking them, and no image requests at all. */
const NO_IMAGES_FLAG = "--blink-settings=imagesEnabled=false";

/**
 * Offline tabs block every network scheme inside the browser (Network.setBlockedURLs, URLPattern
 * syntax; the port wildcard is required for URLs with a port). Blocked requests fail at once, so
 * the parser never waits on a stylesheet; Node-side interception fails them asynchronously.
 */
const OFFLINE_BLOCK_PATTERNS = ["http", "https", "ws", "wss", "ftp", "file"].flatMap((scheme) => [
  { urlPattern: `${scheme}://*:*/*`, block: true },
  { urlPattern: `${scheme}://*/*`, block: true },
]);
/**
 * Defence in depth for offline browsers: anything that still reaches the network stack
 * (preconnects to IP literals, which skip the host resolver) goes to a proxy that cannot
 * resolve. `<-loopback>` removes the implicit proxy bypass for 127.0.0.1/localhost.
 */
const OFFLINE_PROXY_FLAGS = ["--proxy-server=http://pith-offline.invalid:9", "--proxy-bypass-list=<-loopback>"] as const;

/** Request types a page needs to build its DOM with JavaScript on. */
const DOM_BUILDING_TYPES = new Set(["script", "stylesheet", "xhr", "fetch", "eventsource", "websocket", "other"]);
/** Request types allowed only with `loadResources`. */
const HEAVY_TYPES = new Set(["image", "media", "font"]);
/** URLs that never touch the network. */
const LOCAL_URL = /^(?:data|about|blob):/i;

/** What one tab may load for the page being rendered. */
export interface RequestPolicy {
  network: boolean;
  javascript: boolean;
  loadResources: boolean;
}

/** The resource policy as a pure function: may a request of this type to this URL go out? */
export function allowRequest(policy: RequestPolicy, url: string, resourceType: string): boolean {
  if (LOCAL_URL.test(url)) return true;
  if (!policy.network) return false;
  if (HEAVY_TYPES.has(resourceType)) return policy.loadResources;
  return policy.javascript && DOM_BUILDING_TYPES.has(resourceType);
}

/** Leading comments then a doctype; each comment stops at its first "-->" (no backtracking blow-up). */
const DOCTYPE_PREFIX = /^\uFEFF?\s*(?:<!--(?:(?!-->)[\s\S])*-->\s*)*<!doctype[^>]*>/i;
const BASE_HREF = /<base\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
/** A document's own <base> is looked for in this many leading characters (it belongs in <head>). */
const HEAD_SCAN_CHARS = 65_536;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/**
 * Insert `<base href>` (after the doctype, so the document keeps its rendering mode) so
 * relative URLs resolve against the page's URL. A document's own <base> is resolved against
 * the URL first and wins, as it would in a navigation.
 */
export function injectBase(html: string, url: string | null): string {
  if (url === null) return html;
  let base: string;
  try {
    const own = BASE_HREF.exec(html.slice(0, HEAD_SCAN_CHARS));
    const ownHref = own ? (own[1] ?? own[2] ?? own[3] ?? "") : "";
    base = new URL(ownHref.trim(), url).href;
  } catch {
    return html;
  }
  const tag = `<base ${INJECTED_MARKER} href="${escapeAttribute(base)}">`;
  const doctype = DOCTYPE_PREFIX.exec(html.slice(0, HEAD_SCAN_CHARS));
  const at = doctype ? doctype[0].length : 0;
  return html.slice(0, at) + tag + html.slice(at);
}

class TimeoutError extends Error {}

/**
 * Wait for a page load, but past its own deadline (a resource that never arrives) carry on
 * and walk the DOM as it stands. Any other failure is one.
 */
async function untilLoadedOrLate(load: Promise<unknown>): Promise<void> {
  try {
    await load;
  } catch (err) {
    if (!(err instanceof Error && err.name === "TimeoutError")) throw err;
  }
}

/** Stand-in document URL for pages without an http(s) URL of their own (never resolved). */
const SYNTHETIC_DOCUMENT_URL = "http://pith.invalid/";

/** The URL a page is navigated to: its own http(s) URL without fragment, else a stand-in. */
export function documentUrl(url: string | null): string {
  if (url === null) return SYNTHETIC_DOCUMENT_URL;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return SYNTHETIC_DOCUMENT_URL;
    parsed.hash = "";
    return parsed.href;
  } catch {
    return SYNTHETIC_DOCUMENT_URL;
  }
}

/** Race `work` against a timer; the loser's outcome is ignored (never an unhandled rejection). */
async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  work.catch(() => undefined);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(message)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A counting semaphore for the page pool. */
class Slots {
  private free: number;
  private waiting: (() => void)[] = [];
  constructor(n: number) {
    this.free = n;
  }
  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/** A browser tab the renderer writes pages into and walks. */
interface Tab {
  /** The tab's CDP target id: the openerId of the popups its pages open (BrowserHandle.closePopups). */
  readonly targetId: string;
  /** Pages rendered in this tab (see TAB_MAX_PAGES). */
  pages: number;
  /**
   * Page scripts ran in this window: the tab is closed instead of reused, so no timer or global
   * carries over. (Navigating it to about:blank is not enough: Chromium then refuses
   * document.write()-inserted external scripts in that tab, net::ERR_FAILED.)
   */
  dirty: boolean;
  /** The tab crashed or closed (TabEnd): it cannot render another page. */
  readonly ended: boolean;
  render(input: PageInput, policy: RequestPolicy, timeoutMs: number): Promise<WalkResult>;
  close(): Promise<void>;
}

function loadWaitMs(timeoutMs: number): number {
  return Math.max(1, Math.floor(timeoutMs * LOAD_WAIT_SHARE));
}

/** Why a tab ended under its page, as the page's error record says it. */
const TAB_CRASHED = "the tab crashed (its Chromium renderer process died: out of memory, or killed)";
const WINDOW_CLOSED = "the page closed its own window (window.close())";

/**
 * The end of a tab under its page: its renderer crashed (a memory bomb) or the page closed its
 * window. A render races its work against it, so such a page fails at once saying what
 * happened; without it a crashed tab's pending calls never answered and the page failed at its
 * time limit as a "timeout", and a closed one as "Protocol error: Target closed".
 */
class TabEnd {
  over = false;
  private fail: (err: Error) => void = () => undefined;
  private readonly ended = new Promise<never>((_, reject) => {
    this.fail = reject;
  });

  constructor() {
    this.ended.catch(() => undefined); // no render may be waiting
  }

  end(reason: string): void {
    this.over = true;
    this.fail(new Error(reason));
  }

  race<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.ended]);
  }
}

/**
 * A page that sends the browser elsewhere (`location.href = …`, `<meta http-equiv=refresh>`, a
 * form submitted by script) is read as it stood, as in static mode: pith does not follow. The
 * block list alone would fail such a navigation with net::ERR_BLOCKED_BY_CLIENT, and Chromium then
 * replaces the page with its (textless) error page, so an article came out empty. A navigation
 * that fails as "aborted" commits nothing and leaves the page in place. Every document request of
 * an offline tab (navigations, iframes: the written page itself is no request) is aborted here,
 * before the block list sees it.
 */
async function stayOnWrittenDocument(session: CDPSession): Promise<void> {
  session.on("Fetch.requestPaused", (event) => {
    session.send("Fetch.failRequest", { requestId: event.requestId, errorReason: "Aborted" }).catch(() => undefined);
  });
  await session.send("Fetch.enable", { patterns: [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }] });
}

/**
 * A tab for pages that may not use the network, driven over a bare CDP session rather than a
 * Puppeteer Page: Puppeteer's Page enables its network tracking, and every (blocked) subresource
 * then costs two events through the browser into Node. Measured on wcxb pages: 125 vs 143 CPU
 * ms per page. The session needs only Runtime, Emulation and Network (for the block list).
 */
class OfflineTab implements Tab {
  pages = 0;
  dirty = false;
  private javascript: boolean | null = null;
  private dialogsHandled = false;
  private readonly end = new TabEnd();
  get ended(): boolean {
    return this.end.over;
  }
  /** Control-session listener: the page closed its window (our own close() detaches it first). */
  private readonly onDetached = (event: { sessionId: string }): void => {
    if (event.sessionId === this.session.id()) this.end.end(WINDOW_CLOSED);
  };

  private constructor(
    private readonly control: CDPSession,
    readonly targetId: string,
    private readonly session: CDPSession,
  ) {
    session.on("Inspector.targetCrashed", () => this.end.end(TAB_CRASHED));
    control.on("Target.detachedFromTarget", this.onDetached);
  }

  /** `control` is a browser-level session (Target domain). */
  static async open(control: CDPSession): Promise<OfflineTab> {
    const { targetId } = await control.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await control.send("Target.attachToTarget", { targetId, flatten: true });
    const session = control.connection()?.session(sessionId);
    if (!session) throw new Error("Chromium opened a tab without a CDP session");
    // The block list holds while this session (the tab's lifetime) stays attached. It needs the
    // Network domain on: without Network.enable a local server received the stylesheet and image
    // requests of a written page (checked session 11, headless shell 156).
    await session.send("Network.enable");
    await session.send("Network.setBlockedURLs", { urlPatterns: OFFLINE_BLOCK_PATTERNS });
    await session.send("Emulation.setDeviceMetricsOverride", { ...VIEWPORT, deviceScaleFactor: 1, mobile: false });
    await stayOnWrittenDocument(session);
    return new OfflineTab(control, targetId, session);
  }

  render(input: PageInput, policy: RequestPolicy, timeoutMs: number): Promise<WalkResult> {
    return this.end.race(this.writeAndWalk(input, policy, timeoutMs));
  }

  private async writeAndWalk(input: PageInput, policy: RequestPolicy, timeoutMs: number): Promise<WalkResult> {
    await this.setJavaScript(policy.javascript);
    this.dirty = policy.javascript;
    const html = injectBase(policy.javascript ? input.html : closeSelfClosedIframes(input.html), input.url);
    const config = walkConfig(policy.javascript);
    if (!policy.javascript) {
      // No script runs and nothing loads: one call writes and walks, unless the parser still
      // waits (document not "complete"), then we poll like the JavaScript case.
      const done = await this.evaluate<WalkResult | null>(writeAndWalkExpression(html, config));
      if (done) return done;
    } else {
      await this.evaluate(writeExpression(html));
    }
    await this.untilComplete(performance.now() + loadWaitMs(timeoutMs));
    return this.evaluate<WalkResult>(walkExpression(config));
  }

  /** Poll document.readyState until "complete" or the deadline; then the DOM is walked as is. */
  private async untilComplete(deadline: number): Promise<void> {
    while (performance.now() < deadline) {
      if ((await this.evaluate<string>("document.readyState")) === "complete") return;
      await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
    }
  }

  private async evaluate<T>(expression: string): Promise<T> {
    const reply = await this.session.send("Runtime.evaluate", { expression, returnByValue: true });
    if (reply.exceptionDetails) {
      const details = reply.exceptionDetails;
      throw new Error(`in-page script failed: ${firstLine(details.exception?.description ?? details.text)}`);
    }
    return reply.result.value as T;
  }

  private async setJavaScript(on: boolean): Promise<void> {
    if (this.javascript === on) return;
    await this.session.send("Emulation.setScriptExecutionDisabled", { value: !on });
    this.javascript = on;
    if (on && !this.dialogsHandled) {
      // alert()/confirm() would block the page until answered.
      this.dialogsHandled = true;
      this.session.on("Page.javascriptDialogOpening", () => {
        this.session.send("Page.handleJavaScriptDialog", { accept: false }).catch(() => undefined);
      });
      await this.session.send("Page.enable");
    }
  }

  async close(): Promise<void> {
    this.control.off("Target.detachedFromTarget", this.onDetached);
    await this.control.send("Target.closeTarget", { targetId: this.targetId });
  }
}

/** How Chromium names a navigation that failed as "aborted" (see stayOnWrittenDocument). */
const ABORTED_NAVIGATION = "net::ERR_ABORTED";
const DOCUMENT_COMPLETE = "document.readyState === 'complete'";

/**
 * A tab for pages that may use the network: a Puppeteer Page with request interception (the
 * policy in allowRequest). The page is loaded by a navigation to its own URL whose document
 * request is answered with the HTML src/io already fetched: the page gets its real URL and
 * origin (its own XHR/fetch are same-origin) and its scripts come through the network path.
 * (document.write() would make Chromium refuse cross-site scripts - "parser-blocking, cross
 * site script invoked via document.write" - on what it deems a slow connection.)
 */
class NetworkTab implements Tab {
  pages = 0;
  dirty = false;
  private policy: RequestPolicy = { network: true, javascript: false, loadResources: false };
  private javascript = true;
  /** While navigating: the document to answer the main-frame request for `url` with, and whether it was. */
  private document: { url: string; html: string; served: boolean } | null = null;

  private readonly end = new TabEnd();
  get ended(): boolean {
    return this.end.over;
  }

  private constructor(
    private readonly page: Page,
    readonly targetId: string,
  ) {}

  static async open(browser: Browser): Promise<NetworkTab> {
    const page = await browser.newPage();
    const tab = new NetworkTab(page, await pageTargetId(page));
    await page.setRequestInterception(true);
    page.on("request", (req: HTTPRequest) => void tab.onRequest(req).catch(() => undefined));
    // alert()/confirm()/prompt() are dismissed. A beforeunload prompt (a page asking to stay) is
    // accepted: dismissing it made the next page's navigation, in a new tab, fail with
    // net::ERR_ABORTED (every time at --concurrency 1).
    page.on("dialog", (dialog) => void (dialog.type() === "beforeunload" ? dialog.accept() : dialog.dismiss()).catch(() => undefined));
    page.on("error", () => tab.end.end(TAB_CRASHED)); // Puppeteer's "Page crashed!"
    return tab;
  }

  render(input: PageInput, policy: RequestPolicy, timeoutMs: number): Promise<WalkResult> {
    return this.end.race(this.loadAndWalk(input, policy, timeoutMs));
  }

  private async loadAndWalk(input: PageInput, policy: RequestPolicy, timeoutMs: number): Promise<WalkResult> {
    if (this.javascript !== policy.javascript) {
      await this.page.setJavaScriptEnabled(policy.javascript);
      this.javascript = policy.javascript;
    }
    this.policy = policy;
    const doc = { url: documentUrl(input.url), html: policy.javascript ? input.html : closeSelfClosedIframes(input.html), served: false };
    this.document = doc;
    try {
      await this.load(doc, performance.now() + loadWaitMs(timeoutMs));
    } finally {
      this.document = null;
    }
    return (await this.page.evaluate(walkExpression(walkConfig(policy.javascript)))) as WalkResult;
  }

  /**
   * Navigate to the page (onRequest answers its document request) and wait for its load until
   * `deadline`, then carry on as it stands. A navigation away that the page starts is aborted
   * (onRequest) and Puppeteer's goto, which takes it for its own, rejects with net::ERR_ABORTED
   * though the page stands: wait for the load as goto would have. One that the tab's previous
   * page started (its meta refresh firing as this page began: 2 runs in 40) aborts ours before
   * our document was served: navigate once more.
   */
  private async load(doc: { url: string; served: boolean }, deadline: number, retried = false): Promise<void> {
    const timeout = () => Math.max(1, deadline - performance.now());
    try {
      await untilLoadedOrLate(this.page.goto(doc.url, { waitUntil: "load", timeout: timeout() }));
    } catch (err) {
      if (!firstLine(err).includes(ABORTED_NAVIGATION)) throw err;
      if (doc.served) await untilLoadedOrLate(this.page.waitForFunction(DOCUMENT_COMPLETE, { timeout: timeout(), polling: READY_POLL_MS }));
      else if (!retried) await this.load(doc, deadline, true);
      else throw err;
    }
  }

  private async onRequest(req: HTTPRequest): Promise<void> {
    if (req.isInterceptResolutionHandled()) return;
    const doc = this.document;
    if (doc && req.isNavigationRequest() && req.frame() === this.page.mainFrame() && req.url() === doc.url) {
      doc.served = true;
      await req.respond({ status: 200, contentType: "text/html; charset=utf-8", body: doc.html });
      return;
    }
    if (allowRequest(this.policy, req.url(), req.resourceType())) await req.continue();
    // A navigation away (or an iframe) fails as "aborted": the page stays (stayOnWrittenDocument).
    else await req.abort(req.resourceType() === "document" ? "aborted" : "blockedbyclient");
  }

  async close(): Promise<void> {
    await this.page.close({ runBeforeUnload: false });
  }
}

/**
 * A Puppeteer page's CDP target id, which Puppeteer keeps to itself: the page's own target
 * answers Target.getTargetInfo (no target id: the session's own) on a session of its own.
 */
async function pageTargetId(page: Page): Promise<string> {
  const session = await page.createCDPSession();
  try {
    return (await session.send("Target.getTargetInfo")).targetInfo.targetId;
  } finally {
    void session.detach().catch(() => undefined);
  }
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split("\n")[0] ?? "").trim();
}

/** One running browser (offline or network-enabled) and its idle tabs. */
class BrowserHandle {
  private idle: Tab[] = [];
  alive = true;
  /** Tabs that pages opened and that are still open, each with the target that opened it (watchPopups). */
  readonly popups = new Map<string, string>();
  /** Target ids of the tabs rendering a page now (taken, not yet given back or discarded). */
  private readonly busy = new Set<string>();

  private constructor(
    readonly browser: Browser,
    /** Browser-level CDP session: opens and closes offline tabs. */
    private readonly control: CDPSession,
    private readonly tempDir: string,
    /** May this browser's tabs use the network at all (decides the kind of tab)? */
    private readonly network: boolean,
  ) {
    browser.on("disconnected", () => {
      this.alive = false;
    });
  }

  static async launch(kind: BrowserKind, executablePath: string): Promise<BrowserHandle> {
    const { network, images } = kind;
    const tempDir = mkdtempSync(join(tmpdir(), "pith-browser-"));
    trackBrowser(tempDir);
    const args: string[] = [...BASE_FLAGS];
    if (!images) args.push(NO_IMAGES_FLAG);
    if (!network) args.push(OFFLINE_RESOLVER_FLAG, ...OFFLINE_PROXY_FLAGS);
    try {
      const browser = await puppeteer.launch({
        executablePath,
        headless: true,
        // CDP over a pipe instead of a WebSocket: no framing or masking of the ~0.3 MB each
        // page sends each way (Node 20.7 → 16.5, browser 30.4 → 27.5 CPU ms per wcxb-dev page).
        pipe: true,
        args,
        userDataDir: join(tempDir, "profile"),
        env: { ...process.env, XDG_CONFIG_HOME: join(tempDir, "config"), XDG_CACHE_HOME: join(tempDir, "cache") },
        defaultViewport: VIEWPORT,
        timeout: LAUNCH_TIMEOUT_MS,
        protocolTimeout: PROTOCOL_TIMEOUT_MS,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      ignorePipeResets(browser.process());
      const control = await browser.target().createCDPSession();
      const handle = new BrowserHandle(browser, control, tempDir, network);
      await watchPopups(control, handle.popups);
      return handle;
    } catch (err) {
      releaseBrowser(tempDir);
      throw new Error(`Chromium failed to start (${executablePath}): ${firstLine(err)}`);
    }
  }

  get pid(): number | undefined {
    return this.browser.process()?.pid;
  }

  /** A tab to render a page in (busy until given back or discarded). */
  async takeTab(): Promise<Tab> {
    const tab = await this.idleOrNewTab();
    this.busy.add(tab.targetId);
    return tab;
  }

  /** An idle tab, or a new one; an idle tab whose renderer died meanwhile is closed, not reused. */
  private async idleOrNewTab(): Promise<Tab> {
    for (let tab = this.idle.pop(); tab; tab = this.idle.pop()) {
      if (!tab.ended) return tab;
      void this.discardTab(tab);
    }
    return this.newTab();
  }

  giveTab(tab: Tab): void {
    this.busy.delete(tab.targetId);
    if (!this.alive) return;
    if (tab.dirty || ++tab.pages >= TAB_MAX_PAGES) void this.discardTab(tab);
    else this.idle.push(tab);
  }

  private async newTab(): Promise<Tab> {
    return this.network ? NetworkTab.open(this.browser) : OfflineTab.open(this.control);
  }

  /** Close a tab that must not be reused; a hung tab gets CLOSE_TAB_TIMEOUT_MS. */
  async discardTab(tab: Tab): Promise<void> {
    this.busy.delete(tab.targetId);
    await withTimeout(tab.close(), CLOSE_TAB_TIMEOUT_MS, "close").catch(() => undefined);
  }

  /**
   * Close the tabs pages opened (watchPopups), directly or through other popups, except those of
   * pages still rendering: after a page, its popups go, and so do any whose page finished earlier
   * (a popup opened by a timer after its page was read); another tab's page keeps its popups
   * until it finishes itself. Nothing to do, and no call, on most pages.
   */
  async closePopups(): Promise<void> {
    const targets = [...this.popups.keys()].filter((id) => !this.busy.has(this.openingTab(id)));
    for (const id of targets) this.popups.delete(id);
    const close = (targetId: string) => this.control.send("Target.closeTarget", { targetId });
    await Promise.all(targets.map((id) => withTimeout(close(id), CLOSE_TAB_TIMEOUT_MS, "close").catch(() => undefined)));
  }

  /** The target at the start of a popup's chain of openers: the tab whose page opened it, or opened its opener… */
  private openingTab(popup: string): string {
    let id = popup;
    // A popup's opener is opened before it, so there is no cycle; the bound is a guard.
    for (let hops = 0; hops <= this.popups.size; hops++) {
      const opener = this.popups.get(id);
      if (opener === undefined) return id;
      id = opener;
    }
    return id;
  }

  /** Page targets of this browser: our tabs, its first blank tab and any popups still open. */
  async openTabs(): Promise<number> {
    const { targetInfos } = await this.control.send("Target.getTargets");
    return targetInfos.filter((t) => t.type === "page").length;
  }

  async responsive(): Promise<boolean> {
    if (!this.alive || !this.browser.connected) return false;
    try {
      await withTimeout(this.browser.version(), PING_TIMEOUT_MS, "ping");
      return true;
    } catch {
      return false;
    }
  }

  /** The browser's profile directory: what another thread needs to end it (browser-processes.ts). */
  get dir(): string {
    return this.tempDir;
  }

  /**
   * Stop the browser: gracefully, or at once. Then kill what is left: its process tree as it
   * was, and the crash handlers, which detach from the tree but name our temp dir on their
   * command line (they would otherwise re-create it after we removed it). Then remove the dir.
   */
  async dispose(graceful: boolean): Promise<void> {
    this.alive = false;
    this.idle = [];
    const tree = this.pid === undefined ? [] : processTree(this.pid);
    if (!graceful) killChromium(tree);
    await withTimeout(this.browser.close(), CLOSE_TAB_TIMEOUT_MS, "close").catch(() => undefined);
    releaseBrowser(this.tempDir, tree);
  }
}

/**
 * Records the tabs pages open (window.open: page targets with an opener; ours have none) in
 * `popups`, with their opener's target id (a tab of ours or another popup; noopener popups have
 * one too), while they exist. Headless Chromium blocks no popup, and a popup outlives its opener's
 * tab: 200 window.open calls left 200 tabs, and a noopener one running a script loop a renderer
 * spinning, until the browser closed at the end of the batch. BrowserHandle.closePopups closes
 * them after each render. (Closing them as they appear hung the opener's navigation under
 * Puppeteer, which attaches to every new tab.) When a popup closes, the popups it opened count as
 * opened by its own opener, so that they still lead back to the tab whose page opened them.
 */
async function watchPopups(control: CDPSession, popups: Map<string, string>): Promise<void> {
  control.on("Target.targetCreated", ({ targetInfo }) => {
    if (targetInfo.type === "page" && targetInfo.openerId !== undefined) popups.set(targetInfo.targetId, targetInfo.openerId);
  });
  control.on("Target.targetDestroyed", ({ targetId }) => {
    const opener = popups.get(targetId);
    if (opener === undefined) return;
    popups.delete(targetId);
    for (const [id, openedBy] of popups) if (openedBy === targetId) popups.set(id, opener);
  });
  await control.send("Target.setDiscoverTargets", { discover: true });
}

/**
 * Chromium's ends of the CDP pipes (and its stdio) reset when it exits. Puppeteer listens for
 * errors on them only while connected, so a reset that arrives after it let go (closing the
 * browser after a failed render: 1 run in 6) was an uncaught 'error' event that printed a stack
 * trace and killed the process. The browser's exit is already handled through Puppeteer's
 * 'disconnected' and the next render relaunches it, so these errors carry nothing to report.
 */
function ignorePipeResets(proc: ChildProcess | null): void {
  for (const stream of proc?.stdio ?? []) stream?.on("error", () => undefined);
}

/**
 * Browser-wide launch choices: the offline host-resolver/proxy ban and Blink's image switch are
 * flags, so each combination in use gets its own browser (launched on first use).
 */
interface BrowserKind {
  network: boolean;
  images: boolean;
}
type BrowserKey = "offline" | "offline+images" | "online" | "online+images";

function browserKind(key: BrowserKey): BrowserKind {
  return { network: key.startsWith("online"), images: key.endsWith("+images") };
}

function browserKey(policy: RequestPolicy): BrowserKey {
  return `${policy.network ? "online" : "offline"}${policy.loadResources ? "+images" : ""}`;
}

/** What one render got hold of, for the clean-up after a failure. */
interface Attempt {
  handle?: BrowserHandle;
  tab?: Tab;
}

/** Renders pages in a reused headless Chromium; see the file header for the policies. */
export class ChromiumRenderer implements Renderer {
  readonly mode = "chromium" as const;
  private readonly browsers = new Map<BrowserKey, Promise<BrowserHandle>>();
  private readonly slots: Slots;
  /** Launched browsers, for processIds() and close(). */
  private readonly live = new Set<BrowserHandle>();
  private closed = false;

  private constructor(
    private readonly executablePath: string,
    readonly concurrency: number,
    private readonly onBrowsers?: (dirs: string[]) => void,
  ) {
    this.slots = new Slots(concurrency);
  }

  /**
   * Find Chromium (BrowserNotFoundError when there is none) and start the offline browser.
   * `onBrowsers` hears the profile directories of the running browsers whenever they change, so
   * that whoever may have to terminate this thread can end them (browser-processes.ts).
   */
  static async launch(opts: { concurrency?: number; onBrowsers?: (dirs: string[]) => void } = {}): Promise<ChromiumRenderer> {
    const concurrency = Math.max(1, Math.floor(opts.concurrency ?? DEFAULT_CONCURRENCY));
    const renderer = new ChromiumRenderer(findChromium(), concurrency, opts.onBrowsers);
    await renderer.browser("offline");
    return renderer;
  }

  async render(original: PageInput, options: RenderOptions = {}): Promise<PageSnapshot> {
    if (this.closed) throw new Error("ChromiumRenderer is closed");
    const input = isXhtml(original) ? { ...original, html: xhtmlAsHtml(original.html) } : original; // Blink is handed HTML: xhtml.ts
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const policy: RequestPolicy = {
      network: input.remote || options.network === true,
      javascript: options.javascript === true,
      loadResources: options.loadResources === true,
    };
    await this.slots.acquire();
    const started = performance.now(); // render time, not time spent waiting for a tab
    const attempt: Attempt = {};
    const work = (async () => {
      attempt.handle = await this.browser(browserKey(policy));
      attempt.tab = await attempt.handle.takeTab();
      return attempt.tab.render(input, policy, timeoutMs);
    })();
    try {
      const result = await withTimeout(work, timeoutMs, `timeout: ${input.id} did not render within ${timeoutMs} ms`);
      if (attempt.handle && attempt.tab) attempt.handle.giveTab(attempt.tab);
      if (attempt.handle?.popups.size) await attempt.handle.closePopups();
      this.slots.release();
      return this.snapshot(input, result, started, options.declaredMeta === true);
    } catch (err) {
      // Report at once; clean up in the background and free the slot only when done.
      void this.recover(attempt, work)
        .catch(() => undefined)
        .finally(() => this.slots.release());
      if (err instanceof TimeoutError) throw new Error(err.message);
      throw new Error(`render failed for ${input.id}: ${firstLine(err)}`);
    }
  }

  /**
   * After a failed render: close the tab; kill the browser when it stopped answering (the next
   * render relaunches it). A tab that was still being opened is waited for, briefly.
   */
  private async recover(attempt: Attempt, work: Promise<unknown>): Promise<void> {
    if (!attempt.tab) await withTimeout(work, CLOSE_TAB_TIMEOUT_MS, "settle").catch(() => undefined);
    const { handle, tab } = attempt;
    if (!handle) return;
    if (tab) await handle.discardTab(tab);
    await handle.closePopups();
    if (tab && (await handle.responsive())) return;
    await this.retire(handle);
  }

  /** Stop a browser and forget it: gracefully (close) or at once (a hung or dead one). */
  private async retire(handle: BrowserHandle, graceful = false): Promise<void> {
    handle.alive = false;
    this.live.delete(handle);
    await handle.dispose(graceful);
    this.reportBrowsers();
  }

  private reportBrowsers(): void {
    this.onBrowsers?.([...this.live].map((h) => h.dir));
  }

  private snapshot(input: PageInput, r: WalkResult, started: number, declaredMeta: boolean): PageSnapshot {
    const nodes = decodeWalk(r);
    hideEscapedNoscriptMarkup(nodes); // `&lt;img …&gt;` text in <noscript> (escaped-markup.ts)
    revealScriptHiddenPage(nodes); // CSS a script would have changed (reveal.ts)
    return {
      version: SNAPSHOT_VERSION,
      mode: "chromium",
      id: input.id,
      source: input.source,
      url: input.url,
      title: typeof r.title === "string" ? withoutControls(r.title) : "",
      lang: r.lang,
      document: { width: r.w, height: r.h },
      viewport: { width: VIEWPORT.width, height: VIEWPORT.height },
      meta: pageMeta(input.html, { declared: declaredMeta }),
      nodes,
      ms: performance.now() - started,
    };
  }

  /** The running browser for this network mode, (re)launched when missing or dead. */
  private async browser(key: BrowserKey): Promise<BrowserHandle> {
    const current = this.browsers.get(key);
    if (current) {
      const handle = await current.catch(() => undefined);
      if (handle?.alive) return handle;
      // Replace it synchronously so concurrent callers share one relaunch.
      if (this.browsers.get(key) === current) {
        this.browsers.delete(key);
        if (handle) void this.retire(handle).catch(() => undefined);
      }
      return this.browser(key);
    }
    const launching = BrowserHandle.launch(browserKind(key), this.executablePath);
    this.browsers.set(key, launching);
    launching.then(
      (h) => {
        this.live.add(h);
        this.reportBrowsers();
      },
      () => this.browsers.get(key) === launching && this.browsers.delete(key),
    );
    return launching;
  }

  /** Tabs open in the running browsers, popups included (for leak checks). */
  async openTabs(): Promise<number> {
    const counts = await Promise.all([...this.live].map((h) => (h.alive ? h.openTabs() : 0)));
    return counts.reduce((a, b) => a + b, 0);
  }

  /** Process ids of the running browsers and all their children (for memory accounting). */
  processIds(): number[] {
    return processTree(...[...this.live].flatMap((h) => (h.alive && h.pid !== undefined ? [h.pid] : [])));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.browsers.values()].map((p) => p.catch(() => undefined)));
    this.browsers.clear();
    await Promise.all([...this.live].map((h) => this.retire(h, true)));
  }
}
