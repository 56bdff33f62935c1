/**
 * The Chromium renderer's resource policy: what a tab may load, and the launch flags and block
 * list that hold it (chromium.ts launches the browsers, chromium-tabs.ts applies it per tab).
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
 */

/**
 * Launch flags that work offline and as root. --no-sandbox: root cannot use the setuid sandbox.
 * The rest stop background traffic (updates, sync, first-run pages, QUIC), avoid /dev/shm
 * (small in containers) and the GPU. Puppeteer adds --headless=new and --hide-scrollbars.
 */
export const BASE_FLAGS = [
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
export const OFFLINE_RESOLVER_FLAG = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1";
/** Images off in Blink: same boxes as blocking them, and no image requests at all. */
export const NO_IMAGES_FLAG = "--blink-settings=imagesEnabled=false";

/**
 * Offline tabs block every network scheme inside the browser (Network.setBlockedURLs, URLPattern
 * syntax; the port wildcard is required for URLs with a port). Blocked requests fail at once, so
 * the parser never waits on a stylesheet; Node-side interception fails them asynchronously.
 */
export const OFFLINE_BLOCK_PATTERNS = ["http", "https", "ws", "wss", "ftp", "file"].flatMap((scheme) => [
  { urlPattern: `${scheme}://*:*/*`, block: true },
  { urlPattern: `${scheme}://*/*`, block: true },
]);
/**
 * Defence in depth for offline browsers: anything that still reaches the network stack
 * (preconnects to IP literals, which skip the host resolver) goes to a proxy that cannot
 * resolve. `<-loopback>` removes the implicit proxy bypass for 127.0.0.1/localhost.
 */
export const OFFLINE_PROXY_FLAGS = [
  "--proxy-server=http://pith-offline.invalid:9",
  "--proxy-bypass-list=<-loopback>",
] as const;

/** Request types a page needs to build its DOM with JavaScript on. */
const DOM_BUILDING_TYPES = new Set([
  "script",
  "stylesheet",
  "xhr",
  "fetch",
  "eventsource",
  "websocket",
  "other",
]);
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
