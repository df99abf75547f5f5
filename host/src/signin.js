// Sign-in's own wasm (the signin/ crate: mcp_elicit_signin.js and its _bg.wasm, beside
// mcp_elicit_host.js), loaded the first time a server asks the person to sign in, so a
// page whose servers never do downloads none of it. wasm-bindgen puts this file in
// snippets/mcp-elicit-host-<hash>/src/, three folders below mcp_elicit_host.js; a
// bundler follows the import and makes the module a chunk of its own.

// Longest wait for that wasm to load before the sign-in fails in words (docs/limits.md);
// the next sign-in tries again.
const LOAD_TIMEOUT_MS = 60000;

let loading;
let failures = 0;

function importModule() {
  if (failures === 0) return import("../../../mcp_elicit_signin.js");
  // Chromium keeps a failed module import for the page's life: a later try asks anew.
  const again = new URL("../../../mcp_elicit_signin.js", import.meta.url);
  again.searchParams.set("retry", String(failures));
  return import(again.href);
}

function load(wasm) {
  if (!loading) {
    const loaded = importModule().then(async (module) => {
      // `auth.signInWasm`, else beside mcp_elicit_signin.js.
      await module.default(wasm ? { module_or_path: wasm } : undefined);
      return module;
    });
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("sign-in's wasm took too long to load")), LOAD_TIMEOUT_MS);
    });
    loading = Promise.race([loaded, late]).finally(() => clearTimeout(timer));
    // A failed or late load is tried again at the next sign-in.
    loading.catch(() => {
      failures += 1;
      loading = undefined;
    });
  }
  return loading;
}

/** Runs one sign-in in that wasm: (input) => Promise of the new grant's record. */
export function signInRunner() {
  return (input) => load(input.wasm).then((module) => module.signIn(input));
}
