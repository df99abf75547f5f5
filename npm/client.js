// The entry "mcp-elicit/client": McpClient, a whole MCP client connection whose
// elicitations show as cards, with every export of "mcp-elicit". Its wasm
// (mcp_elicit_host_bg.wasm) has the library and the client's sessions, transport and wire
// types; "mcp-elicit" loads the library's alone. A page imports one of the two: each has
// its own wasm instance, so an elicitation shown through one is not known to the other.
import wasmInit, * as wasm from "./mcp_elicit_host.js";
import { guardedEntry } from "./entry.js";
import { handlerFor } from "./handler.js";

const api = guardedEntry(wasmInit, wasm, "mcp_elicit_host_bg.wasm");

export default api.init;
export const {
  initSync,
  elicit,
  completeElicitation,
  releaseElicitation,
  defineElements,
  compileSchema,
  validateContent,
  compileValidator,
  loadLocale,
} = api;

/** For a host's own sign-in callback page (oauth-callback.js, also in the built www/). */
export { handleOAuthCallback } from "./oauth-callback.js";

/** The TypeScript SDK adapter (handler.js), over this entry's wasm. */
export const elicitationHandler = handlerFor(api);

/**
 * wasm-bindgen's McpClient class itself (so `instanceof` and its methods are unchanged),
 * seen through a Proxy whose `connect` refuses to run before init.
 */
export const McpClient = new Proxy(wasm.McpClient, {
  get(target, key, receiver) {
    if (key === "connect" && !api.isReady()) {
      return () => Promise.reject(api.notReady("McpClient.connect()"));
    }
    return Reflect.get(target, key, receiver);
  },
});
