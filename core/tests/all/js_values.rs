//! Small helpers the browser tests share: JSON text to a JS value and back, and a member.
#![cfg(all(target_arch = "wasm32", feature = "js-api"))]

use js_sys::{Reflect, JSON};
use wasm_bindgen::JsValue;

/// The JS value of test JSON text (which is valid).
pub(crate) fn js(text: &str) -> JsValue {
    JSON::parse(text).unwrap_or_else(|_| panic!("test JSON is valid: {text}"))
}

/// `JSON.stringify(v)`, or "" when it has no text.
pub(crate) fn stringify(v: &JsValue) -> String {
    JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_default()
}

/// `v[key]`, or `undefined`.
pub(crate) fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}
