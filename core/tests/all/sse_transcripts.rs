//! Every SSE body the real server sent (the recorded transcripts), split at
//! every byte position, decodes to the same JSON-RPC messages as when read whole.
// Native only: it reads the fixtures from disk; `wire_wasm.rs` runs the same machines in Chromium.
#![cfg(not(target_arch = "wasm32"))]

use mcp_elicit::driver::http::{messages_from_body, MessageStream};
use serde_json::Value;

fn sse_bodies() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transcripts");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
        for e in doc["exchanges"].as_array().unwrap() {
            if e["response"]["headers"]["content-type"].as_str() == Some("text/event-stream") {
                out.push(e["response"]["body"].as_str().unwrap().to_string());
            }
        }
    }
    out
}

#[test]
fn recorded_streams_decode_the_same_at_every_split() {
    let bodies = sse_bodies();
    assert!(
        bodies.len() >= 10,
        "only {} SSE bodies recorded",
        bodies.len()
    );
    for body in bodies {
        let bytes = body.as_bytes();
        let whole = messages_from_body(Some("text/event-stream"), bytes).unwrap();
        assert!(!whole.is_empty());
        for text in &whole {
            serde_json::from_str::<Value>(text).unwrap();
        }
        for cut in 0..=bytes.len() {
            let mut s = MessageStream::new();
            let (a, b) = bytes.split_at(cut);
            let mut got = s.feed(a).unwrap();
            got.extend(s.feed(b).unwrap());
            got.extend(s.finish().unwrap());
            assert_eq!(got, whole, "split at {cut}");
        }
    }
}

#[test]
fn crlf_version_of_each_recorded_stream_decodes_the_same() {
    for body in sse_bodies() {
        let whole = messages_from_body(Some("text/event-stream"), body.as_bytes()).unwrap();
        let lf = body.replace("\r\n", "\n");
        let crlf = lf.replace('\n', "\r\n");
        let cr = lf.replace('\n', "\r");
        for variant in [lf, crlf, cr] {
            assert_eq!(
                messages_from_body(Some("text/event-stream; charset=utf-8"), variant.as_bytes())
                    .unwrap(),
                whole
            );
        }
    }
}
