// The core's JS API from Node.js, on the wasm-bindgen `--target nodejs` build that
// tests/node/run.sh makes (its directory is passed in MCP_ELICIT_PKG).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

const pkg = process.env.MCP_ELICIT_PKG;
assert.ok(pkg, "set MCP_ELICIT_PKG to the wasm-bindgen nodejs package (tests/node/run.sh does)");
const require = createRequire(import.meta.url);
const { compileSchema, validateContent, compileValidator } = require(path.join(pkg, "mcp_elicit.js"));

// What mcp==2.3.0 sends for the booking example (core/tests/fixtures/transcripts/).
const booking = {
  properties: {
    accept_alternative: { description: "Try another date?", title: "Accept Alternative", type: "boolean" },
    date: { default: "2025-12-26", description: "Alternative date (YYYY-MM-DD)", title: "Date", type: "string" },
  },
  required: ["accept_alternative"],
  title: "AlternativeDate",
  type: "object",
};

test("compileSchema returns a plain form description in property order", () => {
  const spec = compileSchema(booking);
  assert.equal(Object.getPrototypeOf(spec), Object.prototype);
  assert.deepEqual(spec, {
    title: "AlternativeDate",
    fields: [
      { name: "accept_alternative", label: "Accept Alternative", description: "Try another date?", required: true, kind: "boolean" },
      { name: "date", label: "Date", description: "Alternative date (YYYY-MM-DD)", required: false, default: "2025-12-26", kind: "string" },
    ],
  });
});

test("every enum shape compiles to options", () => {
  const spec = compileSchema({
    type: "object",
    properties: {
      a: { type: "string", enum: ["x", "y"] },
      b: { type: "string", oneOf: [{ const: "x", title: "Ex" }] },
      c: { type: "string", enum: ["x"], enumNames: ["Ex"] },
      d: { type: "array", items: { type: "string", enum: ["x"] }, minItems: 1 },
      e: { type: "array", items: { anyOf: [{ const: "x", title: "Ex" }] }, maxItems: 1 },
    },
  });
  assert.deepEqual(spec.fields.map((f) => f.kind), ["select", "select", "select", "multiSelect", "multiSelect"]);
  assert.deepEqual(spec.fields[1].options, [{ value: "x", title: "Ex" }]);
  assert.equal(spec.fields[3].minItems, 1);
});

test("compileSchema throws an Error with the JSON pointer of the problem", () => {
  const cases = [
    [{ type: "object", properties: { address: { type: "object", properties: {} } } }, "/properties/address"],
    [{ type: "object", properties: { a: { $ref: "#/$defs/A" } } }, "/properties/a/$ref"],
    [{ type: "object", properties: { a: { type: ["string", "null"] } } }, "/properties/a/type"],
    [{ type: "object", properties: { a: { type: "string", enum: [] } } }, "/properties/a/enum"],
    [{ type: "object", properties: { a: { type: "integer", default: "1" } } }, "/properties/a/default"],
    [[], ""],
  ];
  for (const [schema, path] of cases) {
    assert.throws(
      () => compileSchema(schema),
      (e) => e instanceof Error && e.path === path && e.message.length > 10,
      `expected a throw at ${path}`,
    );
  }
});

test("validateContent accepts typed content and returns it", () => {
  const r = validateContent(booking, { accept_alternative: true, date: "2025-12-27" });
  assert.deepEqual(r, { ok: true, content: { accept_alternative: true, date: "2025-12-27" } });
});

test("validateContent gives one error per failing field with stable codes", () => {
  const schema = {
    type: "object",
    properties: {
      name: { type: "string", maxLength: 3 },
      n: { type: "integer", minimum: 1 },
      mail: { type: "string", format: "email" },
      pick: { type: "array", items: { enum: ["a", "b"] }, maxItems: 1 },
      must: { type: "boolean" },
    },
    required: ["must"],
  };
  const r = validateContent(schema, { name: "toolong", n: 0, mail: "nope", pick: ["a", "b"], zz: 1 });
  assert.equal(r.ok, false);
  assert.deepEqual(
    r.errors.map((e) => [e.field, e.code]),
    [["name", "maxLength"], ["n", "minimum"], ["mail", "format"], ["pick", "maxItems"], ["must", "required"], ["zz", "unknownField"]],
  );
  assert.equal(r.errors[0].message, "Must be at most 3 characters.");
});

test("validateContent throws for a refused schema", () => {
  assert.throws(() => validateContent({ type: "object", properties: { a: { type: "object" } } }, {}), (e) => e.path === "/properties/a");
});

test("values that are not JSON never crash", () => {
  for (const weird of [undefined, () => 1, Symbol("s"), 5n]) {
    assert.throws(() => compileSchema(weird), (e) => e instanceof Error && e.path === "");
    assert.equal(validateContent(booking, weird).ok, false);
  }
});

test("content is read as JSON.stringify reads it: a function's toJSON is asked too", () => {
  const fromFunction = Object.assign(() => {}, { toJSON: () => ({ accept_alternative: true }) });
  assert.deepEqual(validateContent(booking, fromFunction), { ok: true, content: { accept_alternative: true } });
  const date = Object.assign(function date() {}, { toJSON: () => "2025-12-27" });
  assert.deepEqual(validateContent(booking, { accept_alternative: false, date }), {
    ok: true,
    content: { accept_alternative: false, date: "2025-12-27" },
  });
  // A function without toJSON is refused in the words it always had.
  assert.throws(() => compileSchema(() => 1), (e) => e.path === "" && /it is a function, not JSON/.test(e.message));
});

test("text of every UTF-8 width crosses whole, however long; a lone surrogate is not JSON", () => {
  // 1, 2, 3 and 4 bytes a character, in runs long enough that the room for all-ASCII text
  // runs out on the way in.
  for (const unit of ["a", "é", "€", "😀", "a€😀é"]) {
    for (const n of [1, 3, 40, 5000]) {
      const label = unit.repeat(n);
      const schema = { type: "object", properties: { [label]: { type: "string", title: label, enum: [label] } } };
      const spec = compileSchema(schema);
      assert.equal(spec.fields[0].name, label);
      assert.deepEqual(spec.fields[0].options, [{ value: label, title: label }]);
      assert.deepEqual(validateContent(schema, { [label]: label }), { ok: true, content: { [label]: label } });
      const wrong = validateContent(schema, { [label]: label + "x" });
      assert.equal(wrong.ok, false);
      assert.equal(wrong.errors[0].field, label);
    }
  }
  assert.throws(
    () => compileSchema({ type: "object", title: "\ud800" }),
    (e) => e.path === "" && /not JSON: it could not be read as JSON \(.* hex escape at line 1 column 33\)/.test(e.message),
  );
});

test("a getter is read once when the value is plain JSON, and a second answer is never written", () => {
  let reads = 0;
  const flipping = () => ({
    get accept_alternative() {
      reads += 1;
      return reads === 1 ? true : 10n;
    },
  });
  // Plain JSON data crosses in one walk: the getter answers once, and that answer is checked.
  assert.deepEqual(validateContent(booking, flipping()), { ok: true, content: { accept_alternative: true } });
  assert.equal(reads, 1);
  // Beside a value the walk is not sure of (a Date, which has toJSON), the value goes the
  // text way, which reads the getter again: its BigInt is refused in words, never written.
  reads = 0;
  const r = validateContent(booking, Object.assign(flipping(), { date: new Date(0) }));
  assert.equal(r.ok, false);
  assert.match(JSON.stringify(r), /accept_alternative is a BigInt, not JSON/);
  assert.ok(reads > 1);
});

test("a call made from a getter never lends its content to the call that ran it", () => {
  const inner = compileValidator({ type: "object", properties: { n: { type: "integer" } } });
  const schema = { type: "object", properties: { a: { type: "string" }, d: { type: "string" }, big: { type: "integer" } } };
  // The outer content goes the text way (a Date; a boxed number), the inner call the fast
  // way, and fails.
  for (const [key, other] of [["d", new Date(0)], ["big", new Number(5)]]) {
    const content = {
      get a() {
        assert.equal(inner.validate({ n: "not an integer", secret: [1] }).ok, false);
        return "x";
      },
      [key]: other,
    };
    assert.deepEqual(validateContent(schema, content), { ok: true, content: JSON.parse(JSON.stringify({ a: "x", [key]: other })) });
  }
  inner.free();
});

test("a boxed primitive is read as JSON.stringify reads it, whatever its prototype", () => {
  const schema = { type: "object", properties: { b: { type: "boolean" }, s: { type: "string" } } };
  const bare = (box, proto) => Object.setPrototypeOf(box, proto);
  assert.deepEqual(validateContent(schema, { b: bare(new Boolean(true), null) }), { ok: true, content: { b: true } });
  assert.deepEqual(validateContent(schema, { s: bare(new String("ab"), Object.prototype) }), {
    ok: true,
    content: { s: "[object String]" },
  });
  const hidden = bare(new Boolean(false), Object.prototype);
  hidden[Symbol.toStringTag] = "Object";
  assert.deepEqual(validateContent(schema, { b: hidden }), { ok: true, content: { b: false } });
  const number = validateContent(schema, { b: bare(new Number(5), null) });
  assert.equal(number.ok, false);
  assert.match(number.errors[0].message, /reading it threw/);
  // A BigInt box has no tag of its own to tell it by: the walk reads it as the empty object
  // it looks like, where JSON.stringify throws. Refused either way, in other words.
  const bigint = validateContent(schema, { b: bare(Object(1n), null) });
  assert.equal(bigint.ok, false);
});

test("an array's length is read once, as JSON.stringify reads it, even from a Proxy", () => {
  const schema = { type: "object", properties: { m: { type: "array", items: { type: "string", enum: ["a", "b"] } } } };
  const odd = new Proxy(["a", "b"], { get: (t, k) => (k === "length" ? 1.5 : t[k]) });
  assert.deepEqual(validateContent(schema, { m: odd }), { ok: true, content: { m: ["a"] } });
  let reads = 0;
  const shifting = new Proxy(["a", "b"], { get: (t, k) => (k === "length" ? (++reads === 1 ? 2 : 1) : t[k]) });
  const r = validateContent(schema, { m: shifting });
  assert.equal(r.ok, true);
  assert.deepEqual(r.content.m, JSON.parse(JSON.stringify(r.content.m)));
});

test("accepted content is built as JSON.parse builds it, whatever the prototypes define", () => {
  const schema = {
    type: "object",
    properties: { a: { type: "string" }, ["__proto__"]: { type: "string" }, m: { type: "array", items: { type: "string", enum: ["x"] } } },
  };
  const swallowed = [];
  const push = Array.prototype.push;
  Object.defineProperty(Object.prototype, "a", { set: (v) => swallowed.push(v), configurable: true });
  Array.prototype.push = () => {
    throw new Error("push was called");
  };
  try {
    const content = JSON.parse('{"a":"x","__proto__":"p","m":["x"]}');
    const r = validateContent(schema, content);
    assert.equal(r.ok, true);
    assert.ok(Object.hasOwn(r.content, "a") && Object.hasOwn(r.content, "__proto__"));
    assert.equal(Object.getPrototypeOf(r.content), Object.prototype);
    assert.equal(JSON.stringify(r.content), '{"a":"x","__proto__":"p","m":["x"]}');
  } finally {
    delete Object.prototype.a;
    Array.prototype.push = push;
  }
  assert.deepEqual(swallowed, []);
});

test("a number gets the same verdict whichever way the schema and the content crossed", () => {
  // Decimals serde_json reads a unit in the last place off; a Date sends the content the
  // text way, a string member the fast way.
  for (const x of [942.3766457461393, 981.2327862292527, 193.66666666666666, 0.1 + 0.2]) {
    for (const bound of ["minimum", "maximum"]) {
      const schema = { type: "object", properties: { v: { type: "number", [bound]: x }, d: { type: "string" } } };
      const fast = validateContent(schema, { v: x, d: "1970-01-01T00:00:00.000Z" });
      const text = validateContent(schema, { v: x, d: new Date(0) });
      assert.equal(fast.ok, true, `${bound} ${x}`);
      assert.deepEqual(text, fast, `${bound} ${x}`);
      const handle = compileValidator(schema);
      assert.deepEqual(handle.validate({ v: x, d: new Date(0) }), fast);
      handle.free();
    }
  }
});

test("a cycle is refused without the walk going round it", () => {
  let reads = 0;
  const content = {
    get a() {
      reads += 1;
      return "x";
    },
  };
  content.self = { back: content };
  const r = validateContent({ type: "object", properties: { a: { type: "string" } } }, content);
  assert.equal(r.ok, false);
  assert.match(r.errors[0].message, /cycle/);
  // Once by the walk, which stops where the cycle closes, once by the text way's check.
  assert.equal(reads, 2);
});

test("the TypeScript declarations are precise", () => {
  const dts = readFileSync(path.join(pkg, "mcp_elicit.d.ts"), "utf8");
  assert.match(dts, /export function compileSchema\(requested_schema: JsonValue\): FormSpec;/);
  assert.match(dts, /export function validateContent\(requested_schema: JsonValue, content: JsonValue\): ValidationResult;/);
  assert.match(dts, /export type ErrorCode =/);
  assert.match(dts, /export function compileValidator\(requested_schema: JsonValue\): ContentValidator;/);
  assert.match(dts, /validate\(content: JsonValue\): ValidationResult;/);
});

test("compileValidator answers what validateContent answers, call after call", () => {
  const contents = [
    { accept_alternative: true, date: "2025-12-27" },
    { accept_alternative: "yes", extra: 1 },
    {},
    [true],
    () => 1,
    { accept_alternative: true, date: undefined },
    { accept_alternative: 10n },
  ];
  const validator = compileValidator(booking);
  for (let round = 0; round < 2; round++) {
    for (const content of contents) {
      assert.deepEqual(validator.validate(content), validateContent(booking, content));
    }
  }
  // Both paths share their code, so the equality above would hold through a change of
  // wording in both: the answers are also pinned, word for word.
  const refused = (field, code, message) => ({ ok: false, errors: [{ field, code, message }] });
  assert.deepEqual(validator.validate({ accept_alternative: "yes", extra: 1 }), {
    ok: false,
    errors: [
      { field: "accept_alternative", code: "type", message: "Must be true or false." },
      { field: "extra", code: "unknownField", message: 'This form has no field named "extra".' },
    ],
  });
  assert.deepEqual(validator.validate({}), refused("accept_alternative", "required", "This field is required."));
  assert.deepEqual(
    validator.validate([true]),
    refused("", "type", "The answer must be an object mapping field names to values."),
  );
  assert.deepEqual(
    validator.validate({ accept_alternative: 10n }),
    refused("", "type", "The answer is not JSON: the member /accept_alternative is a BigInt, not JSON."),
  );
  validator.free();
  // A freed handle throws an Error in words; the module keeps working.
  assert.throws(() => validator.validate({}), Error);
  assert.equal(validateContent(booking, { accept_alternative: false }).ok, true);
});

test("compileValidator throws for a refused schema as compileSchema does", () => {
  const schema = { type: "object", properties: { a: { type: "object" } } };
  assert.throws(() => compileValidator(schema), (e) => e instanceof Error && e.path === "/properties/a" && e.name === "SchemaError");
});

test("two wasm instances sharing the snippet module each get their own values", (t) => {
  // The npm package's two wasm modules import the same snippet file, so one snippet module
  // serves two memories: a view of one memory must never be used to write into the other.
  // A second instance of the core, made as wasm-bindgen's glue makes one, beside the first;
  // its snippet `require` resolves to the very module the first instance uses.
  const { mkdtempSync, copyFileSync, symlinkSync, rmSync } = require("node:fs");
  const os = require("node:os");
  const twin = mkdtempSync(path.join(os.tmpdir(), "mce-twin-"));
  t.after(() => rmSync(twin, { recursive: true, force: true }));
  copyFileSync(path.join(pkg, "mcp_elicit.js"), path.join(twin, "mcp_elicit.js"));
  symlinkSync(path.join(pkg, "mcp_elicit_bg.wasm"), path.join(twin, "mcp_elicit_bg.wasm"));
  symlinkSync(path.join(pkg, "snippets"), path.join(twin, "snippets"));
  const other = require(path.join(twin, "mcp_elicit.js"));
  assert.notEqual(other.validateContent, validateContent, "a second instance");

  const schema = { type: "object", properties: { name: { type: "string", maxLength: 5 } } };
  for (let round = 0; round < 3; round++) {
    assert.deepEqual(validateContent(schema, { name: "Ada" }), { ok: true, content: { name: "Ada" } });
    assert.equal(other.validateContent(schema, { name: "Grace Hopper" }).ok, false);
    // A long value grows the memory of the instance reading it (its old buffer is
    // detached); each instance's answers stay its own.
    const long = "x".repeat(200_000 * (round + 1));
    const big = { type: "object", properties: { note: { type: "string", description: long } } };
    assert.equal(other.validateContent(big, { note: "hi" }).ok, true);
    assert.deepEqual(other.validateContent(schema, { name: "Lin" }), { ok: true, content: { name: "Lin" } });
    assert.equal(validateContent(schema, { name: "Barbara" }).ok, false);
    assert.equal(validateContent(big, { note: long.slice(0, 70) }).ok, true);
  }
});

test("a Proxy whose ownKeys repeats a key is refused, never read with the key twice", () => {
  // The encoding's reader takes an object's keys as distinct (Object.keys never repeats
  // one): the language refuses such a Proxy before the walk could write its key twice.
  const schema = { type: "object", properties: { a: { type: "string" } } };
  const twice = new Proxy(
    { a: "x" },
    {
      ownKeys: () => ["a", "a"],
      getOwnPropertyDescriptor: () => ({ value: "x", enumerable: true, configurable: true, writable: true }),
    },
  );
  const result = validateContent(schema, twice);
  assert.equal(result.ok, false);
  assert.equal(result.errors[0].code, "type");
  assert.match(result.errors[0].message, /^The answer is not JSON: .*duplicate/);
  assert.throws(() => compileSchema(new Proxy({ type: "object" }, { ownKeys: () => ["type", "type"] })), /duplicate/);
});
