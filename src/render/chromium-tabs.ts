/**
 * The two kinds of tab the Chromium renderer (chromium.ts) writes pages into and walks: OfflineTab
 * for local input (a bare CDP session, no network) and NetworkTab for URL input or `--network`
 * (a Puppeteer Page whose document request is answered with the HTML already fetched). Both
 * follow the resource policy of chromium-policy.ts, end at once when their renderer crashes or
 * the page closes its window (TabEnd), and leave a page that navigates away where it stood.
 */
import type { Browser, CDPSession, HTTPRequest, Page } from "puppeteer-core";
import type { PageInput } from "../types.ts";
import {
  INJECTED_MARKER,
  walkConfig,
  walkExpression,
  writeAndWalkExpression,
  writeExpression,
} from "./in-page.ts";
import type { WalkResult } from "./in-page.ts";
import { closeSelfClosedIframes } from "./repair.ts";
import { OFFLINE_BLOCK_PATTERNS, allowRequest, type RequestPolicy } from "./chromium-policy.ts";

/** Layout viewport (a common laptop screen), for every page. */
export const VIEWPORT = { width: 1366, height: 768 } as const;
/** Share of the time limit spent waiting for the `load` event; after it the DOM is walked as is. */
const LOAD_WAIT_SHARE = 0.6;
/**
 * Poll interval while an offline page is still loading (its parser
 * waits on a failing resource, or scripts run).
 */
const READY_POLL_MS = 5;

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

/** A browser tab the renderer writes pages into and walks. */
export interface Tab {
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
    session
      .send("Fetch.failRequest", { requestId: event.requestId, errorReason: "Aborted" })
      .catch(() => undefined);
  });
  await session.send("Fetch.enable", {
    patterns: [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }],
  });
}

/**
 * A tab for pages that may not use the network, driven over a bare CDP session rather than a
 * Puppeteer Page: Puppeteer's Page enables its network tracking, and every (blocked) subresource
 * then costs two events through the browser into Node. Measured on wcxb pages: 125 vs 143 CPU
 * ms per page. The session needs only Runtime, Emulation and Network (for the block list).
 */
export class OfflineTab implements Tab {
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
    // requests of a written page (checked with headless shell 156).
    await session.send("Network.enable");
    await session.send("Network.setBlockedURLs", { urlPatterns: OFFLINE_BLOCK_PATTERNS });
    await session.send("Emulation.setDeviceMetricsOverride", {
      ...VIEWPORT,
      deviceScaleFactor: 1,
      mobile: false,
    });
    await stayOnWrittenDocument(session);
    return new OfflineTab(control, targetId, session);
  }

  render(input: PageInput, policy: RequestPolicy, timeoutMs: number): Promise<WalkResult> {
    return this.end.race(this.writeAndWalk(input, policy, timeoutMs));
  }

  private async writeAndWalk(
    input: PageInput,
    policy: RequestPolicy,
    timeoutMs: number,
  ): Promise<WalkResult> {
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
export class NetworkTab implements Tab {
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
    page.on(
      "dialog",
      (dialog) =>
        void (dialog.type() === "beforeunload" ? dialog.accept() : dialog.dismiss()).catch(() => undefined),
    );
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
    const doc = {
      url: documentUrl(input.url),
      html: policy.javascript ? input.html : closeSelfClosedIframes(input.html),
      served: false,
    };
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
  private async load(
    doc: { url: string; served: boolean },
    deadline: number,
    retried = false,
  ): Promise<void> {
    const timeout = () => Math.max(1, deadline - performance.now());
    try {
      await untilLoadedOrLate(this.page.goto(doc.url, { waitUntil: "load", timeout: timeout() }));
    } catch (err) {
      if (!firstLine(err).includes(ABORTED_NAVIGATION)) throw err;
      if (doc.served)
        await untilLoadedOrLate(
          this.page.waitForFunction(DOCUMENT_COMPLETE, { timeout: timeout(), polling: READY_POLL_MS }),
        );
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
 * answers Target.getTargetInfo (no target id: the target the CDP
 * session is attached to) on a CDP session of its own.
 */
async function pageTargetId(page: Page): Promise<string> {
  const session = await page.createCDPSession();
  try {
    return (await session.send("Target.getTargetInfo")).targetInfo.targetId;
  } finally {
    void session.detach().catch(() => undefined);
  }
}

export function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split("\n")[0] ?? "").trim();
}
