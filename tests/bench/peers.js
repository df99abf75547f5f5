// The peer validators, as the TypeScript SDK imports them: Node.js imports this file, and
// scripts/bench bundles it with esbuild for the browser page (served at /peers/peers.js).
export { Validator } from "@cfworker/json-schema";
export { default as Ajv } from "ajv";
export { default as addFormats } from "ajv-formats";
