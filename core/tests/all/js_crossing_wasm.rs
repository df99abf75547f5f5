//! The two ways a host's value crosses into wasm, held to each other in headless Chromium:
//! the snippet's compact encoding (the fast way) must read as the very value the JSON text
//! way reads, and must leave to the text way every value it is not sure of, so that what is
//! refused, and in which words, stays the text way's.
#![cfg(all(target_arch = "wasm32", feature = "js-api"))]

use crate::js_values::{get, js, stringify};
use js_sys::{Array, Reflect};
use mcp_elicit::js::{json_from_js, json_from_js_each_way, validate_content_js, UndefinedMembers};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

#[wasm_bindgen(inline_js = r#"
// A small seeded generator (mulberry32), so a failure names a seed that repeats it.
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const PIECES = ["a", "Z", " ", "0", "é", "ß", "€", "日本", "😀", "\n", "\t", "\"", "\\", "/", "\u0000", "\u001f", "\u2028", "\ufeff", "\u00a0"];
const NUMBERS = [0, -0, 1, -1, 42, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 32, -(2 ** 32) - 7, 2 ** 53 - 1, -(2 ** 53 - 1),
  0.5, -0.25, 12.5, 0.1, 1e-7, -3.75e-5, 1e21, -1e21, 1.5e300, 5e-324, 1e308, 123456.789, NaN, Infinity, -Infinity];
// Strings the encoding writes by number (WORDS in core/src/schema/json/bytes.rs), and
// some that are nearly such words.
const WORDS = ["type", "title", "properties", "required", "string", "date-time", "$ref",
  "additionalProperties", "Type", "types", "typ", "date-times", "additionalProperties\u00e9"];
function text(r) {
  if (r() < 0.1) return WORDS[Math.floor(r() * WORDS.length)];
  const n = r() < 0.1 ? [100, 600, 5000][Math.floor(r() * 3)] : Math.floor(r() * 12);
  let s = "";
  while (s.length < n) s += PIECES[Math.floor(r() * PIECES.length)];
  return s;
}
function value(r, depth) {
  const k = Math.floor(r() * (depth > 3 ? 5 : 8));
  switch (k) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return NUMBERS[Math.floor(r() * NUMBERS.length)];
    case 3: {
      const pick = r();
      if (pick < 0.25) return Math.floor((r() - 0.5) * 1e6);
      if (pick < 0.5) return Math.round((r() - 0.5) * 1e9) / 1000;
      // Full-precision decimals, which serde_json often reads a unit in the last place off.
      if (pick < 0.75) return (r() - 0.5) * 2000;
      return Math.floor(r() * 1e6) / 3;
    }
    case 4: return text(r);
    case 5: { const a = []; for (let i = Math.floor(r() * 5); i > 0; i--) a.push(value(r, depth + 1)); return a; }
    default: {
      const o = r() < 0.1 ? Object.create(null) : {};
      for (let i = Math.floor(r() * 6); i > 0; i--) {
        const key = r() < 0.2 ? String(Math.floor(r() * 20)) : text(r);
        o[key] = value(r, depth + 1);
      }
      return o;
    }
  }
}
export function randomValue(seed) { return value(rng(seed), 0); }
// A form of every field kind, and a valid answer to it.
export function randomForm(seed) {
  const r = rng(seed);
  const properties = {};
  const content = {};
  const finite = NUMBERS.filter(Number.isFinite);
  for (let i = 0; i < 8; i++) {
    const name = text(r) + i;
    switch (Math.floor(r() * 5)) {
      case 0: properties[name] = { type: "string" }; content[name] = text(r); break;
      case 1: properties[name] = { type: "number" }; content[name] = finite[Math.floor(r() * finite.length)]; break;
      case 2: properties[name] = { type: "integer" }; content[name] = Math.floor((r() - 0.5) * 1e12); break;
      case 3: properties[name] = { type: "boolean" }; content[name] = r() < 0.5; break;
      default:
        properties[name] = { type: "array", items: { type: "string", enum: ["a", "é", "😀", "\n"] } };
        content[name] = ["a", "é", "😀", "\n"].filter(() => r() < 0.5);
    }
  }
  return { schema: { type: "object", properties }, content };
}

class Point { constructor() { this.x = 1; } }
export function leftToTheText() {
  const deep = (n) => { let v = 1; for (let i = 0; i < n; i++) v = [v]; return v; };
  const cycle = { a: 1 }; cycle.self = cycle;
  const getter = {}; Object.defineProperty(getter, "a", { enumerable: true, get() { throw new Error("no"); } });
  const withProto = JSON.parse('{"__proto__": 1, "a": 2}');
  const values = [
    "\ud800", "a\udc00b", "x".repeat(700) + "\udbff", { "\udfff": 1 },
    { toJSON() { return { a: 1 }; } }, new Date(0), new Number(3), new String("s"), new Boolean(false),
    new Point(), new Map([[1, 2]]), [1, undefined], [, 1], { a: () => 1 }, { a: Symbol("s") },
    { a: 1n }, cycle, deep(101), deep(150), getter,
    new Proxy({ a: 1 }, { getPrototypeOf() { throw new Error("trap"); } }), undefined, () => 1,
  ];
  if (typeof JSON.rawJSON === "function") values.push({ a: JSON.rawJSON("1e999") });
  return { values, withProto, deepest: deep(100) };
}
// Arrays whose length a Proxy makes up: not a whole number, or an object whose answer
// changes (fresh each call, so each way reads the same thing).
export function lyingLength() {
  const lying = (len, items) => new Proxy([], {
    get(t, k) {
      if (k === "length") return len;
      if (typeof k === "string" && /^\d+$/.test(k)) return items[k];
      return Reflect.get(t, k);
    },
  });
  let calls = 0;
  return [lying({ valueOf() { return calls++ < 4 ? 1 : 0; } }, []), lying(1.5, ["ok", "evil"])];
}
export function surrogatePair() { return { "😀": "a😀b".repeat(300) }; }
// Numbers whose JSON text serde_json may read a unit in the last place off, and whole
// numbers past 2^53, written with digits that are not their exact value.
export function numbers() {
  const list = [0.1 + 0.2, 942.3766457461393, 193.66666666666666, 981.2327862292527, 2 ** 60, -(2 ** 53),
    1e20, 123456789012345680000, 1e21, 5e-324, Number.MAX_VALUE, -Number.MIN_VALUE];
  for (let k = 1; k < 200; k++) list.push(k / 3, Math.sqrt(k) * 100, 0.1 * k);
  return list;
}
// An object whose members around a long string overflow the room wasm first gives the
// encoding (4 KB), at every depth; and one whose string overflows only the room its
// UTF-8 might take, fitting after all.
export function movedMidway() {
  const inner = { a: 1, b: "x".repeat(3000), c: { d: ["é".repeat(700), 2], e: "type" }, f: null };
  return {
    overflowing: { before: "b", inner, list: [inner, { g: "z".repeat(5000) }], after: 7 },
    fitting: { a: "y".repeat(2000), b: true },
  };
}
// An object whose getter runs `f` partway through the walk, and an array whose last
// element's getter does (after it, the walk writes only that element's one byte).
export function getterMidway(f) {
  const object = { type: "object", properties: { a: { type: "string" } }, pad: "p".repeat(100) };
  Object.defineProperty(object, "title", { enumerable: true, get() { f(); return "T"; } });
  object.required = ["a"];
  const array = [1, "two"];
  Object.defineProperty(array, 2, { enumerable: true, get() { f(); return true; } });
  return { object, array };
}
// Schemas with shown text everywhere it may be (the schema's and each field's title and
// description, long and short, non-ASCII, not text, not well-formed, nested deeper), each
// with answers to check; and a way to send one the text way (a toJSON sends the walk there).
export function shownTextCases() {
  const long = "Describes the field at some length: ".repeat(3) + "é😀";
  const field = (extra) => ({ type: "string", title: "Name", description: long, ...extra });
  const schemas = [
    { type: "object", title: "T", description: long, properties: { a: field({ maxLength: 3 }) }, required: ["a"] },
    { type: "object", title: "日本", properties: { title: field({}), description: { type: "integer", title: "n", description: "d" } } },
    { type: "object", properties: { a: { type: "string", oneOf: [{ const: "x", title: "Ex" }, { const: "y", title: "Why" }], title: "Pick" } } },
    { type: "object", properties: { a: { type: "object", properties: { b: { type: "string", title: "deep" } }, title: "obj" } } },
    { type: "object", title: 3, properties: { a: field({}) } },
    { type: "object", properties: { a: field({ description: ["not text"] }) } },
    { type: "object", description: "a\ud800b", properties: { a: field({}) } },
    { type: "object", properties: { a: field({ title: "\udc00" }) } },
    { type: "object", properties: { a: { type: "array", items: { type: "string", enum: ["p", "q"] }, title: "List", description: long } }, title: "" },
    { title: "x", properties: { a: { title: "y", description: "z", type: "boolean", default: "not a boolean" } } },
  ];
  const answers = [{}, { a: "abcd" }, { a: "ab" }, { a: "z" }, { a: ["p", "r"] }, { a: true, title: "x", description: 1 }, { description: 2.5 }];
  return { schemas, answers };
}
export function viaText(schema) { return { toJSON() { return schema; } }; }
export function withGetter(f) {
  const o = { type: "object", properties: { a: { type: "string" } } };
  Object.defineProperty(o, "title", { enumerable: true, get() { f(); return "T"; } });
  o.required = ["a"];
  return o;
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = randomValue)]
    fn random_value(seed: u32) -> JsValue;
    #[wasm_bindgen(js_name = randomForm)]
    fn random_form(seed: u32) -> JsValue;
    #[wasm_bindgen(js_name = leftToTheText)]
    fn left_to_the_text() -> JsValue;
    #[wasm_bindgen(js_name = lyingLength)]
    fn lying_length() -> JsValue;
    #[wasm_bindgen(js_name = surrogatePair)]
    fn surrogate_pair() -> JsValue;
    fn numbers() -> Array;
    #[wasm_bindgen(js_name = withGetter)]
    fn with_getter(f: &js_sys::Function) -> JsValue;
    #[wasm_bindgen(js_name = movedMidway)]
    fn moved_midway() -> JsValue;
    #[wasm_bindgen(js_name = getterMidway)]
    fn getter_midway(f: &js_sys::Function) -> JsValue;
    #[wasm_bindgen(js_name = shownTextCases)]
    fn shown_text_cases() -> JsValue;
    #[wasm_bindgen(js_name = viaText)]
    fn via_text(schema: &JsValue) -> JsValue;
}

/// `validateContent` and `compileValidator` compile to check, for which the crossing leaves
/// a schema's shown text out: every answer and every refusal (in its words and at its
/// path) is the one the text way, which carries all of it, gives.
#[wasm_bindgen_test]
fn shown_text_left_out_changes_no_answer() {
    use mcp_elicit::js::compile_validator;
    let answer = |r: Result<JsValue, JsValue>| match r {
        Ok(v) => stringify(&v),
        Err(e) => format!(
            "threw {} at {:?}",
            stringify(&get(&e, "message")),
            get(&e, "path")
        ),
    };
    let cases = shown_text_cases();
    let schemas: Array = get(&cases, "schemas").unchecked_into();
    let answers: Array = get(&cases, "answers").unchecked_into();
    let mut refused = 0;
    let mut quoted = false;
    for schema in schemas.iter() {
        let text_way = via_text(&schema);
        for content in answers.iter() {
            let fast = answer(validate_content_js(schema.clone(), content.clone()));
            let want = answer(validate_content_js(text_way.clone(), content.clone()));
            assert_eq!(
                fast,
                want,
                "{} with {}",
                stringify(&schema),
                stringify(&content)
            );
            let handle = compile_validator(schema.clone()).map(|h| h.validate(content.clone()));
            assert_eq!(answer(handle.and_then(|r| r)), want);
            refused += usize::from(want.starts_with("threw"));
            quoted |= want.contains("Why");
        }
    }
    // Six schemas are refused (a title not text, a description not text, two not
    // well-formed, a nested object, a wrong default); a choice's title, not shown text, is
    // quoted in a message.
    assert_eq!(refused, 6 * answers.length() as usize);
    assert!(quoted);
}

/// A value longer than the room wasm gives moves to the snippet's own buffer partway
/// through an object, and reads whole: each object's count is written where its members
/// ended up. One that needed less room than its strings might have fits after all.
#[wasm_bindgen_test]
fn a_value_that_outgrows_its_room_reads_whole() {
    let cases = moved_midway();
    for name in ["overflowing", "fitting"] {
        let value = get(&cases, name);
        let want: serde_json::Value = serde_json::from_str(&stringify(&value)).unwrap_or_default();
        assert!(want.is_object(), "{name}");
        for _ in 0..2 {
            let (encoded, text) = json_from_js_each_way(&value, UndefinedMembers::Refuse);
            assert_eq!(encoded.as_ref(), Some(&want), "{name}");
            assert_eq!(text.as_ref(), Ok(&want), "{name}");
            assert_eq!(
                json_from_js(&value, UndefinedMembers::Refuse),
                Ok(want.clone())
            );
        }
    }
}

/// A getter that grows wasm memory partway through the walk leaves the view the snippet
/// writes into empty: the value then goes the text way, and reads whole.
#[wasm_bindgen_test]
fn memory_grown_partway_through_the_walk_loses_nothing() {
    let armed = std::rc::Rc::new(std::cell::Cell::new(false));
    let grow = {
        let armed = armed.clone();
        Closure::<dyn FnMut()>::new(move || {
            if !armed.replace(false) {
                return;
            }
            let bytes = wasm_bindgen::memory()
                .unchecked_into::<js_sys::WebAssembly::Memory>()
                .buffer()
                .unchecked_into::<js_sys::ArrayBuffer>()
                .byte_length() as usize;
            // As much as all of memory: it cannot be had without growing it.
            let big = vec![1u8; bytes];
            assert_eq!(big.len(), bytes);
        })
    };
    let values = getter_midway(grow.as_ref().unchecked_ref());
    let object = get(&values, "object");
    let want = serde_json::json!({
        "type": "object", "properties": {"a": {"type": "string"}}, "pad": "p".repeat(100),
        "title": "T", "required": ["a"]
    });
    for (value, want) in [
        (object.clone(), want),
        (get(&values, "array"), serde_json::json!([1, "two", true])),
    ] {
        armed.set(true);
        let (encoded, text) = json_from_js_each_way(&value, UndefinedMembers::Refuse);
        assert_eq!(encoded, None, "written in place, then lost: {want}");
        assert_eq!(text, Ok(want.clone()));
        armed.set(true);
        assert_eq!(json_from_js(&value, UndefinedMembers::Refuse), Ok(want));
    }
    armed.set(true);
    let answer = validate_content_js(object, js(r#"{"a":"x"}"#)).unwrap_or(JsValue::NULL);
    assert_eq!(stringify(&answer), r#"{"ok":true,"content":{"a":"x"}}"#);
}

/// Every value a generator makes (every kind, strings short and long, every number the
/// encoding tells apart) goes the fast way and reads as the text way reads it.
#[wasm_bindgen_test]
fn the_encoding_reads_as_the_text_does() {
    for seed in 0..1500 {
        let value = random_value(seed);
        for undefined in [UndefinedMembers::Refuse, UndefinedMembers::Omit] {
            let (encoded, text) = json_from_js_each_way(&value, undefined);
            let text =
                text.unwrap_or_else(|why| panic!("seed {seed}: the text way refused: {why}"));
            assert_eq!(encoded.as_ref(), Some(&text), "seed {seed}");
            // In the same order (a map's equality does not look at it).
            assert_eq!(encoded.map(|v| v.to_string()), Some(text.to_string()));
            assert_eq!(json_from_js(&value, undefined).as_ref(), Ok(&text));
        }
    }
    let (encoded, text) = json_from_js_each_way(&surrogate_pair(), UndefinedMembers::Refuse);
    assert_eq!(encoded, text.ok());
}

/// What the encoding does not take goes the text way, and so is refused, or read, exactly
/// as before: the same value, or the same words.
#[wasm_bindgen_test]
fn what_the_encoding_is_not_sure_of_goes_the_text_way() {
    let cases = left_to_the_text();
    for (i, value) in Array::from(&get(&cases, "values")).iter().enumerate() {
        for undefined in [UndefinedMembers::Refuse, UndefinedMembers::Omit] {
            let (encoded, text) = json_from_js_each_way(&value, undefined);
            assert_eq!(encoded, None, "case {i} was encoded");
            assert_eq!(json_from_js(&value, undefined), text, "case {i}");
        }
    }
    // A length a Proxy makes up is left to the text way, which reads it as JSON.stringify
    // does.
    let (encoded, text) = json_from_js_each_way(&lying_length(), UndefinedMembers::Refuse);
    assert_eq!(encoded, None);
    assert_eq!(
        json_from_js(&lying_length(), UndefinedMembers::Refuse),
        text
    );
    // As deep as the text way takes: encoded.
    let (encoded, text) = json_from_js_each_way(&get(&cases, "deepest"), UndefinedMembers::Refuse);
    assert!(encoded.is_some());
    assert_eq!(encoded.as_ref(), text.as_ref().ok());
    // An undefined member is refused the text way, or left out by the encoding.
    let undefined_member = js(r#"{"a":1}"#);
    let _ = Reflect::set(&undefined_member, &"b".into(), &JsValue::UNDEFINED);
    let (encoded, text) = json_from_js_each_way(&undefined_member, UndefinedMembers::Refuse);
    assert_eq!(encoded, None);
    assert_eq!(text, Err("the member /b is undefined, not JSON".into()));
    let (encoded, text) = json_from_js_each_way(&undefined_member, UndefinedMembers::Omit);
    assert_eq!(encoded, Some(serde_json::json!({"a": 1})));
    assert_eq!(text.ok(), encoded);
    // An own `__proto__` member is plain JSON: encoded as read, and as a member.
    let with_proto = get(&cases, "withProto");
    let (encoded, text) = json_from_js_each_way(&with_proto, UndefinedMembers::Refuse);
    assert_eq!(encoded.as_ref(), text.as_ref().ok());
    assert_eq!(text, Ok(serde_json::json!({"__proto__": 1, "a": 2})));
}

/// A number crosses the fast way, and reads as its JSON text reads, exactly as the text way
/// reads it: so a schema and its content read it alike whichever way each went.
#[wasm_bindgen_test]
fn a_number_reads_alike_either_way() {
    for x in numbers().iter() {
        let (encoded, text) = json_from_js_each_way(&x, UndefinedMembers::Refuse);
        assert!(encoded.is_some(), "{x:?} went the text way");
        assert_eq!(encoded.as_ref(), text.as_ref().ok(), "{x:?}");
        let (encoded, text) = json_from_js_each_way(&Array::of1(&x), UndefinedMembers::Refuse);
        assert_eq!(encoded.as_ref(), text.as_ref().ok(), "[{x:?}]");
    }
}

/// Accepted content is a copy of the host's value as JSON would read it back: equal to
/// `JSON.parse(JSON.stringify(content))`, not the host's own object, `-0` written `0`.
#[wasm_bindgen_test]
fn accepted_content_is_the_value_as_json_reads_it_back() {
    for seed in 0..300 {
        let form = random_form(seed);
        let (schema, content) = (get(&form, "schema"), get(&form, "content"));
        let result = validate_content_js(schema, content.clone())
            .unwrap_or_else(|e| panic!("seed {seed}: {}", stringify(&e)));
        let got = get(&result, "content");
        assert_eq!(
            get(&result, "ok"),
            JsValue::TRUE,
            "seed {seed}: {}",
            stringify(&result)
        );
        assert_ne!(got, content, "seed {seed}: a copy, not the host's object");
        assert_eq!(stringify(&got), stringify(&content), "seed {seed}");
        assert_eq!(
            json_from_js(&got, UndefinedMembers::Refuse),
            json_from_js(&content, UndefinedMembers::Refuse)
        );
    }
    let minus_zero = js(r#"{"n":0}"#);
    let _ = Reflect::set(&minus_zero, &"n".into(), &JsValue::from_f64(-0.0));
    let schema = js(r#"{"type":"object","properties":{"n":{"type":"integer"}}}"#);
    let result = validate_content_js(schema, minus_zero).unwrap_or(JsValue::NULL);
    let n = get(&get(&result, "content"), "n")
        .as_f64()
        .unwrap_or(f64::NAN);
    assert!(n == 0.0 && n.is_sign_positive(), "{n}");
}

/// A getter the walk runs may call the API again: that call is answered, and the value
/// being walked still crosses whole, the fast way.
#[wasm_bindgen_test]
fn a_getter_that_calls_the_api_again_spoils_nothing() {
    let inner = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let answers = inner.clone();
    let call_again = Closure::<dyn FnMut()>::new(move || {
        let schema = js(r#"{"type":"object","properties":{"n":{"type":"integer"}}}"#);
        let answer = validate_content_js(schema, js(r#"{"n":7}"#)).unwrap_or(JsValue::NULL);
        answers.borrow_mut().push(stringify(&answer));
    });
    let schema = with_getter(call_again.as_ref().unchecked_ref());
    let (encoded, text) = json_from_js_each_way(&schema, UndefinedMembers::Refuse);
    let want = serde_json::json!({
        "type": "object", "properties": {"a": {"type": "string"}}, "title": "T", "required": ["a"]
    });
    assert_eq!(encoded, Some(want.clone()));
    assert_eq!(text, Ok(want));
    let answer = validate_content_js(schema, js(r#"{"a":"x"}"#)).unwrap_or(JsValue::NULL);
    assert_eq!(stringify(&answer), r#"{"ok":true,"content":{"a":"x"}}"#);
    let inner = inner.borrow();
    // Read once by the encoding and twice by the text way (its check, then JSON.stringify),
    // then once more by validateContent, the fast way.
    assert_eq!(inner.len(), 4);
    assert!(inner
        .iter()
        .all(|answer| answer == r#"{"ok":true,"content":{"n":7}}"#));
}
