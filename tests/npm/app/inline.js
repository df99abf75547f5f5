// `mcp-elicit/inline`, bundled by esbuild with no options at all (no loader, no asset
// handling, nothing copied): the .wasm comes inside the module.
import init, { elicit } from "mcp-elicit/inline";

await init();
const result = await elicit(
  document.getElementById("slot"),
  {
    message: "Inline: your name?",
    requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] },
  },
  { serverName: "Inline", serverHost: "inline.example" },
);
document.getElementById("result").textContent = JSON.stringify(result);
