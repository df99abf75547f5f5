#!/usr/bin/env bash
# The npm package as installed: builds it (scripts/build-npm; or takes the tarball in
# $MCP_ELICIT_TARBALL), installs the tarball into a temp copy of the scratch app
# (tests/npm/app), holds its wasm + JS to a gzip size budget (size-budget.sh), type-checks
# types.ts and sdk-types.ts against it with tsc, bundles the app with esbuild and drives
# the bundle in headless Chromium: drive.mjs (the package on its own), drive-sdk.mjs
# (elicitationHandler in the TypeScript SDK's Client, against the TypeScript and Python SDK
# servers, and mcp-elicit/client's McpClient against the Python one; needs scripts/setup's
# .venv and tests/conformance/node_modules). Run from
# anywhere: tests/npm/run.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
here="$repo/tests/npm"

if [ -n "${MCP_ELICIT_TARBALL:-}" ]; then
  tarball=$MCP_ELICIT_TARBALL
else
  tarball=$("$repo/scripts/build-npm" | tail -n 1)
fi
case "$tarball" in /*) ;; *) tarball="$(pwd)/$tarball" ;; esac
[ -f "$tarball" ] || { echo "[npm test] no tarball at $tarball" >&2; exit 1; }

app=$(mktemp -d "${TMPDIR:-/tmp}/mce-npm-app.XXXXXX")
trap 'rm -rf "$app"' EXIT
cp "$here/app/package.json" "$here/app/package-lock.json" "$here/app/index.html" \
  "$here/app/main.js" "$here/app/types.ts" "$here/app/tsconfig.json" \
  "$here/app/sdk.html" "$here/app/sdk.js" "$here/app/sdk-types.ts" "$here/app/tsconfig.sdk.json" \
  "$here/app/inline.html" "$here/app/inline.js" "$here/app/client.html" "$here/app/client.js" \
  "$here/app/client-inline.html" "$here/app/client-inline.js" "$here/app/both.html" "$here/app/both.js" \
  "$here/drive.mjs" "$here/drive-sdk.mjs" "$here/serve.mjs" "$app/"
cd "$app"

# The pinned esbuild, playwright-core, typescript and @modelcontextprotocol/sdk
# (package-lock.json), then the tarball, as a user would.
npm ci --no-audit --no-fund --loglevel=error
echo "[npm test] npm install $tarball into $app"
npm install --no-save --no-audit --no-fund --loglevel=error "$tarball"

# What was installed is the package, not the repository: the library's files only.
pkgdir=node_modules/mcp-elicit
for f in package.json index.js index.d.ts entry.js handler.js client.js client.d.ts inline.js inline.d.ts \
  client-inline.js client-inline.d.ts \
  mcp_elicit_web.js mcp_elicit_web_bg.wasm mcp_elicit_host.js mcp_elicit_host_bg.wasm \
  mcp_elicit_signin.js mcp_elicit_signin_bg.wasm \
  i18n/zh-CN.js i18n/ja.js i18n/de.js i18n/fr.js i18n/es.js i18n/ar.js \
  style.css README.md CHANGELOG.md; do
  [ -f "$pkgdir/$f" ] || { echo "[npm test] the package lacks $f" >&2; exit 1; }
done
if grep -q "mountDemo" "$pkgdir/index.js" "$pkgdir/index.d.ts" "$pkgdir/client.js" "$pkgdir/client.d.ts"; then
  echo "[npm test] the package's entry exports the demo (mountDemo)" >&2
  exit 1
fi

echo "[npm test] size budget: each entry's wasm + JS, gzip -9"
"$here/size-budget.sh" "$pkgdir"

echo "[npm test] tsc: the package's types, as a TypeScript user imports them"
npm run --silent typecheck

echo "[npm test] esbuild"
npm run --silent build
ls -l dist
# Both entries in one bundle share the snippets: the value crossing's takeBytes once.
shared=$(grep -c "function takeBytes(" dist/both.js || true)
if [ "$shared" != 1 ]; then
  echo "[npm test] dist/both.js holds the value crossing's snippet $shared times, not once" >&2
  exit 1
fi
echo "[npm test] esbuild, no options: mcp-elicit/inline and mcp-elicit/client/inline"
npm run --silent build:inline
ls -l dist-inline

echo "[npm test] headless Chromium"
node drive.mjs "$app"

echo "[npm test] headless Chromium: the TypeScript SDK's Client with elicitationHandler"
node drive-sdk.mjs "$app" "$repo"
