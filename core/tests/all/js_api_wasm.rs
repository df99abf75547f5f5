//! The JS API in headless Chromium, called through JS values exactly as a page would.
#![cfg(all(target_arch = "wasm32", feature = "js-api"))]

use crate::js_values::{get, js, stringify};
use js_sys::{Function, Reflect};
use mcp_elicit::js::{compile_schema, compile_validator, validate_content_js};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

/// The thrown value must be a real `Error` with a `path` and a message.
fn thrown(r: Result<JsValue, JsValue>) -> (String, String) {
    let e = match r {
        Ok(v) => panic!("expected a throw, got {}", stringify(&v)),
        Err(e) => e,
    };
    let err = e
        .dyn_ref::<js_sys::Error>()
        .unwrap_or_else(|| panic!("thrown value is not an Error"));
    (
        get(&e, "path")
            .as_string()
            .unwrap_or_else(|| "<no path>".into()),
        err.message().into(),
    )
}

const BOOKING: &str = r#"{"type":"object","title":"AlternativeDate","properties":{
  "zeta":{"type":"boolean","title":"Accept Alternative"},
  "date":{"type":"string","format":"date","default":"2025-12-26"},
  "party":{"type":"integer","minimum":1,"maximum":8},
  "seat":{"type":"string","oneOf":[{"const":"in","title":"Inside"},{"const":"out","title":"Outside"}]}
},"required":["zeta","party"]}"#;

#[wasm_bindgen_test]
fn compile_schema_returns_plain_objects_in_property_order() {
    let spec = compile_schema(js(BOOKING)).unwrap_or_else(|e| panic!("{}", stringify(&e)));
    assert!(spec.is_object());
    assert!(!spec.is_instance_of::<js_sys::Map>());
    let fields = get(&spec, "fields");
    assert!(js_sys::Array::is_array(&fields));
    assert_eq!(
        stringify(&spec),
        r#"{"title":"AlternativeDate","fields":[{"name":"zeta","label":"Accept Alternative","required":true,"kind":"boolean"},{"name":"date","label":"date","required":false,"default":"2025-12-26","kind":"string","format":"date"},{"name":"party","label":"party","required":true,"kind":"integer","minimum":1,"maximum":8},{"name":"seat","label":"seat","required":false,"kind":"select","options":[{"value":"in","title":"Inside"},{"value":"out","title":"Outside"}]}]}"#
    );
}

#[wasm_bindgen_test]
fn compile_schema_throws_an_error_with_a_path() {
    let (path, message) = thrown(compile_schema(js(
        r#"{"type":"object","properties":{"address":{"type":"object","properties":{}}}}"#,
    )));
    assert_eq!(path, "/properties/address");
    assert!(message.contains("nested object"), "{message}");
    let (path, _) = thrown(compile_schema(js(
        r#"{"type":"object","properties":{"p":{"type":"string","pattern":5}}}"#,
    )));
    assert_eq!(path, "/properties/p/pattern");
    let (path, _) = thrown(compile_schema(js("42")));
    assert_eq!(path, "");
}

#[wasm_bindgen_test]
fn validate_content_accepts_and_returns_the_content() {
    let r = validate_content_js(js(BOOKING), js(r#"{"zeta":true,"party":2,"seat":"out"}"#))
        .unwrap_or_else(|e| panic!("{}", stringify(&e)));
    assert_eq!(
        stringify(&r),
        r#"{"ok":true,"content":{"zeta":true,"party":2,"seat":"out"}}"#
    );
}

#[wasm_bindgen_test]
fn validate_content_lists_one_error_per_field() {
    let r = validate_content_js(
        js(BOOKING),
        js(r#"{"party":9.5,"date":"tomorrow","seat":"roof","extra":1}"#),
    )
    .unwrap_or_else(|e| panic!("{}", stringify(&e)));
    assert_eq!(get(&r, "ok"), JsValue::FALSE);
    let errors: js_sys::Array = get(&r, "errors").unchecked_into();
    let got: Vec<(String, String)> = errors
        .iter()
        .map(|e| {
            assert!(get(&e, "message")
                .as_string()
                .is_some_and(|m| !m.is_empty()));
            (
                get(&e, "field").as_string().unwrap_or_default(),
                get(&e, "code").as_string().unwrap_or_default(),
            )
        })
        .collect();
    let want = [
        ("zeta", "required"),
        ("date", "format"),
        ("party", "type"),
        ("seat", "enum"),
        ("extra", "unknownField"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect();
    assert_eq!(got, want);
}

#[wasm_bindgen_test]
fn validate_content_throws_for_a_refused_schema() {
    let (path, _) = thrown(validate_content_js(
        js(r##"{"type":"object","properties":{"a":{"$ref":"#/x"}}}"##),
        js("{}"),
    ));
    assert_eq!(path, "/properties/a/$ref");
}

#[wasm_bindgen_test]
fn values_that_are_not_json_never_panic() {
    let f = Function::new_no_args("return 1");
    let weird = [
        JsValue::UNDEFINED,
        f.into(),
        JsValue::symbol(Some("s")),
        js_sys::BigInt::from(5u32).into(),
    ];
    for w in weird {
        // A schema that is not JSON is an Error with the root path.
        let (path, message) = thrown(compile_schema(w.clone()));
        assert_eq!(path, "");
        assert!(!message.is_empty());
        // Content that is not JSON is a validation result, not a crash.
        let r = validate_content_js(js(BOOKING), w).unwrap_or_else(|e| panic!("{}", stringify(&e)));
        assert_eq!(get(&r, "ok"), JsValue::FALSE);
    }
    // A content object holding a function somewhere deep.
    let obj = js(r#"{"zeta":true,"party":2}"#);
    let _ = Reflect::set(&obj, &JsValue::from_str("seat"), &Function::new_no_args(""));
    let r = validate_content_js(js(BOOKING), obj).unwrap_or_else(|e| panic!("{}", stringify(&e)));
    assert_eq!(get(&r, "ok"), JsValue::FALSE);
}

/// Contents that exercise every answer: accepted, each kind of error, and not JSON at all.
const CONTENTS: &[&str] = &[
    r#"{"zeta":true,"party":2,"seat":"out"}"#,
    r#"{"zeta":true,"party":2,"date":"2025-12-27","seat":"in"}"#,
    r#"{"party":9.5,"date":"tomorrow","seat":"roof","extra":1}"#,
    r#"{"zeta":"yes","party":0}"#,
    r#"[1,2]"#,
    r#""text""#,
    r#"{"zeta":true,"party":1e300}"#,
];

#[wasm_bindgen_test]
fn a_compiled_validator_answers_what_validate_content_answers() {
    let validator = compile_validator(js(BOOKING)).unwrap_or_else(|e| panic!("{}", stringify(&e)));
    for content in CONTENTS {
        let once = validate_content_js(js(BOOKING), js(content))
            .unwrap_or_else(|e| panic!("{}", stringify(&e)));
        let again = validator
            .validate(js(content))
            .unwrap_or_else(|e| panic!("{}", stringify(&e)));
        assert_eq!(stringify(&again), stringify(&once), "{content}");
    }
    // Content that is not JSON: the same type error in the same words.
    let f: JsValue = Function::new_no_args("return 1").into();
    let once =
        validate_content_js(js(BOOKING), f.clone()).unwrap_or_else(|e| panic!("{}", stringify(&e)));
    let again = validator
        .validate(f)
        .unwrap_or_else(|e| panic!("{}", stringify(&e)));
    assert_eq!(stringify(&again), stringify(&once));
    assert!(stringify(&again).contains("The answer is not JSON: it is a function, not JSON."));
}

#[wasm_bindgen_test]
fn compile_validator_refuses_a_schema_as_compile_schema_does() {
    let schema = r##"{"type":"object","properties":{"a":{"$ref":"#/x"}}}"##;
    let (path, message) = thrown(compile_validator(js(schema)).map(JsValue::from));
    assert_eq!((path, message), thrown(compile_schema(js(schema))));
}

#[wasm_bindgen_test]
fn accepted_content_comes_back_as_a_fresh_plain_object() {
    let content = js(r#"{"zeta":true,"party":2,"seat":"out"}"#);
    let r = validate_content_js(js(BOOKING), content.clone())
        .unwrap_or_else(|e| panic!("{}", stringify(&e)));
    let back = get(&r, "content");
    assert!(back.is_object());
    // A copy: the host's object is not handed back, so changing one leaves the other.
    assert!(!js_sys::Object::is(&back, &content));
    assert_eq!(stringify(&back), stringify(&content));
}

/// Text of every UTF-8 width crosses whole in the browser, at lengths on both sides of the
/// browser's threshold between the JS copy loop and `encodeInto` (512 UTF-16 units, in
/// core/src/js_strict_json.js), non-ASCII first, last and throughout.
#[wasm_bindgen_test]
fn text_of_every_width_crosses_whole_around_the_copy_threshold() {
    for unit in ["a", "é", "€", "😀", "a€😀é"] {
        for n in [1usize, 3, 150, 230, 240, 250, 500, 2000] {
            let label = unit.repeat(n);
            for name in [label.clone(), format!("x{label}"), format!("{label}x")] {
                let schema = serde_json::json!({
                    "type": "object",
                    "properties": {name.as_str(): {"type": "string", "enum": [name.as_str()]}},
                });
                let schema = js(&schema.to_string());
                let spec =
                    compile_schema(schema.clone()).unwrap_or_else(|e| panic!("{}", stringify(&e)));
                let field = js_sys::Reflect::get_u32(&get(&spec, "fields"), 0).unwrap_or_default();
                assert_eq!(
                    get(&field, "name").as_string().as_deref(),
                    Some(name.as_str())
                );
                let content = js(&serde_json::json!({ name.as_str(): name.as_str() }).to_string());
                let answer = validate_content_js(schema.clone(), content.clone())
                    .unwrap_or_else(|e| panic!("{}", stringify(&e)));
                assert_eq!(stringify(&get(&answer, "content")), stringify(&content));
                let wrong =
                    js(&serde_json::json!({ name.as_str(): format!("{name}y") }).to_string());
                let refused = validate_content_js(schema, wrong)
                    .unwrap_or_else(|e| panic!("{}", stringify(&e)));
                assert_eq!(get(&refused, "ok").as_bool(), Some(false));
            }
        }
    }
}
