#!/bin/sh
# Builds the core's JS API for Node.js (wasm-bindgen --target nodejs) and runs its tests
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

MCP_ELICIT_PKG="$pkg" node --test "$repo/tests/node/"
