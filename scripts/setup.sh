#!/usr/bin/env bash
# The README's first command (`npm run setup`): install everything pith needs, then run its main
# job on a page bundled in the repo.
set -euo pipefail
cd "$(dirname "$0")/.."

export PUPPETEER_SKIP_DOWNLOAD=true
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
bash scripts/install-chromium.sh || echo "setup: continuing without Chromium (static mode only)" >&2
bash scripts/install-redis.sh || echo "setup: continuing without redis-server (pith queue and its tests need it)" >&2
bash scripts/install-jupyter.sh || echo "setup: continuing without Jupyter (npm run notebooks and its test need it)" >&2

echo
echo "== pith extract test/fixtures/pages/article.html"
node bin/pith.js extract test/fixtures/pages/article.html
