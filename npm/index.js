// The entry of the npm package `mcp-elicit`: wasm-bindgen's module of the library
// (mcp_elicit_web.js: elicit, the element, validation) behind the init guard (entry.js),
// and elicitationHandler for the TypeScript SDK's Client (handler.js). McpClient is the
// entry "mcp-elicit/client" (client.js), over a wasm of its own, so a page that only shows
// elicitations does not download the whole client.
import wasmInit, * as wasm from "./mcp_elicit_web.js";
import { guardedEntry } from "./entry.js";
import { handlerFor } from "./handler.js";

const api = guardedEntry(wasmInit, wasm, "mcp_elicit_web_bg.wasm");

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

/** The TypeScript SDK adapter (handler.js), over this entry's wasm. */
export const elicitationHandler = handlerFor(api);
