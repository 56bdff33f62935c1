#!/usr/bin/env bash
# Make sure Jupyter can run pith's notebooks (npm run notebooks): Debian's Jupyter, whose Python
# has nbclient and jupyter_client. The TypeScript kernel is the npm devDependency tslab, which
# `npm run notebooks` registers for each run in a temporary folder: nothing is installed into
# ~/.local/share/jupyter or /usr/share/jupyter here.
# Exit 0 when Jupyter is found or installed; exit 1 with the command to run when it cannot install.
set -euo pipefail

PACKAGES=(jupyter-nbconvert jupyter-notebook python3-ipykernel python3-nbclient)

# The Python `jupyter` runs with (its shebang), as scripts/notebooks.ts finds it.
jupyter_python() {
  local jupyter
  jupyter=$(command -v jupyter 2>/dev/null) || return 1
  head -n 1 "$jupyter" | sed -n 's/^#! *\([^ ]*python[0-9.]*\) *$/\1/p'
}

ready() {
  local python
  python=$(jupyter_python) || return 1
  [ -n "$python" ] && "$python" -c 'import nbclient, nbformat, jupyter_client' 2>/dev/null
}

if ready; then
  echo "jupyter: $(jupyter nbconvert --version 2>/dev/null | sed 's/^/nbconvert /') with $(jupyter_python)"
  exit 0
fi

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "jupyter: installing Debian's ${PACKAGES[*]} with apt-get…"
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq && apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null && ready; then
    echo "jupyter: installed nbconvert $(jupyter nbconvert --version 2>/dev/null) with $(jupyter_python)"
    exit 0
  fi
fi

cat >&2 <<MSG
jupyter: no Jupyter with nbclient found and this script cannot install it (needs root and apt-get).
Install it yourself, then run this again:
  sudo apt-get install -y --no-install-recommends ${PACKAGES[*]}   # Debian / Ubuntu
  (or, in a Python environment: pip install nbconvert nbclient notebook)
MSG
exit 1
