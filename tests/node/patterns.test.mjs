// The pattern table (core/tests/fixtures/patterns.json) in Node: every ECMA-262 case is
// what V8's `new RegExp(pattern, "u")` answers, and the core's JS API (validateContent)
// answers the same; a `skipped` case (RegExp throws) compiles and is not checked; a
// `python` case (Python-only syntax that RegExp refuses) is read as Python means it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pkg = process.env.MCP_ELICIT_PKG;
assert.ok(pkg, "set MCP_ELICIT_PKG to the wasm-bindgen nodejs package (tests/node/run.sh does)");
const require = createRequire(import.meta.url);
const { compileSchema, validateContent } = require(path.join(pkg, "mcp_elicit.js"));
const here = path.dirname(fileURLToPath(import.meta.url));
const table = JSON.parse(readFileSync(path.join(here, "../../core/tests/fixtures/patterns.json"), "utf8"));

function v8(pattern, value) {
  try {
    return new RegExp(pattern, "u").test(value) ? "match" : "nomatch";
  } catch {
    return "skipped";
  }
}

function ours(pattern, value) {
  const schema = { type: "object", properties: { x: { type: "string", pattern } } };
  compileSchema(schema); // throws if the schema is refused
  const r = validateContent(schema, { x: value });
  if (r.ok) return "match-or-unchecked";
  assert.deepEqual(r.errors.map((e) => e.code), ["pattern"], JSON.stringify(r.errors));
  return "nomatch";
}

test("the table has its cases", () => {
  assert.ok(table.cases.length > 100);
});

test("every case is what RegExp(p, 'u') answers (Python cases: RegExp refuses them)", () => {
  const wrong = table.cases.filter((c) => v8(c.pattern, c.value) !== (c.dialect === "python" ? "skipped" : c.expect));
  assert.deepEqual(wrong, []);
});

test("validateContent answers every case as the table says, and never refuses the schema", () => {
  const wrong = [];
  for (const c of table.cases) {
    const want = c.expect === "nomatch" ? "nomatch" : "match-or-unchecked";
    const got = ours(c.pattern, c.value);
    if (got !== want) wrong.push({ ...c, got });
  }
  assert.deepEqual(wrong, []);
});

test("a catastrophic pattern on a long text answers without hanging", () => {
  const schema = { type: "object", properties: { x: { type: "string", pattern: "^(a+)+$" } } };
  const r = validateContent(schema, { x: "a".repeat(9999) + "!" });
  assert.equal(r.ok, false);
  assert.equal(r.errors[0].code, "pattern");
});

test("a leap second is a date-time (RFC 3339 5.7)", () => {
  const schema = { type: "object", properties: { t: { type: "string", format: "date-time" } } };
  assert.equal(validateContent(schema, { t: "2016-12-31T23:59:60Z" }).ok, true);
  assert.equal(validateContent(schema, { t: "2016-12-31T23:59:61Z" }).ok, false);
});
