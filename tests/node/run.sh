#!/bin/sh
# Builds the core's JS API (and the library's, for i18n.test.mjs) for Node.js
# (wasm-bindgen --target nodejs) and runs its tests
# with `node --test`. The package goes to $CARGO_TARGET_DIR/node-pkg (default: target/,
# which git ignores). Run from anywhere: tests/node/run.sh
set -eu
repo="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
case "$target" in /*) ;; *) target="$repo/$target" ;; esac
pkg="$target/node-pkg"

echo "building mcp-elicit for wasm32 (debug) ..."
(cd "$repo" && cargo build -p mcp-elicit --lib --target wasm32-unknown-unknown)
echo "wasm-bindgen --target nodejs -> $pkg"
rm -rf "$pkg"
wasm-bindgen --target nodejs --out-dir "$pkg" "$target/wasm32-unknown-unknown/debug/mcp_elicit.wasm"

# The library's wasm too (mcp-elicit-web: the catalogs that word validateContent's errors
# in a language, i18n.test.mjs), the same way.
web_pkg="$target/node-web-pkg"
echo "building mcp-elicit-web for wasm32 (debug) ..."
(cd "$repo" && cargo build -p mcp-elicit-web --lib --target wasm32-unknown-unknown)
echo "wasm-bindgen --target nodejs -> $web_pkg"
rm -rf "$web_pkg"
wasm-bindgen --target nodejs --out-dir "$web_pkg" "$target/wasm32-unknown-unknown/debug/mcp_elicit_web.wasm"
# Its catalogs beyond English (read at once under Node, for validateContent).
"$repo/scripts/i18n-modules" "$web_pkg"

MCP_ELICIT_PKG="$pkg" MCP_ELICIT_WEB_PKG="$web_pkg" node --test "$repo/tests/node/"
