// A host that wants the whole client: McpClient from the entry "mcp-elicit/client", bundled
// with esbuild like main.js (its own .wasm imported with the `file` loader). drive-sdk.mjs
// reads window.clientChecks and connects window.host to the Python SDK server.
import init, * as mce from "mcp-elicit/client";
import wasmUrl from "mcp-elicit/mcp_elicit_host_bg.wasm";
import "mcp-elicit/style.css";

const checks = { exportNames: Object.keys(mce).sort() };
const container = document.getElementById("requests");

// Before init: the guard's error, in words.
try {
  await mce.McpClient.connect("http://127.0.0.1:9/mcp", { container });
  checks.beforeInit = null;
} catch (e) {
  checks.beforeInit = String(e && e.message);
}

await init({ module_or_path: new URL(wasmUrl, import.meta.url) });
// elicitationHandler from this entry: a card over this entry's wasm, cancelled by dispose().
{
  const slot = document.createElement("div");
  document.body.append(slot);
  const handler = mce.elicitationHandler({ container: slot, serverName: "Local", serverHost: "local.example" });
  checks.handlerCapabilities = handler.capabilities;
  const request = { method: "elicitation/create", params: { message: "From the client entry", requestedSchema: { type: "object", properties: {} } } };
  const answer = handler.handleRequest(request, {});
  await new Promise((r) => setTimeout(r, 0));
  checks.handlerCard = slot.querySelector("[data-elicitation]")?.textContent ?? null;
  handler.dispose();
  checks.handlerAnswer = await answer;
  slot.remove();
}
window.clientChecks = checks;

let client;
const results = {};
window.host = {
  results,
  async connect(url) {
    client = await mce.McpClient.connect(url, { container, protocol: "2025-11-25" });
    return { protocol: client.protocolVersion, tools: (await client.listTools()).map((t) => t.name) };
  },
  start(id, tool, args) {
    results[id] = null;
    client.callTool(tool, args).then(
      (r) => { results[id] = { text: r.content?.[0]?.text ?? null }; },
      (e) => { results[id] = { error: String(e && e.message) }; },
    );
  },
  close: () => client.close(),
};
