// Lets the conformance CLI start on Node 20, which lacks `fs.globSync` (Node 22).
//
// The CLI does `import { globSync } from "fs"`; a builtin's ESM export names are fixed
// when Node starts, so assigning `fs.globSync` cannot help. This file is loaded with
// `node --import ./node20-fs-globsync.mjs` and registers a resolve hook that, on a Node
// without `fs.globSync`, sends the conformance package's `fs` imports to fs-with-glob.mjs
// (all of `node:fs` plus a small globSync). Any other importer, and any Node that has
// `fs.globSync`, resolves as usual.
import fs from "node:fs";
import { register } from "node:module";

if (typeof fs.globSync !== "function") {
  register("./fs-globsync-hook.mjs", import.meta.url);
}
