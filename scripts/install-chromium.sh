#!/usr/bin/env bash
# Make sure a Chromium pith can drive is present. pith never downloads a browser build of its
# own: it uses the system Chromium (Debian/Ubuntu package `chromium`).
# Exit 0 when one is found or installed; exit 1 with the command to run when it cannot install.
set -euo pipefail

for candidate in "${PUPPETEER_EXECUTABLE_PATH:-}" "${CHROME_PATH:-}" /usr/bin/chromium /usr/lib/chromium/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then
    echo "chromium: $candidate"
    exit 0
  fi
done

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "chromium: not found, installing Debian's chromium with apt-get (about 360 MB)…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
  echo "chromium: installed $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi

cat >&2 <<'MSG'
chromium: no Chromium found and this script cannot install one (needs root and apt-get).
Install it yourself, then run this again:
  sudo apt-get install -y --no-install-recommends chromium      # Debian / Ubuntu
or point pith at an existing browser:
  export PUPPETEER_EXECUTABLE_PATH=/path/to/chrome
Static mode (--mode static) works without a browser.
MSG
exit 1
