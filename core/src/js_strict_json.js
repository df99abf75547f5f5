// The one crossing of a JS host's value into Rust (see `json_from_js` in js.rs): the value
// as JSON text, or an Error whose message says in words why it is not JSON. It never
// throws anything else, so no host value can throw through Rust frames.
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
 * `value` as JSON text. Refused, as an Error in words: functions, `undefined`, symbols and
 * BigInts anywhere (plain JSON.stringify would drop or throw on them), cycles (naming the
 * member that closes one), more than MAX_DEPTH levels, and anything a getter, a Proxy
 * trap or a toJSON throws while being read. With `omitUndefinedMembers`, an object member
 * that is `undefined` is left out instead (as plain JSON.stringify does).
 */
export function strictJson(value, omitUndefinedMembers) {
  // The objects being written, outermost first, and the key of each in its holder
  // (the root's key "" is not part of a pointer).
  const holders = [];
  const keys = [];
  const replacer = function (key, member) {
    const t = typeof member;
    // The common case, first and without bookkeeping: the stack of holders is only read
    // for objects and refusals, and is trimmed then.
    if (t === "string" || t === "number" || t === "boolean" || member === null) {
      return member;
    }
    // `this` is the object holding `key`: the holders after it are finished.
    while (holders.length > 0 && holders[holders.length - 1] !== this) {
      holders.pop();
      keys.pop();
    }
    // The member's pointer; only asked below the root (holders not empty).
    const where = () => pointer([...keys.slice(1), key]);
    // Returning undefined leaves an object member out (an array element would be null).
    if (t === "undefined" && omitUndefinedMembers && holders.length > 0 && !Array.isArray(this)) {
      return undefined;
    }
    if (Object.hasOwn(NOT_JSON, t)) {
      const kind = NOT_JSON[t];
      throw new Refusal(holders.length === 0 ? `it is ${kind}, not JSON` : `the member ${where()} is ${kind}, not JSON`);
    }
    if (t === "object" && member !== null) {
      if (holders.includes(member)) {
        throw new Refusal(
          `the member ${where()} refers back to an object that contains it (a cycle), which JSON cannot hold`,
        );
      }
      if (holders.length >= MAX_DEPTH) {
        throw new Refusal(`it is nested more than ${MAX_DEPTH} levels deep`);
      }
      holders.push(member);
      keys.push(key);
    }
    return member;
  };
  let text;
  try {
    text = JSON.stringify(value, replacer);
  } catch (thrown) {
    throw new TypeError(thrown instanceof Refusal ? thrown.message : `reading it threw: ${describe(thrown)}`);
  }
  if (typeof text !== "string") {
    throw new TypeError("it is not a JSON value");
  }
  return text;
}
