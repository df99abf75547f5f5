// The validation benchmark in the browser (bench-validate.js): the core's JS API built for
// the web (served at /core/) against the peers bundled for the browser (/peers/peers.js).
import * as peers from "./peers/peers.js";
import { measureValidation } from "./bench-validate.js";

const status = document.querySelector("[data-testid=bench-status]");
const out = document.querySelector("[data-testid=bench-results]");
try {
  const core = await import("./core/mcp_elicit.js");
  await core.default();
  const results = measureValidation(core, peers);
  window.benchResults = results;
  out.textContent = JSON.stringify(results, null, 2);
  status.textContent = "done";
} catch (e) {
  window.benchError = String(e && e.stack ? e.stack : e);
  status.textContent = `failed: ${window.benchError}`;
}
