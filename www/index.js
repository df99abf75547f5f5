// The demo page's script (a file: index.html's CSP allows no inline script).
// The demo app's package (crate mcp-elicit-demo, www/demo/) is built into ./demo/pkg by
// scripts/build-www (wasm-bindgen --target web).
import init, { mountDemo } from "./demo/pkg/mcp_elicit_demo.js";
import { refuseIfFramed } from "./frame-guard.js";

const root = document.getElementById("app");
if (!refuseIfFramed()) {
  try {
    await init();
    mountDemo(root);
  } catch (err) {
    const alert = document.createElement("p");
    alert.setAttribute("role", "alert");
    alert.textContent = "The demo could not start: " + (err && err.message ? err.message : String(err));
    root.replaceChildren(alert);
  }
}
