// `\p{…}` in a field's `pattern`, answered by the JS engine's own `RegExp` (see
// unicode_host.rs beside this file): the wasm carries no Unicode tables.
//
// One RegExp per property name, made on first use and kept for the page's life. They are
// at most as many as the names ECMA-262 lists (a name the engine refuses is not kept), so
// a host open for days holds a bounded set whatever its servers send.

/** What ECMA-262 allows between the braces; the parser in wasm allows no more. */
const NAME = /^[A-Za-z0-9_]+(?:=[A-Za-z0-9_]+)?$/;

/** @type {Map<string, number>} */
const byName = new Map();
/** @type {RegExp[]} */
const properties = [];

/** The number of property `name`, or -1 when the engine has no such property. */
export function propertyId(name) {
  const known = byName.get(name);
  if (known !== undefined) return known;
  if (!NAME.test(name)) return -1;
  let re;
  try {
    re = new RegExp("^\\p{" + name + "}$", "u");
  } catch {
    return -1;
  }
  byName.set(name, properties.length);
  properties.push(re);
  return properties.length - 1;
}

/** Whether code point `c` has property number `id`. */
export function propertyHas(id, c) {
  const re = properties[id];
  return re !== undefined && c <= 0x10ffff && re.test(String.fromCodePoint(c));
}
