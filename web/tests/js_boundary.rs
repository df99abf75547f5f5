//! Hostile values from a JS host at the web crate's JS APIs, in headless Chromium:
//! `elicit` params and `McpClient.connect` options with a cycle, a throwing getter or a
//! throwing Proxy trap are refused in words naming the argument, and the module keeps
//! working afterwards (before, a cycle overflowed the wasm stack: "memory access out of
//! bounds", and every later call trapped).

#![cfg(target_arch = "wasm32")]

mod ui_support;

use js_sys::{Reflect, JSON};
use mcp_elicit::js::compile_schema;
use mcp_elicit_web::boundary::{json_arg, settle};
use mcp_elicit_web::embed::elicit;
use mcp_elicit_web::host::McpClient;
use ui_support::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

// The nasty values, built by plain JS.
#[wasm_bindgen(inline_js = r#"
export function cyclicParams() {
  const p = { message: "hi", requestedSchema: { type: "object", properties: {} } };
  p.requestedSchema.self = p;
  return p;
}
export function getterParams() {
  const p = { message: "hi" };
  Object.defineProperty(p, "requestedSchema", { enumerable: true, get() { throw new Error("getter says no"); } });
  return p;
}
export function proxyParams() {
  return new Proxy({ message: "hi" }, { ownKeys() { throw new Error("trap says no"); } });
}
export function cyclicRoots(container) {
  const root = { uri: "file:///home/me" };
  root.again = [root];
  return { container, roots: [root] };
}
export function withUndefined() { return { a: 1, b: undefined, c: [{ d: undefined }] }; }
export function hostilePromise() {
  const p = Promise.resolve({ role: "assistant" });
  Object.defineProperty(p, "constructor", { get() { throw new Error("constructor says no"); } });
  return p;
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = cyclicParams)]
    fn cyclic_params() -> JsValue;
    #[wasm_bindgen(js_name = getterParams)]
    fn getter_params() -> JsValue;
    #[wasm_bindgen(js_name = proxyParams)]
    fn proxy_params() -> JsValue;
    #[wasm_bindgen(js_name = cyclicRoots)]
    fn cyclic_roots(container: &web_sys::HtmlElement) -> JsValue;
    #[wasm_bindgen(js_name = withUndefined)]
    fn with_undefined() -> JsValue;
    #[wasm_bindgen(js_name = hostilePromise)]
    fn hostile_promise() -> JsValue;
}

fn js(text: &str) -> JsValue {
    JSON::parse(text).unwrap_or_else(|_| panic!("test JSON is valid: {text}"))
}

fn message_of(error: &JsValue) -> String {
    let error = error
        .dyn_ref::<js_sys::Error>()
        .unwrap_or_else(|| panic!("not an Error: {error:?}"));
    String::from(error.message())
}

/// The Promise's rejection as an `Error`'s message.
async fn rejection(promise: js_sys::Promise) -> String {
    match JsFuture::from(promise).await {
        Ok(v) => panic!("expected a rejection, got {v:?}"),
        Err(e) => message_of(&e),
    }
}

/// The module still works: the core API compiles a schema, and `elicit` renders a card.
async fn still_works() {
    let spec = compile_schema(js(
        r#"{"type":"object","properties":{"a":{"type":"boolean"}}}"#,
    ))
    .unwrap_or_else(|e| panic!("compileSchema after: {e:?}"));
    let fields = Reflect::get(&spec, &JsValue::from_str("fields")).unwrap_or(JsValue::UNDEFINED);
    assert_eq!(js_sys::Array::from(&fields).length(), 1);
    let el = host();
    let _pending = elicit(
        el.clone().into(),
        js(
            r#"{"message":"ok?","requestedSchema":{"type":"object","properties":{"x":{"type":"string"}}}}"#,
        ),
    );
    tick().await;
    assert!(el
        .query_selector("[data-elicitation]")
        .ok()
        .flatten()
        .is_some());
}

#[wasm_bindgen_test]
async fn elicit_with_cyclic_params_rejects_in_words() {
    let message = rejection(elicit(host().into(), cyclic_params())).await;
    assert!(message.starts_with("elicit params:"), "{message}");
    assert!(message.contains("/requestedSchema/self"), "{message}");
    assert!(message.contains("cycle"), "{message}");
    still_works().await;
}

#[wasm_bindgen_test]
async fn elicit_with_a_throwing_getter_or_trap_rejects_in_words() {
    let message = rejection(elicit(host().into(), getter_params())).await;
    assert!(message.contains("getter says no"), "{message}");
    let message = rejection(elicit(host().into(), proxy_params())).await;
    assert!(message.contains("trap says no"), "{message}");
    still_works().await;
}

#[wasm_bindgen_test]
async fn connect_with_cyclic_roots_is_refused_before_any_request() {
    let options = cyclic_roots(&host());
    let refused = McpClient::connect("http://127.0.0.1:9/mcp".into(), options).await;
    let message = match refused {
        Ok(_) => panic!("connect accepted cyclic roots"),
        Err(e) => message_of(&e),
    };
    assert!(message.contains("options.roots"), "{message}");
    assert!(
        message.contains("/0/again/0") && message.contains("cycle"),
        "{message}"
    );
    still_works().await;
}

#[wasm_bindgen_test]
fn json_arg_names_the_argument() {
    let why = json_arg(&cyclic_params(), "callTool's arguments")
        .err()
        .unwrap_or_default();
    assert!(
        why.starts_with("callTool's arguments: the member /requestedSchema/self"),
        "{why}"
    );
    // Undefined members are left out, as JSON.stringify does (hosts write `{a, b: maybe}`).
    assert_eq!(
        json_arg(&with_undefined(), "callTool's arguments"),
        Ok(serde_json::json!({"a": 1, "c": [{}]}))
    );
}

#[wasm_bindgen_test]
async fn settle_turns_a_hostile_promise_into_a_rejection() {
    // `Promise.resolve` of this value throws synchronously; `settle` must not.
    let message = rejection(settle(&hostile_promise())).await;
    assert!(message.contains("constructor says no"), "{message}");
    let plain = JsFuture::from(settle(&JsValue::from_str("plain")))
        .await
        .unwrap_or(JsValue::NULL);
    assert_eq!(plain.as_string().as_deref(), Some("plain"));
}
