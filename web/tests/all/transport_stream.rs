//! The transport's body reading in a real browser (wasm-bindgen-test in Chromium): a
//! `ReadableStream` split into arbitrary chunks yields the same JSON-RPC messages through
//! the client's [`Messages`] (the core's SSE decoder behind it), data-less events are
//! skipped, the last event id is kept for resuming, a cut stream is an error, a request
//! to a port where nothing listens is reported as "unreachable" in words, and a header
//! value the browser refuses is an error rather than a throw.

#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Function};
use mcp_elicit::driver::http::failure_from_http;
use mcp_elicit::driver::HttpRequest;
use mcp_elicit_web::client::{ClientError, Messages};
use mcp_elicit_web::transport::{self, ByteStream, RawResponse, TransportError};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

/// A `ReadableStream` that yields `chunks` (UTF-8 encoded), one `read()` each.
fn stream_of(chunks: &[&[u8]]) -> web_sys::ReadableStream {
    let parts = Array::new();
    for chunk in chunks {
        parts.push(&js_sys::Uint8Array::from(*chunk));
    }
    let make = Function::new_with_args(
        "parts",
        "let i = 0; return new ReadableStream({ pull(c) { if (i < parts.length) { c.enqueue(parts[i++]); } else { c.close(); } } });",
    );
    make.call1(&JsValue::NULL, &parts)
        .expect("test stream")
        .dyn_into()
        .expect("a ReadableStream")
}

/// The client's reader over an SSE response whose body is `chunks`.
fn sse_body(chunks: &[&[u8]], url: &str) -> Messages {
    let body = ByteStream::new(&stream_of(chunks), url).expect("reader");
    Messages::new(RawResponse {
        status: 200,
        content_type: Some("text/event-stream".into()),
        session_id: None,
        www_authenticate: None,
        body: Some(body),
    })
}

async fn messages(chunks: &[&[u8]]) -> Vec<String> {
    let mut body = sse_body(chunks, "test://stream");
    let mut out = Vec::new();
    while let Some(message) = body.next().await.expect("decodes") {
        out.push(message);
    }
    assert_eq!(
        body.last_event_id(),
        Some("7"),
        "the id survives for Last-Event-ID"
    );
    out
}

const LEGACY_CALL: &str = "event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"elicitation/create\",\"params\":{\"message\":\"Café?\"}}\r\n\r\n\
event: message\r\nid: 7\r\ndata:\r\n\r\n\
: keep-alive\r\n\r\n\
event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n\r\n";

#[wasm_bindgen_test]
async fn whole_stream_yields_messages_and_skips_dataless_events() {
    let got = messages(&[LEGACY_CALL.as_bytes()]).await;
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].contains("elicitation/create"));
    assert!(got[0].contains("Café?"));
    assert_eq!(got[1], "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
}

#[wasm_bindgen_test]
async fn every_split_point_yields_the_same_messages() {
    let whole = LEGACY_CALL.as_bytes();
    let expected = messages(&[whole]).await;
    // Every two-chunk split, including inside "é" and between "\r" and "\n".
    for at in 1..whole.len() {
        let (a, b) = whole.split_at(at);
        assert_eq!(messages(&[a, b]).await, expected, "split at byte {at}");
    }
    // One byte per chunk.
    let bytes: Vec<&[u8]> = whole.chunks(1).collect();
    assert_eq!(messages(&bytes).await, expected);
}

#[wasm_bindgen_test]
async fn a_stream_cut_mid_event_is_an_error_not_silence() {
    let mut body = sse_body(&[b"data: {\"jsonrpc\""], "test://cut");
    match body.next().await {
        Err(ClientError::Driver(err)) => {
            let words = err.to_string();
            assert!(!words.is_empty());
        }
        other => panic!("expected a cut stream to fail, got {:?}", other.map(|_| ())),
    }
}

#[wasm_bindgen_test]
async fn nothing_listening_is_unreachable_in_words() {
    // Port 9 (discard) on loopback: nothing listens there in the test environment.
    let url = "http://127.0.0.1:9/mcp";
    let request = HttpRequest::post("{}".into());
    let err = match transport::send_request(&Default::default(), url, &request, &[], None).await {
        Err(err) => err,
        Ok(_) => panic!("a POST to a closed port cannot succeed"),
    };
    assert_eq!(err, TransportError::Unreachable { url: url.into() });
    let words = ClientError::from(err).to_string();
    assert!(
        words.contains("Cannot reach the server at http://127.0.0.1:9/mcp"),
        "{words}"
    );
}

#[wasm_bindgen_test]
async fn a_header_the_browser_cannot_send_is_an_error_in_words_not_a_throw() {
    // E.g. a server's SSE event id beyond Latin-1, sent back as Last-Event-ID.
    let request = HttpRequest::post("{}".into()).with("Last-Event-ID", "\u{2603}");
    let err = match transport::send_request(
        &Default::default(),
        "http://127.0.0.1:9/mcp",
        &request,
        &[],
        None,
    )
    .await
    {
        Err(err) => err,
        Ok(_) => panic!("a header fetch refuses cannot be sent"),
    };
    assert!(
        matches!(&err, TransportError::Unsendable { detail } if detail.contains("Last-Event-ID")),
        "{err:?}"
    );
    assert!(err.to_string().contains("could not send"), "{err}");
}

#[wasm_bindgen_test]
fn http_errors_carry_the_json_rpc_error_in_words() {
    let body = r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Cannot send 'elicitation/create': this transport context has no back-channel for server-initiated requests."}}"#;
    let err = ClientError::from(failure_from_http(
        400,
        Some("application/json"),
        body.as_bytes(),
    ));
    let words = err.to_string();
    assert!(words.contains("no back-channel"), "{words}");
}
