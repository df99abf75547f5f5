// Resolve hook registered by node20-fs-globsync.mjs: `fs` / `node:fs` imported by the
// conformance CLI (either pinned version, under its npm alias or its own name) resolves
// to fs-with-glob.mjs. Every other importer, the shim included, gets `node:fs` itself.
const SHIM = new URL("./fs-with-glob.mjs", import.meta.url).href;
const CONFORMANCE = /\/node_modules\/(conformance-[^/]+|@modelcontextprotocol\/conformance)\//;

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === "fs" || specifier === "node:fs") && CONFORMANCE.test(context.parentURL ?? "")) {
    return { url: SHIM, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
