//! The hostile-server limits of the core, in headless Chromium: where a panic aborts the
//! module and memory is the page's, the 4 MiB SSE id, the caps, the compiled pattern and the
//! URI template that used to panic behave as natively.
#![cfg(target_arch = "wasm32")]

use mcp_elicit::driver::http::MessageStream;
use mcp_elicit::schema::{compile, MAX_ENUM_OPTIONS, MAX_PATTERN_TEXT_LEN, MAX_PROPERTIES};
use mcp_elicit::validate::{check_field, ErrorCode, RawInput};
use mcp_elicit::wire::ResourceTemplate;
use serde_json::{json, Map, Value};
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn a_4_mib_id_before_20000_events_is_dropped_and_the_result_arrives() {
    let mut stream = format!("id: {}\n", "7".repeat(4 << 20)).into_bytes();
    for _ in 0..20_000 {
        stream.extend_from_slice(b"data\n\n");
    }
    stream.extend_from_slice(b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n");
    let mut m = MessageStream::new();
    let mut messages = Vec::new();
    for chunk in stream.chunks(64 * 1024) {
        messages.extend(m.feed(chunk).unwrap());
    }
    assert_eq!(messages.len(), 1);
    assert_eq!(m.last_event_id(), None);
}

#[wasm_bindgen_test]
fn caps_refuse_with_a_pointer() {
    let properties: Map<String, Value> = (0..=MAX_PROPERTIES)
        .map(|i| (format!("p{i}"), json!({"type": "boolean"})))
        .collect();
    let e = compile(&json!({"type": "object", "properties": properties})).unwrap_err();
    assert_eq!(e.path, "/properties");
    let choices: Vec<String> = (0..=MAX_ENUM_OPTIONS).map(|i| format!("c{i}")).collect();
    let e =
        compile(&json!({"properties": {"x": {"type": "string", "enum": choices}}})).unwrap_err();
    assert_eq!(e.path, "/properties/x/enum");
    // A pattern too large to check is kept unchecked, never a refusal (issue 16).
    let spec = compile(
        &json!({"properties": {"x": {"type": "string", "pattern": "(?:[a-z]{1000}){1000}"}}}),
    )
    .unwrap();
    assert!(check_field(&spec.fields[0], &RawInput::Text("a".into())).is_ok());
}

#[wasm_bindgen_test]
fn the_compiled_pattern_checks_and_long_text_is_refused_in_words() {
    let spec =
        compile(&json!({"properties": {"x": {"type": "string", "pattern": "^[a-z]*$"}}})).unwrap();
    let f = &spec.fields[0];
    assert!(check_field(f, &RawInput::Text("abc".into())).is_ok());
    let err = check_field(f, &RawInput::Text("a".repeat(MAX_PATTERN_TEXT_LEN + 1))).unwrap_err();
    assert_eq!(err.code, ErrorCode::Pattern);
}

#[wasm_bindgen_test]
fn a_percent_before_a_non_ascii_character_is_refused_not_a_panic() {
    let t = ResourceTemplate {
        uri_template: "%\u{9fd}1".into(),
        name: "t".into(),
        title: None,
        description: None,
        mime_type: None,
    };
    assert!(t.variables().is_err());
}
