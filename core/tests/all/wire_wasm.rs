//! The wire types, the SSE decoder and both state machines, run in headless
//! Chromium on real recorded exchanges (embedded with `include_str!`, since a
//! browser has no file system): what the web client relies on behaves in
//! wasm32 exactly as it does natively.
#![cfg(target_arch = "wasm32")]

use mcp_elicit::driver::http::{messages_from_body, MessageStream};
use mcp_elicit::driver::legacy::{LegacyConfig, LegacyEvent, LegacySession};
use mcp_elicit::driver::modern::{ModernCall, ModernConfig, ModernStep};
use mcp_elicit::wire::Call;
use mcp_elicit::wire::{from_raw, CallToolResult, ElicitResult, RequestId};
use serde_json::{Map, Value};
use wasm_bindgen_test::*;

const MODERN: &str = include_str!("../fixtures/transcripts/modern_delete_folder_accept.json");
const LEGACY: &str = include_str!("../fixtures/transcripts/legacy_session.json");

fn exchanges(doc: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(doc).unwrap();
    v["exchanges"].as_array().unwrap().clone()
}

fn response_messages(e: &Value) -> Vec<String> {
    messages_from_body(
        e["response"]["headers"]["content-type"].as_str(),
        e["response"]["body"].as_str().unwrap().as_bytes(),
    )
    .unwrap()
}

#[wasm_bindgen_test]
fn recorded_sse_bodies_decode_the_same_at_every_split() {
    let mut checked = 0;
    for e in exchanges(LEGACY) {
        if e["response"]["headers"]["content-type"].as_str() != Some("text/event-stream") {
            continue;
        }
        let body = e["response"]["body"].as_str().unwrap().as_bytes();
        let whole = response_messages(&e);
        for cut in 0..=body.len() {
            let mut s = MessageStream::new();
            let (a, b) = body.split_at(cut);
            let mut got = s.feed(a).unwrap();
            got.extend(s.feed(b).unwrap());
            assert_eq!(got, whole);
        }
        checked += 1;
    }
    assert!(checked >= 5);
}

#[wasm_bindgen_test]
fn modern_round_trip_with_byte_exact_state() {
    let ex = exchanges(MODERN);
    let mut args = Map::new();
    args.insert("path".into(), Value::String("/tmp/project".into()));
    let mut call = ModernCall::new(
        ModernConfig::default(),
        Call::Tool {
            name: "delete_folder".into(),
            arguments: args,
        },
        1,
    );
    let first = call.request().unwrap();
    let recorded: Value = serde_json::from_str(ex[0]["request"]["body"].as_str().unwrap()).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(first.body.as_deref().unwrap()).unwrap(),
        recorded
    );
    let text = response_messages(&ex[0]).remove(0);
    let ModernStep::InputNeeded { elicitations, .. } = call.on_message(&text) else {
        panic!()
    };
    let mut content = Map::new();
    content.insert("ok".into(), Value::Bool(true));
    assert!(call
        .answer(&elicitations[0].key, ElicitResult::accept(Some(content)))
        .unwrap());
    let replay = call.request().unwrap();
    let body = replay.body.unwrap();
    let state_start = text.find("\"requestState\":").unwrap();
    let state_end = text[state_start..].find("\",").unwrap() + state_start + 1;
    assert!(
        body.contains(&text[state_start..state_end]),
        "state not byte-exact"
    );
    let done = response_messages(&ex[1]).remove(0);
    let ModernStep::Complete(c) = call.on_message(&done) else {
        panic!()
    };
    let r: CallToolResult = from_raw(&c.result, "result").unwrap();
    assert_eq!(r.content[0].text(), Some("deleted /tmp/project"));
}

#[wasm_bindgen_test]
fn legacy_handshake_and_book_table() {
    let ex = exchanges(LEGACY);
    let mut s = LegacySession::new(LegacyConfig::default());
    s.initialize_request().unwrap();
    s.on_http_status(
        Some(&RequestId::Number(0)),
        200,
        ex[0]["response"]["headers"]["mcp-session-id"].as_str(),
    );
    let init = response_messages(&ex[0]).remove(0);
    let LegacyEvent::Initialized { notification, .. } = s.on_message(&init) else {
        panic!()
    };
    assert!(notification.header("mcp-session-id").is_some());
    // Exchanges 2..: tools/list (id 1), then book_table (id 2) with its elicitation.
    let _ = s.request("tools/list", None).unwrap();
    let params: Value = serde_json::from_str::<Value>(ex[3]["request"]["body"].as_str().unwrap())
        .unwrap()["params"]
        .clone();
    let (id, _) = s
        .call(&Call::parse("tools/call", &params).unwrap())
        .unwrap();
    let mut texts = response_messages(&ex[3]).into_iter();
    let LegacyEvent::Elicit { id: eid, .. } = s.on_message(&texts.next().unwrap()) else {
        panic!()
    };
    let recorded_answer = ex[4]["request"]["body"].as_str().unwrap();
    let answer: Value = serde_json::from_str(recorded_answer).unwrap();
    let result: ElicitResult = serde_json::from_value(answer["result"].clone()).unwrap();
    assert_eq!(
        s.answer_elicitation(&eid, &result).unwrap().body.as_deref(),
        Some(recorded_answer)
    );
    let LegacyEvent::Response {
        id: rid, result, ..
    } = s.on_message(&texts.next().unwrap())
    else {
        panic!()
    };
    assert_eq!(rid, id);
    let r: CallToolResult = from_raw(&result, "result").unwrap();
    assert_eq!(
        r.content[0].text(),
        Some("Booked a table for 2 on 2025-12-27.")
    );
}
