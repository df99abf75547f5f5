// The one crossing of a JS host's value into Rust (see `Crossing` in js.rs): the value in a
// compact encoding (`encodeJson`, the fast way for plain JSON data), else as JSON text
// (`strictJson`), or the words saying why it is not JSON. Nothing here throws, so no host
// value can throw through Rust frames. At the end, the one other thing the core asks of
// the engine: the Unicode properties of a pattern's `\p{…}` (`propertyId`, `propertyHas`).
// One module for the crate: each snippet module is one more request before a page can
// start (see web/src/glue.js).
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
 * writing would meet. Getters, Proxy traps and `toJSON` therefore run twice (three times
 * when `encodeJson` walked part of the value before leaving it to this). One that
 * answers differently the second time gets what JSON.stringify makes of the second answer:
 * a member left out or written as `null`, or a refusal as "reading it threw" (a BigInt or a
 * cycle the second time), or a refusal from the JSON reader (nesting past its limit). It is
 * refused in words or written as JSON; it never gets past as something JSON cannot hold.
 */
export function strictJson(value, omitUndefinedMembers, keep) {
  kept = undefined;
  keptValue = undefined;
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
  // Set last: a getter run above may have called the API again and left its own.
  kept = keep === true ? text : undefined;
  keptValue = undefined;
  pending = text;
  return text.length;
}

const encoder = new TextEncoder();

/**
 * Up to this many UTF-16 units, text is copied by a JS loop, beyond by TextEncoder: a whole
 * text the text way wrote (`takeText`), and each string the encoding writes. The loop
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

// The fast way across: the value written straight into a compact encoding that wasm reads
// into its tree (`core/src/schema/json/bytes.rs`), with no JSON text on either side. It
// takes only what it is sure JSON.stringify writes the same way (plain objects and arrays,
// strings without lone surrogates, numbers, booleans, null), and gives up on anything else: a refusal, a toJSON, a class instance, a boxed
// primitive, a getter or Proxy trap that throws, a cycle, more than MAX_DEPTH levels. The value then
// goes by `strictJson`, the text way, so what is refused and in which words is that way's.
//
// The encoding, every count and length a u32 and every number little-endian:
//   0 null · 1 false · 2 true · 3 an int32 (4 bytes)
//   4 a whole number below 2^53 that is no int32 (an f64, 8 bytes)
//   5 a string: its UTF-8 length, then its UTF-8; or, for a word (below), 2^31 + its place
//     in the list and nothing more
//   6 an array: its length, then its elements
//   7 an object: its member count, then per member its key (written as a string's length
//     and UTF-8, or as a word), its value
//   8 any other number: the length of its JSON text, then the text (`String(v)`, which is
//     what JSON.stringify writes), read in wasm as the text way reads it; so a number is
//     read alike whichever way its value crossed, even where serde_json's reading of a
//     decimal is one unit in the last place off
const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const INT = 3;
const FLOAT = 4;
const STRING = 5;
const ARRAY = 6;
const OBJECT = 7;
const NUMBER_TEXT = 8;

/** What `encode` throws to give up (a value the text way is to take). */
const GIVE_UP = Symbol("give up");

// The encoding is written where wasm asks, in its own memory (`out` is then a view of
// all of it), for as long as it fits in the room wasm gave; a longer one moves to
// `scratch`, kept there until wasm has room for it (`takeBytes`).
/** A buffer of this module's own, kept at most SCRATCH_KEPT bytes between calls. */
const SCRATCH_KEPT = 1 << 16;
let scratch = new Uint8Array(4096);
let scratchView = new DataView(scratch.buffer);
/** Where the encoding is being written (wasm memory or `scratch`), and a DataView of it. */
let out = scratch;
let outView = scratchView;
/** In `out`: where the encoding starts, where it has got to, and where its room ends. */
let start = 0;
let used = 0;
let end = 0;
/** The objects and arrays `encode` is inside, outermost first (let go of as it leaves them). */
const walking = [];
/** Whether `encodeJson` is walking a value. */
let encoding = false;
/**
 * Whether the walk leaves out a schema's shown text: the `title` and `description` of the
 * schema itself (depth 0) and of each property's schema (depth 2, in the root's
 * `properties`, which `shownFields` holds). See `ShownText` in core/src/js.rs.
 */
let leaveOutShownText = false;
let shownFields = undefined;

/** Makes room for `more` bytes after `used`. */
function room(more) {
  if (used + more > end) {
    moveToScratch(used + more - start);
  }
}

/**
 * Moves what is written to the start of `scratch`, grown to `need` bytes at least, and
 * writes on there. Gives up when wasm memory grew during the walk (a getter called into
 * wasm): what was written in place went nowhere, and the view is empty now.
 */
function moveToScratch(need) {
  if (out.length === 0) {
    throw GIVE_UP;
  }
  const length = used - start;
  if (need > scratch.length) {
    const grown = new Uint8Array(Math.max(need, scratch.length * 2));
    grown.set(out.subarray(start, used));
    scratch = grown;
    scratchView = new DataView(grown.buffer);
  } else if (out !== scratch) {
    scratch.set(out.subarray(start, used));
  }
  out = scratch;
  outView = scratchView;
  start = 0;
  used = length;
  end = scratch.length;
}

function u32At(at, n) {
  outView.setUint32(at, n, true);
}

/** A string's length from here on is a word's place in `words`. */
const WORD = 2 ** 31;
/** The longest string written in full: its UTF-8 length stays below WORD. */
const LONGEST_STRING = Math.floor((WORD - 1) / 3);
/** The words written by number (WORDS in core/src/schema/json/bytes.rs), by their text. */
let words = new Map();
/** The list `words` was made from, as sent; null before the first `setWords`. */
let wordsSent = null;
/** The longest word: a longer string is not looked up. */
let longestWord = 0;

/**
 * Takes the words that wasm reads by number, joined by spaces; sent by each module once,
 * before its first `encodeJson`. Modules sharing this snippet (the npm package's two) send
 * the same list; should one send another (a mixed build), no string is written by number
 * any more, which every reader reads. Never throws.
 */
export function setWords(text) {
  if (wordsSent === null) {
    wordsSent = text;
    const list = text.split(" ");
    words = new Map(list.map((word, place) => [word, place]));
    longestWord = list.reduce((longest, word) => Math.max(longest, word.length), 0);
  } else if (text !== wordsSent) {
    words = new Map();
    longestWord = 0;
  }
}

/** Whether `isWellFormed` is there to check a string before TextEncoder writes it. */
const wellFormed = typeof String.prototype.isWellFormed === "function";

/**
 * Writes `s`'s UTF-8 length and its UTF-8, or its place when it is a word; gives up on a
 * lone surrogate, and on a string so long its UTF-8 length might reach WORD.
 */
function writeString(s) {
  const len = s.length;
  if (len <= longestWord) {
    const word = words.get(s);
    if (word !== undefined) {
      room(4);
      u32At(used, WORD + word);
      used += 4;
      return;
    }
  }
  if (len > LONGEST_STRING) {
    throw GIVE_UP;
  }
  room(len * 3 + 4);
  const at = used;
  let j = at + 4;
  if (len > SHORT_TEXT && wellFormed) {
    if (!s.isWellFormed()) {
      throw GIVE_UP;
    }
    j += encoder.encodeInto(s, out.subarray(j, end)).written;
  } else {
    const o = out;
    for (let i = 0; i < len; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        o[j++] = c;
      } else if (c < 0x800) {
        o[j++] = 0xc0 | (c >> 6);
        o[j++] = 0x80 | (c & 0x3f);
      } else if (c < 0xd800 || c > 0xdfff) {
        o[j++] = 0xe0 | (c >> 12);
        o[j++] = 0x80 | ((c >> 6) & 0x3f);
        o[j++] = 0x80 | (c & 0x3f);
      } else {
        const low = s.charCodeAt(i + 1);
        if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) {
          throw GIVE_UP;
        }
        i++;
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        o[j++] = 0xf0 | (c >> 18);
        o[j++] = 0x80 | ((c >> 12) & 0x3f);
        o[j++] = 0x80 | ((c >> 6) & 0x3f);
        o[j++] = 0x80 | (c & 0x3f);
      }
    }
  }
  u32At(at, j - at - 4);
  used = j;
}

/** `Object.prototype.toString`, as it was when this module loaded. */
const objectTag = Object.prototype.toString;
const defineProperty = Object.defineProperty;

/**
 * Sets `out[key]` as JSON.parse does, as a data property of its own, whatever a prototype
 * defines for that key (a setter, `__proto__`, a read-only member).
 */
function put(out, key, item) {
  if (key in out) {
    defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
  } else {
    out[key] = item;
  }
}

/** 2^53: below it JSON.stringify writes a whole number's exact digits. */
const EXACT = 2 ** 53;

/**
 * Writes `v`, `depth` levels down; answers the value as JSON.parse would read its text back
 * when `copy`, else undefined. Throws GIVE_UP (or whatever a getter or trap threw) for
 * anything it is not sure of.
 */
function encode(v, depth, copy, omit) {
  switch (typeof v) {
    case "string":
      room(1);
      out[used++] = STRING;
      writeString(v);
      return v;
    case "boolean":
      room(1);
      out[used++] = v ? TRUE : FALSE;
      return v;
    case "number":
      room(9);
      if ((v | 0) === v) {
        out[used] = INT;
        outView.setInt32(used + 1, v, true);
        used += 5;
        return v + 0; // -0 is written 0
      }
      if (!Number.isFinite(v)) {
        out[used++] = NULL;
        return null;
      }
      if (Number.isInteger(v) && Math.abs(v) < EXACT) {
        out[used] = FLOAT;
        outView.setFloat64(used + 1, v, true);
        used += 9;
        return v;
      }
      out[used++] = NUMBER_TEXT; // room(9) above holds it; writeString makes its own
      writeString(String(v));
      return v;
    case "object":
      break;
    default:
      throw GIVE_UP;
  }
  if (v === null) {
    room(1);
    out[used++] = NULL;
    return null;
  }
  if (depth >= MAX_DEPTH || typeof v.toJSON === "function") {
    throw GIVE_UP;
  }
  // A cycle gives up where it closes, not after MAX_DEPTH copies of what comes before.
  for (let i = 0; i < depth; i++) {
    if (walking[i] === v) {
      throw GIVE_UP;
    }
  }
  walking[depth] = v;
  room(5);
  const at = used;
  if (Array.isArray(v)) {
    // Read once; a Proxy's may be anything. JSON.stringify would apply ToLength to it.
    const length = v.length;
    if (typeof length !== "number" || !(length >= 0 && length <= 0xffffffff) || length % 1 !== 0) {
      throw GIVE_UP;
    }
    out[at] = ARRAY;
    u32At(at + 1, length);
    used += 5;
    const copied = copy ? [] : undefined;
    for (let i = 0; i < length; i++) {
      // An undefined element (or hole) gives up: the text way refuses it.
      const item = encode(v[i], depth + 1, copy, omit);
      if (copy) {
        put(copied, i, item);
      }
    }
    walking[depth] = undefined;
    return copied;
  }
  // A plain object, or one without a prototype; not one JSON.stringify reads by its
  // internal slots (a boxed boolean, number or string, even with its prototype changed,
  // told by Object.prototype.toString) or a raw JSON text. A BigInt box with such a
  // prototype has no tag to tell it by: it is read as the object it looks like, where
  // JSON.stringify throws (docs/size-and-speed.md).
  const proto = Object.getPrototypeOf(v);
  if (
    (proto !== Object.prototype && proto !== null) ||
    objectTag.call(v) !== "[object Object]" ||
    Symbol.toStringTag in v ||
    (proto === null && JSON.isRawJSON?.(v))
  ) {
    throw GIVE_UP;
  }
  out[at] = OBJECT;
  const countAt = at + 1 - start;
  used += 5;
  const copied = copy ? {} : undefined;
  let count = 0;
  for (const key of Object.keys(v)) {
    const member = v[key];
    if (member === undefined && omit) {
      continue;
    }
    writeString(key);
    let item;
    if (
      leaveOutShownText &&
      typeof member === "string" &&
      (key === "title" || key === "description") &&
      (depth === 0 || (depth === 2 && walking[1] === shownFields))
    ) {
      // Shown text, which a Check compile does not read: written as "", unless it is not
      // well-formed (the text way then refuses the schema, as it does for a form).
      if (!member.isWellFormed()) {
        throw GIVE_UP;
      }
      room(5);
      out[used] = STRING;
      u32At(used + 1, 0);
      used += 5;
      item = member;
    } else {
      if (depth === 0 && key === "properties") {
        shownFields = member;
      }
      item = encode(member, depth + 1, copy, omit);
    }
    if (copy) {
      put(copied, key, item);
    }
    count++;
  }
  // Where the count goes, from the start: the members may have moved the encoding.
  u32At(start + countAt, count);
  walking[depth] = undefined;
  return copied;
}

/**
 * Writes `value` in the encoding above into `memory` at `at`, where wasm has `space` bytes
 * for it, and answers its length in bytes. A longer one (more than `space`) waits in this
 * module for `takeBytes` or `dropBytes`. Answers -1 when the value is to go by `strictJson`
 * (which then says whether it is JSON at all). With `keep`, the value as JSON would read
 * back is kept for `accepted`. With `leaveOutShown`, a schema's shown text is written as
 * "" (see `leaveOutShownText`). Never throws.
 */
export function encodeJson(value, omitUndefinedMembers, keep, leaveOutShown, memory, at, space) {
  kept = undefined;
  keptValue = undefined;
  // A getter or Proxy trap the walk runs may call the API again: that call goes the text
  // way, and leaves the buffers to this one.
  if (encoding) {
    return -1;
  }
  encoding = true;
  // Only where `isWellFormed` can say what the text way would refuse.
  leaveOutShownText = leaveOutShown === true && wellFormed;
  shownFields = undefined;
  let copy;
  try {
    out = memoryBytes(memory, at + space);
    outView = memoryData;
    start = at;
    used = at;
    end = at + space;
    copy = encode(value, 0, keep === true, omitUndefinedMembers === true);
    // Memory that grew during the walk leaves an empty view: what went there is lost.
    if (out.length === 0) {
      throw GIVE_UP;
    }
  } catch {
    doneWriting();
    walking.length = 0;
    return -1;
  } finally {
    encoding = false;
    leaveOutShownText = false;
    shownFields = undefined;
  }
  const length = used - start;
  // Longer than its room, it waits in scratch for `takeBytes`. Else it is in place, or it
  // moved to scratch on a guess of a string's length that was too long and fits after all.
  if (length <= space) {
    if (out === scratch) {
      memoryBytes(memory, at + length).set(scratch.subarray(0, length), at);
    }
    doneWriting();
  }
  // Set last: a getter run above may have called the API again and left its own.
  kept = undefined;
  keptValue = keep === true ? copy : undefined;
  return length;
}

/** Leaves nothing written, and lets go of a scratch buffer grown past SCRATCH_KEPT. */
function doneWriting() {
  out = scratch;
  outView = scratchView;
  start = 0;
  used = 0;
  end = 0;
  letGoOfScratch();
}

/** A view of all of wasm memory, a DataView of it, and the memory they view. */
let memoryView = null;
let memoryData = null;
let memoryViewOf = null;

/**
 * A view of all of `memory` that reaches byte `reach`: the one kept while it does, else made
 * anew. Growing the memory detaches its old buffer (the kept view's length drops to 0), so
 * the slow `memory.buffer` getter is only read then, not on every call. Keyed on the memory
 * too: the two wasm modules of the npm package share this snippet, each with its own memory.
 */
function memoryBytes(memory, reach) {
  if (memoryViewOf !== memory || memoryView.length < reach) {
    const buffer = memory.buffer;
    memoryView = new Uint8Array(buffer);
    memoryData = new DataView(buffer);
    memoryViewOf = memory;
  }
  return memoryView;
}

/**
 * Copies the encoding `encodeJson` left waiting into `memory` at `ptr` (where wasm has
 * made room for all of it).
 */
export function takeBytes(memory, ptr) {
  memoryBytes(memory, ptr + used).set(scratch.subarray(0, used), ptr);
  doneWriting();
}

/** Forgets the encoding `encodeJson` left waiting, when wasm could not make room for it. */
export function dropBytes() {
  doneWriting();
}

/** Lets go of a scratch buffer grown past SCRATCH_KEPT (a long value's), once done with. */
function letGoOfScratch() {
  if (scratch.length > SCRATCH_KEPT) {
    scratch = new Uint8Array(4096);
    scratchView = new DataView(scratch.buffer);
  }
}

/** The text `strictJson` wrote, not yet taken, and how much of it (UTF-16 units) was. */
let pending = "";
let pendingAt = 0;
/** Why the last `strictJson` refused its value. */
let refused = "";

function refuse(why) {
  kept = undefined;
  keptValue = undefined;
  refused = why;
  return -1;
}

/** Why the last `strictJson` answered -1, in words. */
export function refusal() {
  const why = refused;
  refused = "";
  return why;
}

/**
 * Writes what is left of the text as UTF-8 into `memory` at `ptr`, at most `room` bytes (never
 * half a character), and answers how many bytes it wrote. Not wasm-bindgen's own string
 * crossing, which copies every text by the loop: a long text goes by one native copy.
 */
export function takeText(memory, ptr, room) {
  const rest = pendingAt === 0 ? pending : pending.slice(pendingAt);
  let read = 0;
  if (rest.length <= SHORT_TEXT) {
    // ASCII byte for byte; from the first other character on, TextEncoder.
    const n = Math.min(rest.length, room);
    const bytes = memoryBytes(memory, ptr + n);
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
    const view = memoryBytes(memory, ptr + room).subarray(ptr + written, ptr + room);
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
/** The value of the last `encodeJson(value, _, true)` as JSON.parse would read it back, for `accepted`. */
let keptValue;

/**
 * What `validateContent` answers for accepted content: the copy `encodeJson` made, or the
 * text `strictJson` wrote, read anew.
 */
export function accepted() {
  const text = kept;
  const value = keptValue;
  kept = undefined;
  keptValue = undefined;
  if (value !== undefined) {
    return { ok: true, content: value };
  }
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

// `\p{…}` in a field's `pattern`, answered by the engine's own `RegExp` (see
// core/src/schema/pattern/unicode_host.rs): the wasm carries no Unicode tables.
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

/**
 * The number of property `name`, or -1 when the engine has no such property (or a page's
 * changes to the built-ins make asking throw). Never throws.
 */
export function propertyId(name) {
  try {
    const known = byName.get(name);
    if (known !== undefined) return known;
    if (!NAME.test(name)) return -1;
    const re = new RegExp("^\\p{" + name + "}$", "u");
    byName.set(name, properties.length);
    properties.push(re);
    return properties.length - 1;
  } catch {
    return -1;
  }
}

/**
 * Whether code point `c` has property number `id`. Never throws (a page may have replaced
 * `RegExp.prototype.exec`): what cannot be answered is "no".
 */
export function propertyHas(id, c) {
  const re = properties[id];
  if (re === undefined || !(c <= 0x10ffff)) return false;
  try {
    return re.test(String.fromCodePoint(c)) === true;
  } catch {
    return false;
  }
}
