#!/usr/bin/env bash
# Make sure a redis-server is present for `pith queue` and its tests (test/queue.test.ts starts one
# on a free loopback port). pith uses Debian's `redis-server` (Redis 7); it never downloads a build
# of its own. Exit 0 when one is found or installed; exit 1 with the command to run when it cannot install.
set -euo pipefail

if server=$(command -v redis-server); then
  echo "redis: $server ($("$server" --version | cut -d' ' -f3))"
  exit 0
fi

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "redis: no redis-server, installing Debian's redis-server with apt-get…"
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq && apt-get install -y -qq --no-install-recommends redis-server >/dev/null; then
    # the package starts a system service on port 6379; pith's tests start their own servers
    echo "redis: installed $(redis-server --version | cut -d' ' -f3)"
    exit 0
  fi
fi

cat >&2 <<'MSG'
redis: no redis-server found and this script cannot install one (needs root and apt-get).
Install it yourself, then run this again:
  sudo apt-get install -y --no-install-recommends redis-server   # Debian / Ubuntu
`pith queue` needs a Redis server (5 or later) that every worker can reach; its tests need
redis-server on the PATH.
MSG
exit 1
