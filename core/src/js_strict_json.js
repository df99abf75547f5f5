// The one crossing of a JS host's value into Rust (see `json_from_js` in js.rs): the value
// as JSON text written into wasm memory, or the words saying why it is not JSON. Nothing
// here throws, so no host value can throw through Rust frames.
//
// A static module that wasm-bindgen copies into the package's `snippets/`: no `eval` or
// `new Function`, which a strict Content-Security-Policy (browser extensions) forbids.

/** Deeper than any MCP value needs; refusing here keeps huge nestings off the stack. */
const MAX_DEPTH = 100;

/** What JSON cannot hold, by `typeof`, in words. */
const NOT_JSON = { function: "a function", symbol: "a symbol", undefined: "undefined", bigint: "a BigInt" };

/** A refusal of ours, told apart from what a host's getter, Proxy or toJSON threw. */
class Refusal extends TypeError {}

/** The JSON pointer of `keys` (RFC 6901 escaping). */
function pointer(keys) {
  return keys.map((k) => "/" + String(k).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

/** Words for whatever a host's code threw; never throws itself. */
function describe(thrown) {
  try {
    const words = String(thrown instanceof Error ? thrown.message : thrown);
    return words === "" ? "an error without words" : words;
  } catch {
    return "something that cannot be shown";
  }
}

/**
 * Checks `value` and writes it as JSON text, kept for `takeText`: answers the text's length
 * in UTF-16 units, or -1 when it is not JSON, the words saying why kept for `refusal`. The
 * answer is returned, never thrown, so the call from wasm needs no exception wrapper.
 * Refused: functions, `undefined`, symbols and BigInts anywhere (plain JSON.stringify would
 * drop or throw on them), cycles (naming the member that closes one), more than MAX_DEPTH
 * levels, and anything a getter, a Proxy trap or a toJSON throws while being read. With
 * `omitUndefinedMembers`, an object member that is `undefined` is left out instead (as plain
 * JSON.stringify does). With `keep`, the text is also kept for `accepted`.
 *
 * Checked by a walk of our own, then written by the engine's JSON.stringify without a
 * replacer: a replacer function is one call back into JS per value, which made the check
 * cost twice the writing. The walk reads what JSON.stringify reads, in its order (own
 * enumerable keys, array indices, `toJSON` first), so the first refusal is the one the
 * writing would meet. Getters, Proxy traps and `toJSON` therefore run twice. One that
 * answers differently the second time gets what JSON.stringify makes of the second answer:
 * a member left out or written as `null`, or a refusal as "reading it threw" (a BigInt or a
 * cycle the second time), or a refusal from the JSON reader (nesting past its limit). It is
 * refused in words or written as JSON; it never gets past as something JSON cannot hold.
 */
export function strictJson(value, omitUndefinedMembers, keep) {
  kept = undefined;
  pending = "";
  pendingAt = 0;
  try {
    visit(value, "", false, { holders: [], keys: [], omit: omitUndefinedMembers === true });
  } catch (thrown) {
    return refuse(thrown instanceof Refusal ? thrown.message : `reading it threw: ${describe(thrown)}`);
  }
  let text;
  try {
    text = JSON.stringify(value);
  } catch (thrown) {
    return refuse(`reading it threw: ${describe(thrown)}`);
  }
  if (typeof text !== "string") {
    return refuse("it is not a JSON value");
  }
  if (keep === true) {
    kept = text;
  }
  pending = text;
  return text.length;
}

/** The text `strictJson` wrote, not yet taken, and how much of it (UTF-16 units) was. */
let pending = "";
let pendingAt = 0;
/** Why the last `strictJson` refused its value. */
let refused = "";

function refuse(why) {
  refused = why;
  return -1;
}

/** Why the last `strictJson` answered -1, in words. */
export function refusal() {
  const why = refused;
  refused = "";
  return why;
}

const encoder = new TextEncoder();

/**
 * Up to this many UTF-16 units, text is copied by a JS loop, beyond by TextEncoder. The loop
 * costs about 2 ns a character in both engines measured, and nothing before. `encodeInto`
 * differs by engine (2026-12-05, a 304-character schema):
 *   - Node 20 has a fast path of its own: 84 ns for the 304 characters, 0.3 µs for 9,000.
 *     The loop wins only below some 40 characters.
 *   - Chromium 156 costs some 0.6 µs before its first byte, then about 0.5 ns a character.
 *     The loop wins up to some 500 characters.
 *   - Browsers not measured (Firefox, Safari) get Chromium's threshold.
 * With 256 for both, the 304-character schema went by encodeInto everywhere. Per engine,
 * `validateContent` on that schema was about 6% faster in Chromium and 1-2% in Node.
 */
const SHORT_TEXT = inNode() ? 32 : 512;

/** Whether this is Node.js; false when a page's own `process` cannot even be read. */
function inNode() {
  try {
    return typeof process === "object" && process !== null && typeof process.versions?.node === "string";
  } catch {
    return false;
  }
}

/** A view of all of wasm memory, made anew once the memory has grown. */
let bytes = null;

/**
 * Writes what is left of the text as UTF-8 into `memory` at `ptr`, at most `room` bytes (never
 * half a character), and answers how many bytes it wrote. Not wasm-bindgen's own string
 * crossing, which copies every text by the loop: a long text goes by one native copy.
 */
export function takeText(memory, ptr, room) {
  const rest = pendingAt === 0 ? pending : pending.slice(pendingAt);
  let read = 0;
  if (rest.length <= SHORT_TEXT) {
    if (bytes === null || bytes.buffer !== memory.buffer) {
      bytes = new Uint8Array(memory.buffer);
    }
    // ASCII byte for byte; from the first other character on, TextEncoder.
    const n = Math.min(rest.length, room);
    for (; read < n; read++) {
      const unit = rest.charCodeAt(read);
      if (unit > 0x7f) {
        break;
      }
      bytes[ptr + read] = unit;
    }
  }
  let written = read;
  if (read < rest.length && written < room) {
    const view = new Uint8Array(memory.buffer, ptr + written, room - written);
    const more = encoder.encodeInto(read === 0 ? rest : rest.slice(read), view);
    read += more.read;
    written += more.written;
  }
  pendingAt += read;
  if (pendingAt >= pending.length) {
    pending = "";
    pendingAt = 0;
  }
  return written;
}

/** How many UTF-16 units of the text `takeText` has not taken yet. */
export function textLeft() {
  return pending.length - pendingAt;
}

/**
 * The text of the last `strictJson(value, _, true)`, for `accepted`: the string goes into
 * wasm once and is not sent back out. Held until the next call (at most one value's text).
 */
let kept;

/** What `validateContent` answers for accepted content: the content as written, read anew. */
export function accepted() {
  const text = kept;
  kept = undefined;
  if (typeof text !== "string") {
    throw new TypeError("no content was written");
  }
  return { ok: true, content: JSON.parse(text) };
}

/**
 * Throws a Refusal for the first part of `member` (found under `key`) that JSON cannot hold,
 * or what reading it threw. `walk`: the objects being walked, outermost first (`holders`),
 * the key of each below the root (`keys`), and whether undefined members are left out.
 * A plain function, not a closure, so a call allocates no functions.
 */
function visit(member, key, inArray, walk) {
  let t = typeof member;
  // JSON.stringify asks every object for toJSON, functions included.
  if ((t === "object" && member !== null) || t === "bigint" || t === "function") {
    const toJSON = member.toJSON;
    if (typeof toJSON === "function") {
      member = toJSON.call(member, key);
      t = typeof member;
    }
  }
  if (t === "string" || t === "number" || t === "boolean" || member === null) {
    return;
  }
  const { holders, keys } = walk;
  if (t === "undefined" && walk.omit && holders.length > 0 && !inArray) {
    return;
  }
  if (t !== "object") {
    const kind = Object.hasOwn(NOT_JSON, t) ? NOT_JSON[t] : "not a JSON value";
    throw new Refusal(holders.length === 0 ? `it is ${kind}, not JSON` : `the member ${pointer([...keys, key])} is ${kind}, not JSON`);
  }
  if (holders.includes(member)) {
    throw new Refusal(`the member ${pointer([...keys, key])} refers back to an object that contains it (a cycle), which JSON cannot hold`);
  }
  if (holders.length >= MAX_DEPTH) {
    throw new Refusal(`it is nested more than ${MAX_DEPTH} levels deep`);
  }
  if (holders.length > 0) {
    keys.push(key);
  }
  holders.push(member);
  if (Array.isArray(member)) {
    const length = member.length;
    for (let i = 0; i < length; i++) {
      visit(member[i], String(i), true, walk);
    }
  } else {
    for (const k of Object.keys(member)) {
      visit(member[k], k, false, walk);
    }
  }
  holders.pop();
  if (holders.length > 0) {
    keys.pop();
  }
}
