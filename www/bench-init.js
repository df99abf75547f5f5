// init() time of the package: fetch + compile + instantiate of its wasm, median of fresh
// loads. Each load imports a fresh copy of the JS module (a new query string is a new
// module, with no wasm instance yet) and gives init() a wasm URL never fetched before, so
// neither the HTTP cache nor V8's code cache (kept per URL) can serve it. The comparison: init() of a fresh module copy given the same
// bytes already fetched (compile + instantiate only). Ratio = fresh load / already fetched.
import { median } from "./bench-cases.js";

/** Fresh loads per side; the median is reported. Each keeps a wasm instance alive in the page. */
const LOADS = 7;

let serial = 0;
const fresh = () => `${Date.now()}-${serial++}`;

async function freshModule() {
  return import(`./pkg/mcp_elicit_web.js?load=${fresh()}`);
}

async function timeInit(mod, arg) {
  const t0 = performance.now();
  await mod.default({ module_or_path: arg });
  return performance.now() - t0;
}

const status = document.querySelector("[data-testid=bench-status]");
const out = document.querySelector("[data-testid=bench-results]");
try {
  const wasmUrl = new URL("./pkg/mcp_elicit_web_bg.wasm", location.href);
  const samples = { fetched: [], prefetched: [] };
  // One untimed load of each kind first: the page's own first-time costs.
  for (let i = -1; i < LOADS; i++) {
    const url = new URL(wasmUrl);
    url.searchParams.set("load", fresh());
    const a = await timeInit(await freshModule(), url);
    const bytes = await (await fetch(new URL(`?load=${fresh()}`, wasmUrl))).arrayBuffer();
    const b = await timeInit(await freshModule(), bytes);
    if (i >= 0) {
      samples.fetched.push(a);
      samples.prefetched.push(b);
    }
  }
  const wasmBytes = (await (await fetch(wasmUrl)).arrayBuffer()).byteLength;
  const results = {
    wasm_bytes: wasmBytes,
    init_ms: +median(samples.fetched).toFixed(2),
    prefetched_ms: +median(samples.prefetched).toFixed(2),
    ratio: +(median(samples.fetched) / median(samples.prefetched)).toFixed(2),
    samples_ms: {
      fetched: samples.fetched.map((x) => +x.toFixed(2)),
      prefetched: samples.prefetched.map((x) => +x.toFixed(2)),
    },
  };
  window.benchResults = results;
  out.textContent = JSON.stringify(results, null, 2);
  status.textContent = "done";
} catch (e) {
  window.benchError = String(e && e.stack ? e.stack : e);
  status.textContent = `failed: ${window.benchError}`;
}
