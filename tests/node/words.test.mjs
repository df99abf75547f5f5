// The words the encoding writes by number (WORDS in core/src/schema/json/bytes.rs) are sent
// to the shared snippet by each module once. A module that sends another list (a mixed
// build sharing the snippet) turns the numbers off for all: every string is then written
// in full, and every answer stays the same. Its own file: it changes the snippet for the
// rest of the process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readdirSync } from "node:fs";
import path from "node:path";

const pkg = process.env.MCP_ELICIT_PKG;
assert.ok(pkg, "set MCP_ELICIT_PKG to the wasm-bindgen nodejs package (tests/node/run.sh does)");
const require = createRequire(import.meta.url);
const { compileSchema, validateContent } = require(path.join(pkg, "mcp_elicit.js"));
const [snippetDir] = readdirSync(path.join(pkg, "snippets"));
const snippet = require(path.join(pkg, "snippets", snippetDir, "src", "js_strict_json.js"));

const schema = {
  type: "object",
  title: "type",
  properties: {
    type: { type: "string", format: "date-time", title: "string", description: "properties" },
    string: { type: "array", items: { type: "string", enum: ["object", "date", "maxLength", "Type"] } },
  },
  required: ["type", "string"],
};
const answers = [
  { type: "2025-12-26T10:00:00Z", string: ["object", "maxLength"] },
  { type: "date-time", string: ["Type"] },
  { type: "2025-12-26T10:00:00Z", string: ["properties"] },
];

function everyAnswer() {
  return { spec: compileSchema(schema), results: answers.map((a) => validateContent(schema, a)) };
}

test("a second, different list of words changes no answer", () => {
  const before = everyAnswer();
  assert.equal(before.spec.title, "type");
  assert.deepEqual(before.results[0], { ok: true, content: answers[0] });
  assert.deepEqual(before.results.slice(1).map((r) => r.ok), [false, false]);
  // The module sent its list on its first crossing, above; the same list again is no
  // change, another one turns the numbers off.
  snippet.setWords("type title properties");
  snippet.setWords("title type properties");
  assert.deepEqual(everyAnswer(), before);
});
