/**
 * Locates a Chromium/Chrome executable for the Chromium renderer. pith never downloads a
 * browser (puppeteer-core has no install step): it uses the one named by the environment or a
 * system install, and fails with one line that names the fix when there is none.
 */
import { accessSync, constants, statSync } from "node:fs";

/** Environment variables checked first, in order. */
const ENV_VARIABLES = ["PUPPETEER_EXECUTABLE_PATH", "CHROME_PATH"] as const;

/**
 * Usual system locations, checked after the environment. Debian's `chromium-headless-shell`
 * comes first: the same Blink without the browser UI, so each page costs less CPU in the browser
 * process (about a third less in the browser process on wcxb-dev pages, none in a zygote) and
 * its snapshots match the full browser's with `--font-render-hinting=none`
 * (chromium.ts). The binary itself, not /usr/bin's shell-script wrapper, which would stay
 * between Node and the browser. Then Debian's `chromium` and other installs.
 */
const SYSTEM_PATHS = [
  "/usr/lib/chromium/chromium-headless-shell",
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/lib/chromium/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
] as const;

export const BROWSER_NOT_FOUND_MESSAGE =
  "No Chromium found. Install one with `apt-get install -y chromium-headless-shell` " +
  "(Debian/Ubuntu; or `chromium`) or set PUPPETEER_EXECUTABLE_PATH; or use --mode static.";

/** Thrown when no browser executable exists; its message is the whole user-facing explanation. */
export class BrowserNotFoundError extends Error {
  override readonly name = "BrowserNotFoundError";
  constructor(message: string = BROWSER_NOT_FOUND_MESSAGE) {
    super(message);
  }
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Returns the first usable browser path. An environment variable that is set but points at
 * nothing is an error of its own (the user asked for that browser), not a silent fallback.
 */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  systemPaths: readonly string[] = SYSTEM_PATHS,
): string {
  for (const name of ENV_VARIABLES) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    if (isExecutableFile(value)) return value;
    throw new BrowserNotFoundError(
      `${name}=${value} is not an executable file. ` +
        `Fix the path, or install Chromium with \`apt-get install -y chromium\`; or use --mode static.`,
    );
  }
  for (const path of systemPaths) {
    if (isExecutableFile(path)) return path;
  }
  throw new BrowserNotFoundError();
}
