//! `McpClient`'s `onElicitation` option, in headless Chromium against an in-page modern
//! server: a handler's valid answer reaches the server without a card; `undefined`, a
//! throw, a rejection, a hostile value, content that does not fit the form and an `accept`
//! of a URL request all leave the card showing (with a notice in words where the host
//! failed), so the request is never lost.

#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use js_sys::Reflect;
use mcp_elicit_host::McpClient;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

#[wasm_bindgen(module = "/tests/all/support.js")]
extern "C" {
    #[wasm_bindgen(js_name = askingServer)]
    fn asking_server() -> js_sys::Function;
    #[wasm_bindgen(js_name = handlerOptions)]
    fn handler_options(container: &web_sys::HtmlElement, kind: &str) -> JsValue;
    fn seen() -> js_sys::Array;
}

fn message_of(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("{error:?}"))
}

async fn client(kind: &str) -> (web_sys::HtmlElement, McpClient) {
    fake_fetch("http://asking.test/", &asking_server());
    let container = host();
    let options = handler_options(&container, kind);
    match McpClient::connect("http://asking.test/mcp".into(), options).await {
        Ok(client) => (container, client),
        Err(e) => panic!("connect: {}", message_of(&e)),
    }
}

fn get(value: &JsValue, path: &[&str]) -> JsValue {
    path.iter().fold(value.clone(), |v, k| {
        Reflect::get(&v, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
    })
}

/// The call's result, as JSON text.
async fn answered_without_card(kind: &str) -> String {
    let (container, client) = client(kind).await;
    let result = JsFuture::from(client.call_tool("form".into(), JsValue::UNDEFINED, None))
        .await
        .unwrap_or_else(|e| panic!("callTool rejected: {}", message_of(&e)));
    assert!(
        q_opt(&container, "[data-elicitation]").is_none(),
        "no card is shown"
    );
    let text = js_sys::JSON::stringify(&get(&result, &["structuredContent"]))
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_default();
    let _ = client.close();
    text
}

/// Starts the call and waits until its card shows; returns the container's text.
async fn card_shows(kind: &str, tool: &str) -> (web_sys::HtmlElement, McpClient) {
    let (container, client) = client(kind).await;
    let _call = client.call_tool(tool.into(), JsValue::UNDEFINED, None);
    for _ in 0..200 {
        if q_opt(&container, "[data-elicitation]").is_some() {
            return (container, client);
        }
        tick().await;
    }
    panic!("no card for {kind}: {:?}", container.text_content());
}

fn text_of(container: &web_sys::HtmlElement) -> String {
    container.text_content().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_valid_accept_is_sent_without_a_card() {
    let sent = answered_without_card("accept").await;
    assert_eq!(
        sent,
        r#"{"ask":{"action":"accept","content":{"name":"Ada"}}}"#
    );
    let call = seen().get(0);
    assert_eq!(
        get(&call, &["params", "message"]).as_string().as_deref(),
        Some("Your name?")
    );
    assert_eq!(
        get(&call, &["params", "requestedSchema", "required", "0"])
            .as_string()
            .as_deref(),
        Some("name")
    );
    assert_eq!(
        get(&call, &["info", "key"]).as_string().as_deref(),
        Some("ask")
    );
    assert_eq!(
        get(&call, &["info", "mode"]).as_string().as_deref(),
        Some("form")
    );
    assert_eq!(
        get(&call, &["info", "era"]).as_string().as_deref(),
        Some("2026-07-28")
    );
    assert_eq!(
        get(&call, &["info", "server", "host"])
            .as_string()
            .as_deref(),
        Some("asking.test")
    );
}

#[wasm_bindgen_test]
async fn a_decline_is_sent_without_a_card() {
    let sent = answered_without_card("decline").await;
    assert_eq!(sent, r#"{"ask":{"action":"decline"}}"#);
}

#[wasm_bindgen_test]
async fn undefined_lets_the_card_show_without_a_notice() {
    let (container, client) = card_shows("undefined", "form").await;
    assert!(
        !text_of(&container).contains("onElicitation"),
        "no notice: {}",
        text_of(&container)
    );
    let _ = client.close();
}

#[wasm_bindgen_test]
async fn content_that_does_not_fit_shows_the_card_with_a_notice() {
    let (container, client) = card_shows("invalid", "form").await;
    let text = text_of(&container);
    assert!(text.contains("does not fit the form"), "{text}");
    let _ = client.close();
}

#[wasm_bindgen_test]
async fn a_failing_or_hostile_handler_shows_the_card_with_a_notice() {
    for (kind, words) in [
        ("throw", "profile store is locked"),
        ("reject", "policy service down"),
        ("cycle", "cycle"),
        ("getter", "handler failed"),
        ("not-a-result", "handler failed"),
    ] {
        let (container, client) = card_shows(kind, "form").await;
        let text = text_of(&container);
        assert!(text.contains(words), "{kind}: {text}");
        let _ = client.close();
    }
}

#[wasm_bindgen_test]
async fn a_url_accept_still_needs_the_persons_click() {
    let (container, client) = card_shows("accept", "url").await;
    let text = text_of(&container);
    assert!(text.contains("only you can open it"), "{text}");
    assert_eq!(
        get(&seen().get(0), &["params", "url"])
            .as_string()
            .as_deref(),
        Some("https://example.com/login")
    );
    let _ = client.close();
}
