// mcp-elicit/inline: the package with its .wasm inside this module (as base64), so it loads
// in any bundler with no configuration and no file to copy or serve. It costs about a third
// more bytes than the .wasm file (less once gzipped); the plain "mcp-elicit" entry fetches
// the .wasm instead. scripts/build-npm writes `const WASM_BASE64` above this text, and
// makes mcp-elicit/client/inline from this file too (its entry module and .wasm instead).
import init from "./index.js";

export * from "./index.js";

function wasmBytes() {
  const text = atob(WASM_BASE64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Instantiates the embedded WebAssembly module; every other export needs it. */
export default function initInline() {
  return init({ module_or_path: wasmBytes() });
}
