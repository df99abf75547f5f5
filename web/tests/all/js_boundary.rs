//! Hostile values from a JS host at the web crate's JS APIs, in headless Chromium:
//! `elicit` params and `McpClient.connect` options with a cycle, a throwing getter or a
//! throwing Proxy trap are refused in words naming the argument, and the module keeps
//! working afterwards (a cycle walked without a guard overflows the wasm stack: "memory
//! access out of bounds", and every later call traps). And the other way: what a server sends reaches
//! the host as `JSON.parse` gives it (int64 numbers, `__proto__` keys, `1e400`).

#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use js_sys::{Reflect, JSON};
use mcp_elicit::js::compile_schema;
use mcp_elicit_host::McpClient;
use mcp_elicit_web::boundary::{json_arg, settle};
use mcp_elicit_web::embed::elicit;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

// The nasty values, built by plain JS.
#[wasm_bindgen(module = "/tests/all/support.js")]
extern "C" {
    #[wasm_bindgen(js_name = hostileServer)]
    fn hostile_server(hostile: &str, call_result: &str, tool: &str) -> js_sys::Function;
    #[wasm_bindgen(js_name = hostileOptions)]
    fn hostile_options(container: &web_sys::HtmlElement) -> JsValue;
    #[wasm_bindgen(js_name = lastSampled)]
    fn last_sampled() -> JsValue;
    #[wasm_bindgen(js_name = likeJsonParse)]
    fn like_json_parse(value: &JsValue, text: &str) -> String;
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

/// Numbers beyond 2^53 (an int64 id, the int64 minimum, beyond u64), 1e400 and
/// `__proto__` keys, top-level and nested.
const HOSTILE: &str = r#"{"id":9007199254740993,"min":-9223372036854775808,"huge":1e400,"__proto__":{"polluted":true},"nested":{"__proto__":{"polluted":true},"list":[18446744073709551616]},"messages":[],"maxTokens":9007199254740993}"#;
const TOOL: &str = r#"{"name":"hostile","inputSchema":{"type":"object","properties":{"__proto__":{"type":"integer","default":9007199254740993}}}}"#;

fn call_result() -> String {
    format!(
        r#"{{"resultType":"complete","content":[],"structuredContent":{HOSTILE},"__proto__":{{"polluted":true}},"big":-9223372036854775808}}"#
    )
}

async fn hostile_client() -> McpClient {
    fake_fetch(
        "http://hostile.test/",
        &hostile_server(HOSTILE, &call_result(), TOOL),
    );
    let options = hostile_options(&host());
    match McpClient::connect("http://hostile.test/mcp".into(), options).await {
        Ok(client) => client,
        Err(e) => panic!("connect: {}", message_of(&e)),
    }
}

async fn resolved(promise: js_sys::Promise, what: &str) -> JsValue {
    JsFuture::from(promise)
        .await
        .unwrap_or_else(|e| panic!("{what} rejected: {}", message_of(&e)))
}

fn member(value: &JsValue, name: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// Results reach the host as `JSON.parse` gives the server's text: an int64 beyond 2^53 is
/// the nearest double (not a rejection of the Promise after the tool has run), `1e400` is
/// Infinity, and a `__proto__` key is an own property that leaves the object's prototype
/// alone. The same for every method that hands server data to the host,
/// and for the params given to the host's sampling handler.
#[wasm_bindgen_test]
async fn server_data_reaches_the_host_as_json_parse_gives_it() {
    let client = hostile_client().await;
    let tools = resolved(client.list_tools(), "listTools").await;
    assert_eq!(like_json_parse(&tools, &format!("[{TOOL}]")), "");
    let called = resolved(
        client.call_tool("hostile".into(), JsValue::UNDEFINED, None),
        "callTool",
    )
    .await;
    assert_eq!(like_json_parse(&called, &call_result()), "");
    let prompt = resolved(
        client.get_prompt("p".into(), JsValue::UNDEFINED, None),
        "getPrompt",
    )
    .await;
    assert_eq!(like_json_parse(&member(&prompt, "_meta"), HOSTILE), "");
    let read = resolved(client.read_resource("r://x".into(), None), "readResource").await;
    assert_eq!(like_json_parse(&member(&read, "_meta"), HOSTILE), "");
    resolved(
        client.call_tool("sample".into(), JsValue::UNDEFINED, None),
        "callTool with sampling",
    )
    .await;
    // (Input requests are read whole into JSON values, which hold no 1e400.)
    let sampled = HOSTILE.replace("1e400", "1");
    assert_eq!(like_json_parse(&last_sampled(), &sampled), "");
    still_works().await;
}

/// `elicit`'s answer reaches the host as `JSON.parse` would give its wire text: a property
/// called `__proto__` is an own key of `content` (set through the setter, it would replace
/// `content`'s prototype and lose the answer).
#[wasm_bindgen_test]
async fn elicit_answers_a_proto_property_as_an_own_key() {
    let el = host();
    let params = js(
        r#"{"message":"Hostile names","requestedSchema":{"type":"object",
        "properties":{"__proto__":{"type":"string","default":"kept"},
                      "constructor":{"type":"string","default":"also"}}}}"#,
    );
    let promise = elicit(el.clone().into(), params);
    tick().await;
    button(&el, "Submit").click();
    let answer = resolved(promise, "elicit").await;
    assert_eq!(
        like_json_parse(
            &answer,
            r#"{"action":"accept","content":{"__proto__":"kept","constructor":"also"}}"#
        ),
        ""
    );
}
