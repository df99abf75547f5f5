// The entry of the npm package `mcp-elicit`: wasm-bindgen's module (mcp_elicit_web.js)
// behind a guard, so that a call made before `await init()` fails with an Error that says
// so (wasm-bindgen's own functions would throw a TypeError about `undefined` from inside
// its glue), and without the demo app's mount function, which is not part of the library.
import wasmInit, * as wasm from "./mcp_elicit_web.js";

let ready = false;
let starting;

function notReady(name) {
  return new Error(
    `mcp-elicit: ${name} was called before init() finished; ` +
      "call `await init()` (the default export of \"mcp-elicit\") once, first",
  );
}

function need(name) {
  if (!ready) throw notReady(name);
}

/**
 * Loads and instantiates the WebAssembly module; every other export needs it. Takes what
 * wasm-bindgen's init takes: nothing (the .wasm next to this file, by `import.meta.url`),
 * or `{ module_or_path }` with a URL, a Response, bytes or a WebAssembly.Module. Calling it
 * again returns the same Promise; after a failure it may be called again.
 */
export default function init(input) {
  if (!starting) {
    starting = wasmInit(input).then(
      (exports) => {
        ready = true;
        return exports;
      },
      (e) => {
        starting = undefined;
        if (input !== undefined) throw e;
        // The usual cause: a bundler that does not copy the .wasm next to the bundle.
        throw new Error(
          "mcp-elicit: init() could not load mcp_elicit_web_bg.wasm from next to the " +
            `package's JS (${e && e.message ? e.message : e}); if a bundler (e.g. esbuild) ` +
            "did not copy it, import its URL and pass it: " +
            "init({ module_or_path: new URL(wasmUrl, import.meta.url) }) (see the README)",
          { cause: e },
        );
      },
    );
  }
  return starting;
}

/** Synchronous init from bytes or a WebAssembly.Module: `initSync({ module })`. */
export function initSync(module) {
  const exports = wasm.initSync(module);
  ready = true;
  return exports;
}

export function elicit(element, params, options) {
  if (!ready) return Promise.reject(notReady("elicit()"));
  return wasm.elicit(element, params, options);
}

export function completeElicitation(elicitationId) {
  need("completeElicitation()");
  return wasm.completeElicitation(elicitationId);
}

export function compileSchema(requestedSchema) {
  need("compileSchema()");
  return wasm.compileSchema(requestedSchema);
}

export function validateContent(requestedSchema, content) {
  need("validateContent()");
  return wasm.validateContent(requestedSchema, content);
}

/**
 * wasm-bindgen's McpClient class itself (so `instanceof` and its methods are unchanged),
 * seen through a Proxy whose `connect` refuses to run before init.
 */
export const McpClient = new Proxy(wasm.McpClient, {
  get(target, key, receiver) {
    if (key === "connect" && !ready) {
      return () => Promise.reject(notReady("McpClient.connect()"));
    }
    return Reflect.get(target, key, receiver);
  },
});
