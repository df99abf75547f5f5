// `mcp-elicit/client/inline`, bundled by esbuild with no options at all: McpClient and the
// library with the client's .wasm inside the module. drive.mjs reads #result.
import init, { McpClient, elicit } from "mcp-elicit/client/inline";

await init();
const out = {};
// Nothing listens on port 9: McpClient itself runs and refuses in words.
try {
  await McpClient.connect("http://127.0.0.1:9/mcp", { container: document.getElementById("requests") });
  out.connect = "connected";
} catch (e) {
  out.connect = String(e && e.message);
}
out.answer = await elicit(
  document.getElementById("slot"),
  { message: "Client inline: your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
  { serverName: "Client inline", serverHost: "client-inline.example" },
);
document.getElementById("result").textContent = JSON.stringify(out);
