// validateContent in the person's language, under Node: the library's entry (npm/entry.js)
// over the library's wasm (mcp-elicit-web, wasm-bindgen --target nodejs, built by
// tests/node/run.sh into MCP_ELICIT_WEB_PKG). The core's wasm carries no catalogs: each
// error's words come from its code and data, in the web crate's catalogs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { guardedEntry } from "../../npm/entry.js";

const pkg = process.env.MCP_ELICIT_WEB_PKG;
assert.ok(pkg, "set MCP_ELICIT_WEB_PKG to mcp-elicit-web's nodejs package (tests/node/run.sh does)");
const require = createRequire(import.meta.url);
const wasm = require(path.join(pkg, "mcp_elicit_web.js"));
// The nodejs module is ready once required: its init is a no-op here.
const api = guardedEntry(async () => wasm, wasm, "mcp_elicit_web_bg.wasm");
await api.init();

const schema = {
  type: "object",
  properties: {
    name: { type: "string", title: "姓名", minLength: 3 },
    guests: { type: "integer", minimum: 1, maximum: 1500 },
    size: { type: "string", enum: ["s", "m"], enumNames: ["Small", "Medium"] },
    email: { type: "string", format: "email" },
  },
  required: ["name", "email"],
};
const content = { name: "ab", guests: 2000, size: "xl" };

test("validateContent answers in zh-CN, each error with its code and data", () => {
  const answer = api.validateContent(schema, content, { locale: "zh-CN" });
  assert.equal(answer.ok, false);
  const byField = Object.fromEntries(answer.errors.map((e) => [e.field, e]));
  assert.deepEqual(byField.name, {
    field: "name", code: "minLength", message: "至少需要 3 个字符。", data: { limit: 3 },
  });
  assert.equal(byField.guests.code, "maximum");
  assert.equal(byField.guests.message, "不能大于 1,500。");
  assert.deepEqual(byField.guests.data, { maximum: 1500 });
  assert.equal(byField.size.code, "enum");
  // Server text (the choices' titles) is not translated.
  assert.equal(byField.size.message, "必须是以下之一：Small、Medium。");
  assert.deepEqual(byField.size.data, { choices: ["s", "m"] });
  assert.equal(byField.email.message, "此字段为必填项。");
});

test("numbers are written as the locale writes them", () => {
  const answer = api.validateContent(schema, { name: "abc", email: "a@b.c", guests: 2000 }, { locale: "de" });
  assert.deepEqual(answer.errors.map((e) => e.message), ["Darf höchstens 1.500 sein."]);
});

test("without options the core's English answer is unchanged", () => {
  const answer = api.validateContent(schema, content);
  assert.equal(answer.errors[0].message, "Must be at least 3 characters.");
  assert.equal(answer.errors[0].data, undefined);
});

test("a connection's text may be overridden where no connection was made", () => {
  // This wasm has made no connection, so it has no English of a connection's texts to
  // check an override against: the override is taken as given.
  const answer = api.validateContent(schema, content, {
    locale: "de",
    messages: { "client.not_connected": "Keine Verbindung." },
  });
  assert.equal(answer.ok, false);
  assert.throws(
    () => api.validateContent(schema, content, { messages: { "nope.key": "x" } }),
    /"nope\.key" is not a message key/,
  );
});

test("a host's override shows, and one with other placeholders is refused", () => {
  const answer = api.validateContent(schema, content, {
    locale: "en",
    messages: { "error.min_length": "Please type {count}+ characters." },
  });
  assert.equal(answer.errors[0].message, "Please type 3+ characters.");
  assert.throws(
    () => api.validateContent(schema, content, { messages: { "error.min_length": "At least {n}." } }),
    /messages\.error\.min_length: the text must use the placeholders \{count\}/,
  );
});

const nested = { type: "object", properties: { adresse: { type: "object" } } };

test("a refused schema is said in the chosen language, with its code and data", () => {
  const thrown = (f) => {
    try {
      f();
    } catch (e) {
      return e;
    }
    assert.fail("the schema was accepted");
  };
  const de = thrown(() => api.compileSchema(nested, { locale: "de" }));
  assert.equal(de.name, "SchemaError");
  assert.equal(de.path, "/properties/adresse");
  assert.equal(de.code, "nested");
  assert.deepEqual(de.data, { name: "adresse" });
  // The field's name is server text: as it came.
  assert.equal(de.message, "„adresse“ ist ein verschachteltes Objekt; unterstützt werden nur flache Felder.");
  // The JSON type found is a word of the language too; validateContent refuses alike.
  const zh = thrown(() => api.validateContent({ type: "string" }, {}, { locale: "zh-CN" }));
  assert.equal(zh.code, "root_type");
  assert.deepEqual(zh.data, { found: "string" });
  assert.equal(zh.message, "请求的 Schema 的“type”必须为“object”，而不是字符串。");
  // Without options: English, with the code and no data (as field errors).
  const en = thrown(() => api.compileSchema(nested));
  assert.equal(en.message, "\"adresse\" is a nested object; only flat fields are supported.");
  assert.equal(en.code, "nested");
  assert.equal(en.data, undefined);
  // A schema the core refuses before compiling (an undefined member is not JSON to it)
  // keeps the core's words, though another refusal is in it too.
  const notJson = thrown(() =>
    api.compileSchema({ type: "object", properties: { a: { type: "object" }, b: undefined } }, { locale: "de" }),
  );
  assert.equal(notJson.code, "not_json");
  assert.match(notJson.message, /^The requested schema is not JSON: /);
  assert.equal(notJson.data, undefined);
  // A host's override of a refusal's words shows; one with other placeholders is refused.
  const mine = thrown(() =>
    api.compileSchema(nested, { locale: "ja", messages: { "schema.nested": "{name}: nested" } }),
  );
  assert.equal(mine.message, "adresse: nested");
  assert.throws(
    () => api.compileSchema(nested, { messages: { "schema.nested": "{field}" } }),
    /messages\.schema\.nested: the text must use the placeholders \{name\}/,
  );
});
