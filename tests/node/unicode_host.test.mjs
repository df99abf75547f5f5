// `\p{…}` in wasm is answered by the JS engine's RegExp (propertyId and propertyHas in
// core/src/js_strict_json.js): one RegExp per property name, kept for the process's life. Names the
// engine refuses, and names that could break out of the braces, are answered -1 and not
// kept, so what a server sends cannot grow the set past the names ECMA-262 lists. Its own
// file: it counts on the snippet's state being fresh.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readdirSync } from "node:fs";
import path from "node:path";

const pkg = process.env.MCP_ELICIT_PKG;
assert.ok(pkg, "set MCP_ELICIT_PKG to the wasm-bindgen nodejs package (tests/node/run.sh does)");
const require = createRequire(import.meta.url);
const [snippetDir] = readdirSync(path.join(pkg, "snippets"));
const { propertyId, propertyHas } = require(
  path.join(pkg, "snippets", snippetDir, "src", "js_strict_json.js"),
);

test("a property name is kept once; refused names are not kept", () => {
  const letter = propertyId("L");
  assert.equal(letter, 0);
  assert.equal(propertyId("L"), letter);
  const refused = [
    "lu", // names are strict, as in RegExp
    "NotAProperty",
    "Alphabetic=Yes",
    "L}|(a+)+$|\\p{L", // could close the braces
    "L}",
    "",
    "gc=",
    "=L",
    "RGI_Emoji", // a property of strings: `v` flag only
  ];
  for (let k = 0; k < 1000; k++) {
    for (const name of refused) assert.equal(propertyId(name), -1, name);
    assert.equal(propertyId(`NotAProperty${k}`), -1);
  }
  // The next name that the engine knows takes the next number: none of the refused were kept.
  assert.equal(propertyId("General_Category=Uppercase_Letter"), letter + 1);
  assert.equal(propertyId("sc=Grek"), letter + 2);
});

test("a property answers as the engine's RegExp does", () => {
  const upper = propertyId("Lu");
  for (const [c, want] of [
    ["A", true],
    ["a", false],
    ["\u00c9", true],
    ["\u{1D400}", true], // MATHEMATICAL BOLD CAPITAL A, astral
    ["1", false],
  ]) {
    assert.equal(propertyHas(upper, c.codePointAt(0)), want, c);
  }
  const any = propertyId("Any");
  assert.equal(propertyHas(any, 0), true);
  assert.equal(propertyHas(any, 0x10ffff), true);
  // Past the last code point, or a number no name was given: no, and no throw.
  assert.equal(propertyHas(any, 0x110000), false);
  assert.equal(propertyHas(any, 0xffffffff), false);
  assert.equal(propertyHas(9999, 0x41), false);
  assert.equal(propertyHas(-1, 0x41), false);
});

test("a page that breaks RegExp gets false and -1, never a throw into wasm", () => {
  const upper = propertyId("Lu");
  const exec = RegExp.prototype.exec;
  RegExp.prototype.exec = () => {
    throw new Error("a page replaced exec");
  };
  try {
    assert.equal(propertyHas(upper, 0x41), false);
    assert.equal(propertyId("Ll"), -1);
  } finally {
    RegExp.prototype.exec = exec;
  }
  assert.equal(propertyHas(upper, 0x41), true);
});
