//! The bound on a POST nobody streams from (wasm-bindgen-test in Chromium): a `fetch` that
//! never answers ends after the bound instead of leaving its card at "Sending…" forever,
//! and a prompt one is untouched by it.

#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use mcp_elicit::driver::HttpRequest;
use mcp_elicit_web::transport;
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
async fn work_that_never_ends_is_given_up_after_the_bound() {
    let never = futures::future::pending::<()>();
    assert_eq!(transport::within(20, never).await, None);
    assert_eq!(transport::within(60_000, async { 7 }).await, Some(7));
}

#[wasm_bindgen_test]
async fn a_fetch_the_server_never_answers_is_given_up() {
    // A server that takes the request and never answers.
    fake_fetch_script(
        "http://hung.invalid/",
        "return () => new Promise(() => {});",
    );
    let request = HttpRequest::post(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_owned());
    let fetcher = transport::Fetcher::default();
    let sent = transport::send_request(&fetcher, "http://hung.invalid/mcp", &request, &[], None);
    assert!(transport::within(50, sent).await.is_none());
}

/// Timers still pending in the page: `setTimeout` and `clearTimeout` counted from here on.
fn count_timers() {
    run_js(
        "if (!window.__timers) { window.__timers = new Set(); \
           const set = window.setTimeout.bind(window), clear = window.clearTimeout.bind(window); \
           window.setTimeout = (f, ms, ...a) => { let id; \
             id = set((...b) => { window.__timers.delete(id); f(...b); }, ms, ...a); \
             window.__timers.add(id); return id; }; \
           window.clearTimeout = (id) => { window.__timers.delete(id); clear(id); }; }",
    );
}

fn pending_timers() -> f64 {
    run_js("return window.__timers.size;")
        .as_f64()
        .unwrap_or(-1.0)
}

#[wasm_bindgen_test]
async fn work_that_finishes_first_leaves_no_timer_behind() {
    count_timers();
    let before = pending_timers();
    for _ in 0..100 {
        assert_eq!(transport::within(300_000, async { 7 }).await, Some(7));
    }
    // A sleep dropped before it fires is cleared too.
    drop(transport::sleep(300_000));
    assert_eq!(
        pending_timers(),
        before,
        "each bound's timer is cleared once its work is done"
    );
}
