// Membership of code points in a `\p{…}` property, asked of this JS engine's own RegExp
// (unicode.rs says why and which code points are asked about).
//
// `name` is what was between the braces (letters, digits, `_`, `=`: the pattern parser
// reads no other); `points` are code points. Returns one byte per point, 1 where the
// property holds, or undefined when this engine's RegExp has no such property. A lone
// surrogate is a code point of its own here, as in a `u`-mode RegExp.
export function propertyMembers(name, points) {
  let re;
  try {
    re = new RegExp("^\\p{" + name + "}$", "u");
  } catch (e) {
    return undefined;
  }
  const out = new Uint8Array(points.length);
  for (let i = 0; i < points.length; i++) {
    if (re.test(String.fromCodePoint(points[i]))) out[i] = 1;
  }
  return out;
}
