//! The bound on a POST nobody streams from (wasm-bindgen-test in Chromium): a `fetch` that
//! never answers ends after the bound instead of leaving its card at "Sending…" forever,
//! and a prompt one is untouched by it.

#![cfg(target_arch = "wasm32")]

use js_sys::Function;
use mcp_elicit::driver::HttpRequest;
use mcp_elicit_web::transport;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn work_that_never_ends_is_given_up_after_the_bound() {
    let never = futures::future::pending::<()>();
    assert_eq!(transport::within(20, never).await, None);
    assert_eq!(transport::within(60_000, async { 7 }).await, Some(7));
}

#[wasm_bindgen_test]
async fn a_fetch_the_server_never_answers_is_given_up() {
    // A server that takes the request and never answers.
    Function::new_no_args("window.fetch = () => new Promise(() => {});")
        .call0(&JsValue::NULL)
        .expect("fetch replaced");
    let request = HttpRequest::post(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_owned());
    let sent = transport::send_request("http://hung.invalid/mcp", &request, None);
    assert!(transport::within(50, sent).await.is_none());
}
