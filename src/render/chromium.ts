/**
 * Chromium renderer: lays pages out in a headless system Chromium (via puppeteer-core, here and
 * in chromium-tabs.ts) and snapshots every element and text node with its box and computed
 * style (see in-page.ts for the walk).
 *
 * A browser is reused across pages with a small pool of tabs (default 2 rendering at once);
 * a tab is replaced after TAB_MAX_PAGES pages to bound its memory. Tabs (chromium-tabs.ts)
 * follow the resource policy of chromium-policy.ts: local input gets no network, and no
 * JavaScript unless asked; each browser is launched with the flags of its policy.
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
import type { Browser, CDPSession } from "puppeteer-core";
import type { PageInput, PageSnapshot, RenderOptions, Renderer } from "../types.ts";
import { SNAPSHOT_VERSION } from "../types.ts";
import { killChromium, processTree, releaseBrowser, trackBrowser } from "./browser-processes.ts";
import { findChromium } from "./find-browser.ts";
import { decodeWalk } from "./in-page.ts";
import type { WalkResult } from "./in-page.ts";
import { pageMeta } from "./page-meta.ts";
import { hideEscapedNoscriptMarkup } from "../dom/escaped-markup.ts";
import { revealScriptHiddenPage } from "./reveal.ts";
import { withoutControls } from "./control-chars.ts";
import { isXhtml, xhtmlAsHtml } from "./xhtml.ts";
import {
  BASE_FLAGS,
  NO_IMAGES_FLAG,
  OFFLINE_PROXY_FLAGS,
  OFFLINE_RESOLVER_FLAG,
  type RequestPolicy,
} from "./chromium-policy.ts";
import { NetworkTab, OfflineTab, VIEWPORT, firstLine, type Tab } from "./chromium-tabs.ts";
import { DEFAULT_TIMEOUT_MS } from "../time-limit.ts";

/** Tabs rendering at once; 2 vCPU gain only 1.3-1.7x from parallel pages (DEPENDENCIES.md). */
export const DEFAULT_CONCURRENCY = 2;
/**
 * A tab is closed and replaced after this many pages: its renderer's memory grows by a few MB
 * per written document (old documents and evaluated sources are kept: one tab grew from 150 MB
 * to 560 MB over 100 wcxb pages), and a fresh tab starts from ~150 MB again.
 */
const TAB_MAX_PAGES = 20;
/** How long closing a tab or asking the browser for its version may take before we give up on it. */
const CLOSE_TAB_TIMEOUT_MS = 3_000;
const PING_TIMEOUT_MS = 3_000;
/** Browser start-up limit (a cold start takes 0.3-0.5 s here). */
const LAUNCH_TIMEOUT_MS = 30_000;
/** CDP call limit; a 10 MB page goes through one call. */
const PROTOCOL_TIMEOUT_MS = 120_000;

class TimeoutError extends Error {}

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
        // page sends each way (about a fifth less Node CPU and a tenth less browser CPU a page).
        pipe: true,
        args,
        userDataDir: join(tempDir, "profile"),
        env: {
          ...process.env,
          XDG_CONFIG_HOME: join(tempDir, "config"),
          XDG_CACHE_HOME: join(tempDir, "cache"),
        },
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
    await Promise.all(
      targets.map((id) => withTimeout(close(id), CLOSE_TAB_TIMEOUT_MS, "close").catch(() => undefined)),
    );
  }

  /**
   * The target at the start of a popup's chain of openers: the tab
   * whose page opened it, or opened its opener…
   */
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
    if (targetInfo.type === "page" && targetInfo.openerId !== undefined)
      popups.set(targetInfo.targetId, targetInfo.openerId);
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
  static async launch(
    opts: { concurrency?: number; onBrowsers?: (dirs: string[]) => void } = {},
  ): Promise<ChromiumRenderer> {
    const concurrency = Math.max(1, Math.floor(opts.concurrency ?? DEFAULT_CONCURRENCY));
    const renderer = new ChromiumRenderer(findChromium(), concurrency, opts.onBrowsers);
    await renderer.browser("offline");
    return renderer;
  }

  async render(original: PageInput, options: RenderOptions = {}): Promise<PageSnapshot> {
    if (this.closed) throw new Error("ChromiumRenderer is closed");
    // Blink is handed HTML: xhtml.ts
    const input = isXhtml(original) ? { ...original, html: xhtmlAsHtml(original.html) } : original;
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
      const result = await withTimeout(
        work,
        timeoutMs,
        `timeout: ${input.id} did not render within ${timeoutMs} ms`,
      );
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
