// The validation benchmark in Node.js (www/bench-validate.js): the core's JS API built for
// Node (wasm-bindgen --target nodejs, release) against the peers. Prints JSON.
//
//   node tests/bench/node-validate.mjs CORE_NODE_PKG_DIR [--out FILE]
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import * as peers from "./peers.js";
import { measureValidation } from "../../www/bench-validate.js";

const { values, positionals } = parseArgs({ options: { out: { type: "string", default: "" } }, allowPositionals: true });
const dir = resolve(positionals[0] ?? "");
const entry = readdirSync(dir).find((f) => f.endsWith(".js") && !f.endsWith("_bg.js"));
if (!entry) throw new Error(`no wasm-bindgen module in ${dir}`);
const core = createRequire(import.meta.url)(join(dir, entry));
const results = { node: process.version, ...measureValidation(core, peers) };
const text = JSON.stringify(results, null, 2);
if (values.out) {
  mkdirSync(dirname(resolve(values.out)), { recursive: true });
  writeFileSync(values.out, text + "\n");
}
console.log(text);
