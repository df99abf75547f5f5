//! Hostile JS values at the core's JS API, in headless Chromium: cycles, throwing getters,
//! throwing Proxy traps and absurd nesting are refused in words (an `Error` for a schema,
//! a `type` error for content), and the module keeps working afterwards.
#![cfg(all(target_arch = "wasm32", feature = "js-api"))]

use crate::js_values::{get, js, stringify};
use mcp_elicit::js::{compile_schema, json_from_js, validate_content_js, UndefinedMembers};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

// The nasty values, built by plain JS (no eval: the same snippet mechanism as the crate).
#[wasm_bindgen(inline_js = r#"
export function cyclicSchema() {
  const s = { type: "object", properties: { a: { type: "string" } } };
  s.properties.a.owner = s;
  return s;
}
export function cyclicArray() { const a = [1]; a.push(a); return a; }
export function sharedNotCyclic() {
  const leaf = { type: "string" };
  return { type: "object", properties: { a: leaf, b: leaf } };
}
export function throwingGetter() {
  const s = { type: "object" };
  Object.defineProperty(s, "properties", { enumerable: true, get() { throw new Error("getter says no"); } });
  return s;
}
export function throwingNonError() {
  const s = { type: "object" };
  Object.defineProperty(s, "properties", { enumerable: true, get() { throw { toString() { throw 1; } }; } });
  return s;
}
export function throwingProxy() {
  return new Proxy({ type: "object" }, { ownKeys() { throw new Error("trap says no"); } });
}
export function throwingToJson() { return { type: "object", toJSON() { throw new Error("toJSON says no"); } }; }
export function deeplyNested(n) { let v = {}; for (let i = 0; i < n; i++) v = { v }; return v; }
export function undefinedMembers() { return { a: 1, b: undefined, c: { d: undefined } }; }
export function undefinedElement() { return { a: [1, undefined] }; }
export function withBigInt() { return { type: "object", properties: { a: { type: "integer", maximum: 10n } } }; }
"#)]
extern "C" {
    #[wasm_bindgen(js_name = cyclicSchema)]
    fn cyclic_schema() -> JsValue;
    #[wasm_bindgen(js_name = cyclicArray)]
    fn cyclic_array() -> JsValue;
    #[wasm_bindgen(js_name = sharedNotCyclic)]
    fn shared_not_cyclic() -> JsValue;
    #[wasm_bindgen(js_name = throwingGetter)]
    fn throwing_getter() -> JsValue;
    #[wasm_bindgen(js_name = throwingNonError)]
    fn throwing_non_error() -> JsValue;
    #[wasm_bindgen(js_name = throwingProxy)]
    fn throwing_proxy() -> JsValue;
    #[wasm_bindgen(js_name = throwingToJson)]
    fn throwing_to_json() -> JsValue;
    #[wasm_bindgen(js_name = deeplyNested)]
    fn deeply_nested(n: u32) -> JsValue;
    #[wasm_bindgen(js_name = undefinedMembers)]
    fn undefined_members() -> JsValue;
    #[wasm_bindgen(js_name = undefinedElement)]
    fn undefined_element() -> JsValue;
    #[wasm_bindgen(js_name = withBigInt)]
    fn with_big_int() -> JsValue;
}

const VALID: &str = r#"{"type":"object","properties":{"a":{"type":"boolean"}}}"#;

/// `compileSchema` throws a `SchemaError` at the root whose message has `words`; a valid
/// schema still compiles afterwards (the module did not trap).
fn refused_then_still_works(schema: JsValue, words: &str) {
    let thrown = match compile_schema(schema) {
        Ok(v) => panic!("expected a throw, got {}", stringify(&v)),
        Err(e) => e,
    };
    let error = thrown
        .dyn_ref::<js_sys::Error>()
        .unwrap_or_else(|| panic!("thrown value is not an Error"));
    let message = String::from(error.message());
    assert!(message.contains(words), "{message:?} lacks {words:?}");
    assert_eq!(get(&thrown, "path").as_string().as_deref(), Some(""));
    assert_eq!(String::from(error.name()), "SchemaError");
    let spec = compile_schema(js(VALID)).unwrap_or_else(|e| panic!("{}", stringify(&e)));
    assert_eq!(
        stringify(&get(&spec, "fields")),
        r#"[{"name":"a","label":"a","required":false,"kind":"boolean"}]"#
    );
}

#[wasm_bindgen_test]
fn a_cyclic_schema_is_refused_naming_the_member() {
    refused_then_still_works(cyclic_schema(), "/properties/a/owner");
    refused_then_still_works(cyclic_schema(), "cycle");
}

#[wasm_bindgen_test]
fn a_shared_object_that_is_no_cycle_is_fine() {
    let spec = compile_schema(shared_not_cyclic()).unwrap_or_else(|e| panic!("{}", stringify(&e)));
    assert_eq!(js_sys::Array::from(&get(&spec, "fields")).length(), 2);
}

#[wasm_bindgen_test]
fn a_throwing_getter_is_refused_with_its_words() {
    refused_then_still_works(throwing_getter(), "getter says no");
    // What was thrown need not be an Error, nor even printable.
    refused_then_still_works(throwing_non_error(), "threw");
}

#[wasm_bindgen_test]
fn a_throwing_proxy_trap_or_to_json_is_refused() {
    refused_then_still_works(throwing_proxy(), "trap says no");
    refused_then_still_works(throwing_to_json(), "toJSON says no");
}

#[wasm_bindgen_test]
fn absurd_nesting_is_refused_not_a_stack_overflow() {
    refused_then_still_works(deeply_nested(200), "nested");
    refused_then_still_works(deeply_nested(100_000), "nested");
    // Nesting a real schema never needs is still fine.
    assert!(json_from_js(&deeply_nested(50), UndefinedMembers::Refuse).is_ok());
}

#[wasm_bindgen_test]
fn a_bigint_member_is_refused_naming_it() {
    refused_then_still_works(with_big_int(), "/properties/a/maximum");
}

#[wasm_bindgen_test]
fn cyclic_content_is_a_type_error_not_a_crash() {
    let schema = js(VALID);
    for content in [cyclic_array(), cyclic_schema(), throwing_proxy()] {
        let r = validate_content_js(schema.clone(), content)
            .unwrap_or_else(|e| panic!("{}", stringify(&e)));
        assert_eq!(get(&r, "ok"), JsValue::FALSE, "{}", stringify(&r));
        let first = js_sys::Array::from(&get(&r, "errors")).get(0);
        assert_eq!(get(&first, "code").as_string().as_deref(), Some("type"));
    }
    let r = validate_content_js(schema, js(r#"{"a":true}"#))
        .unwrap_or_else(|e| panic!("{}", stringify(&e)));
    assert_eq!(stringify(&r), r#"{"ok":true,"content":{"a":true}}"#);
}

#[wasm_bindgen_test]
fn json_from_js_says_where_the_cycle_is() {
    let why = json_from_js(&cyclic_array(), UndefinedMembers::Omit)
        .err()
        .unwrap_or_default();
    assert!(why.contains("/1") && why.contains("cycle"), "{why}");
}

#[wasm_bindgen_test]
fn undefined_members_are_refused_or_left_out_as_asked() {
    let why = json_from_js(&undefined_members(), UndefinedMembers::Refuse)
        .err()
        .unwrap_or_default();
    assert_eq!(why, "the member /b is undefined, not JSON");
    assert_eq!(
        json_from_js(&undefined_members(), UndefinedMembers::Omit),
        Ok(serde_json::json!({"a": 1, "c": {}}))
    );
    // An array element would silently become null: refused either way.
    let why = json_from_js(&undefined_element(), UndefinedMembers::Omit)
        .err()
        .unwrap_or_default();
    assert_eq!(why, "the member /a/1 is undefined, not JSON");
}

/// A host's value is read as plain JSON: an object keyed by serde_json's private raw-value
/// token stays that object, as every other member name does (serde_json's own `Value`
/// reader, with the `raw_value` feature, would take it as raw JSON text and read that).
#[wasm_bindgen_test]
fn an_object_keyed_by_serdes_raw_value_token_is_an_object() {
    for text in [
        r#"{"$serde_json::private::RawValue":"{\"type\":\"object\"}"}"#,
        r#"{"$serde_json::private::RawValue":5}"#,
    ] {
        let read = json_from_js(&js(text), UndefinedMembers::Refuse)
            .unwrap_or_else(|why| panic!("{text}: {why}"));
        // serde_json's reader reads the first as the object `{"type":"object"}` and refuses
        // the second ("expected raw value").
        let theirs = serde_json::from_str::<serde_json::Value>(text).ok();
        assert_ne!(
            Some(&read),
            theirs.as_ref(),
            "serde_json's reader takes the token ({text})"
        );
        assert_eq!(read.to_string(), text, "read as an object, as written");
    }
}
