// The worst schemas for the compiler, through the core's JS API: each compiles, or is
// refused in words at its pointer, and the time each took is printed (never asserted:
// core/tests/all/schema_cost.rs bounds the same cases by the work the compiler counts).
// Run with a release build to read the figures: MCP_ELICIT_PKG=<nodejs pkg of a release
// wasm> node --test tests/node/compile_cost.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";

const pkg = process.env.MCP_ELICIT_PKG;
assert.ok(pkg, "set MCP_ELICIT_PKG to the wasm-bindgen nodejs package (tests/node/run.sh does)");
const require = createRequire(import.meta.url);
const { compileSchema, validateContent } = require(path.join(pkg, "mcp_elicit.js"));

const MAX_PATTERN_LEN = 2048;
const MAX_ENUM_OPTIONS = 50000;

/** `(?:(?:(a)bbb…b){0}){20000}`, 2,048 bytes (issue 36, item 1). */
function zeroRepeat() {
  const head = "(?:(?:(a)";
  const tail = "){0}){20000}";
  return head + "b".repeat(MAX_PATTERN_LEN - head.length - tail.length) + tail;
}

const hostile = {
  "zero repeat of a big group": zeroRepeat(),
  "one instruction, many visits": "(?:a" + "(?:){0}".repeat(290) + "){20000}",
  "program at its bound": "(?:a{999}){20}",
  "program past its bound": "(?:[a-z]{1000}){1000}",
  "32 properties": "\\p{L}".repeat(32),
  "300 properties": "\\p{Lu}".repeat(300),
  "many ranges": "\\S".repeat(745),
  "200 groups, a repeated back-reference": "(a)".repeat(200) + "\\1{20000}",
};

function patterned(n, pattern) {
  const properties = {};
  for (let i = 0; i < n; i++) properties[`f${i}`] = { type: "string", pattern, default: "a".repeat(100) };
  return { type: "object", properties };
}

function lists(n, each, then = {}) {
  const values = Array.from({ length: each }, (_, k) => `v${k}`);
  const properties = {};
  for (let i = 0; i < n; i++) properties[`m${i}`] = { type: "array", items: { type: "string", enum: values } };
  return { type: "object", properties: { ...properties, ...then } };
}

/** Compiles `schema` and validates its defaults, printing how long each took. */
function timed(name, schema) {
  let t = performance.now();
  let spec = null;
  let refused = null;
  try {
    spec = compileSchema(schema);
  } catch (e) {
    refused = e;
  }
  const compileMs = performance.now() - t;
  t = performance.now();
  let r;
  try {
    r = validateContent(schema, {});
  } catch (e) {
    r = e; // a refused schema throws here too
  }
  const validateMs = performance.now() - t;
  console.log(
    `${name}: compileSchema ${compileMs.toFixed(1)} ms, validateContent ${validateMs.toFixed(1)} ms` +
      (refused ? ` (refused at ${refused.path}: ${refused.message})` : ""),
  );
  return { spec, refused, r };
}

test("1,000 fields of each hostile pattern compile, their patterns unchecked past the budget", () => {
  for (const [name, pattern] of Object.entries(hostile)) {
    assert.ok(pattern.length <= MAX_PATTERN_LEN, name);
    const { spec, refused } = timed(`1,000 × ${name}`, patterned(1000, pattern));
    assert.equal(refused, null, name);
    assert.equal(spec.fields.length, 1000, name);
  }
});

test("two full lists and 998 hostile patterns compile", () => {
  const then = patterned(998, zeroRepeat()).properties;
  const { spec, refused } = timed("2 × 50,000 choices + 998 × zero repeat", lists(2, MAX_ENUM_OPTIONS, then));
  assert.equal(refused, null);
  assert.equal(spec.fields.length, 1000);
});

test("as many full lists as fit in 16 MiB are refused at /properties, in words", () => {
  const schema = lists(38, MAX_ENUM_OPTIONS);
  assert.ok(JSON.stringify(schema).length <= 16 * 1024 * 1024, "within the message limit");
  const { refused, r } = timed("38 × 50,000 choices (16.7 MB of JSON)", schema);
  assert.ok(refused instanceof Error);
  assert.equal(refused.path, "/properties");
  assert.match(refused.message, /100000/);
  assert.equal(r.path, "/properties");
});
