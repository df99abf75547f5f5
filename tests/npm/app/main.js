// What a developer writes after `npm install mcp-elicit`, bundled with esbuild. The .wasm is
// imported with esbuild's `file` loader (--loader:.wasm=file): esbuild copies it into dist/
// and gives its path relative to the bundle, resolved against the bundle's own URL.
import init, * as mce from "mcp-elicit";
import { elicit } from "mcp-elicit";
import wasmUrl from "mcp-elicit/mcp_elicit_web_bg.wasm";
import "mcp-elicit/style.css";

const out = (id, value) => {
  document.getElementById(id).textContent = JSON.stringify(value);
};

window.exportNames = Object.keys(mce).sort();

// Before init: the guard's error, not a TypeError from the glue.
try {
  await elicit(document.getElementById("slot"), { message: "x", requestedSchema: {} });
  out("before-init", { error: null });
} catch (e) {
  out("before-init", { error: String(e && e.message) });
}

// Without an argument, in an esbuild bundle: the .wasm is not next to the bundle under its
// own name, and the error says what to do.
try {
  await init();
  out("default-init", { error: null });
} catch (e) {
  out("default-init", { error: String(e && e.message) });
}

await init({ module_or_path: new URL(wasmUrl, import.meta.url) });

// The custom element from the installed package: its card in its own shadow root.
mce.defineElements();
const element = document.createElement("mcp-elicitation");
element.params = { message: "From the element", requestedSchema: { type: "object", properties: {} } };
element.addEventListener("answer", (e) => out("element-result", e.detail));
document.body.append(element);

// A card in German: its catalog is a file of the package (i18n/de.js), which the glue
// imports when a card needs it, and esbuild followed.
elicit(
  document.getElementById("german"),
  { message: "Auf Deutsch", requestedSchema: { type: "object", properties: {} } },
  { locale: "de" },
).then((r) => out("german-result", r));

const result = await elicit(
  document.getElementById("slot"),
  {
    message: "What should we call you?",
    requestedSchema: {
      type: "object",
      properties: { name: { type: "string", title: "Name", minLength: 1 } },
      required: ["name"],
    },
  },
  { serverName: "Scratch", serverHost: "scratch.example" },
);
out("result", result);
