// Both entries in one bundle: esbuild takes the snippets the two wasm-bindgen modules
// import (the same files) once, so one snippet module serves two wasm memories. Values
// crossing into either module, one of them growing its memory, must each reach their own.
// drive.mjs reads window.bothChecks; run.sh checks that the bundle holds the snippet once.
import initLibrary, * as library from "mcp-elicit";
import libraryWasm from "mcp-elicit/mcp_elicit_web_bg.wasm";
import initClient, * as client from "mcp-elicit/client";
import clientWasm from "mcp-elicit/mcp_elicit_host_bg.wasm";

const checks = { answers: [] };
try {
  await initLibrary({ module_or_path: new URL(libraryWasm, import.meta.url) });
  await initClient({ module_or_path: new URL(clientWasm, import.meta.url) });
  const schema = { type: "object", properties: { name: { type: "string", maxLength: 5 } } };
  const verdict = (r) => (r.ok ? `ok ${JSON.stringify(r.content)}` : `refused ${r.errors.map((e) => e.code).join(",")}`);
  for (let round = 0; round < 3; round++) {
    const long = "x".repeat(300_000 * (round + 1));
    const big = { type: "object", properties: { note: { type: "string", description: long } } };
    checks.answers.push(
      verdict(library.validateContent(schema, { name: "Ada" })),
      verdict(client.validateContent(schema, { name: "Grace Hopper" })),
      verdict(client.validateContent(big, { note: "hi" })),
      verdict(library.validateContent(schema, { name: "Lin" })),
      verdict(library.validateContent(big, { note: "yo" })),
      verdict(client.validateContent(schema, { name: "Barbara" })),
    );
  }
} catch (e) {
  checks.error = String(e && e.stack ? e.stack : e);
}
window.bothChecks = checks;
