#!/usr/bin/env bash
# Make sure a Chromium pith can drive is present. pith never downloads a browser build of its
# own: it uses the system Chromium, preferably Debian's `chromium-headless-shell` (the same Blink
# without the browser UI: less CPU per page, src/render/find-browser.ts), else `chromium`.
# Exit 0 when one is found or installed; exit 1 with the command to run when it cannot install.
set -euo pipefail

SHELL_PATHS=(/usr/lib/chromium/chromium-headless-shell /usr/bin/chromium-headless-shell)
OTHER_PATHS=(/usr/bin/chromium /usr/lib/chromium/chromium /usr/bin/chromium-browser /usr/bin/google-chrome)

found() {
  for candidate in "$@"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

if browser=$(found "${PUPPETEER_EXECUTABLE_PATH:-}" "${CHROME_PATH:-}" "${SHELL_PATHS[@]}"); then
  echo "chromium: $browser"
  exit 0
fi

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "chromium: no headless shell, installing Debian's chromium-headless-shell with apt-get (about 230 MB)…"
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium-headless-shell >/dev/null; then
    echo "chromium: installed $(/usr/lib/chromium/chromium-headless-shell --version 2>/dev/null || echo chromium-headless-shell)"
    exit 0
  fi
  echo "chromium: chromium-headless-shell did not install, trying chromium…" >&2
  if found "${OTHER_PATHS[@]}" >/dev/null || apt-get install -y -qq --no-install-recommends chromium >/dev/null; then
    echo "chromium: $(found "${OTHER_PATHS[@]}")"
    exit 0
  fi
fi

if browser=$(found "${OTHER_PATHS[@]}"); then
  echo "chromium: $browser (install chromium-headless-shell for faster rendering)"
  exit 0
fi

cat >&2 <<'MSG'
chromium: no Chromium found and this script cannot install one (needs root and apt-get).
Install it yourself, then run this again:
  sudo apt-get install -y --no-install-recommends chromium-headless-shell   # Debian / Ubuntu
  (or: sudo apt-get install -y --no-install-recommends chromium)
or point pith at an existing browser:
  export PUPPETEER_EXECUTABLE_PATH=/path/to/chrome
Static mode (--mode static) works without a browser.
MSG
exit 1
