// Sign-in's own wasm (the signin/ crate: mcp_elicit_signin.js and its _bg.wasm, beside
// mcp_elicit_host.js), loaded the first time a server asks the person to sign in, so a
// page whose servers never do downloads none of it. wasm-bindgen puts this file in
// snippets/mcp-elicit-host-<hash>/src/, three folders below mcp_elicit_host.js; a
// bundler follows the import and makes the module a chunk of its own.
let loading;

function load(wasm) {
  if (!loading) {
    loading = import("../../../mcp_elicit_signin.js").then(async (module) => {
      // `auth.signInWasm`, else beside mcp_elicit_signin.js.
      await module.default(wasm ? { module_or_path: wasm } : undefined);
      return module;
    });
    // A failed load (offline, a missing file) is tried again at the next sign-in.
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

/** Runs one sign-in in that wasm: (input) => Promise of the new grant's record. */
export function signInRunner() {
  return (input) => load(input.wasm).then((module) => module.signIn(input));
}
