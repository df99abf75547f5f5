#!/usr/bin/env bash
# The <mcp-elicitation> element in headless Chromium (drive.mjs): www/element.html from
# plain HTML, and a React page (app/) bundled here with esbuild, against www/pkg (built by
# scripts/build-www). Installs its pinned npm packages (package-lock.json) on first use.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
here="$repo/tests/element"
[ -f "$repo/www/pkg/mcp_elicit_web.js" ] || { echo "[element test] no www/pkg: run scripts/build-www first" >&2; exit 1; }

cd "$here"
stamp=node_modules/.installed-from-lock
if ! cmp -s package-lock.json "$stamp" 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/mce-element.XXXXXX")
trap 'rm -rf "$out"' EXIT
cp app/index.html "$out/"
node_modules/.bin/esbuild app/app.jsx --bundle --format=esm --jsx=automatic \
  --alias:mcp-elicit-pkg="$repo/www/pkg/mcp_elicit_web.js" --outfile="$out/app.js" --log-level=warning
node drive.mjs "$repo/www" "$out"
