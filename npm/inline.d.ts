// Types of `mcp-elicit/inline`: the package's exports, with an init that takes nothing (the
// .wasm is inside the module). scripts/build-npm makes `mcp-elicit/client/inline`'s from it.
export * from "./index.js";
import type { InitOutput } from "./mcp_elicit_web.js";

/** Instantiates the embedded WebAssembly module; every other export needs it. */
export default function initInline(): Promise<InitOutput>;
