// Resolve hook registered by node20-fs-globsync.mjs: `fs` / `node:fs` imported from
// inside node_modules resolves to fs-with-glob.mjs. The shim itself imports `node:fs`
// and so is excluded.
const SHIM = new URL("./fs-with-glob.mjs", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL ?? "";
  if ((specifier === "fs" || specifier === "node:fs") && parent !== SHIM && parent.includes("/node_modules/")) {
    return { url: SHIM, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
