//! The wire parsers on what a hostile server sends: their error messages quote the server's
//! text in short excerpts, so a 1 MiB method name or version is not copied into every
//! message shown to the person.

use mcp_elicit::wire::{parse_message, ModernResult, ResourceTemplate};
use serde_json::json;
use serde_json::value::RawValue;

fn huge() -> String {
    "\u{1F600}".repeat(1 << 18)
}

fn short(message: &str) {
    assert!(message.len() < 400, "{} bytes", message.len());
}

#[test]
fn a_huge_jsonrpc_version_is_quoted_in_short() {
    let text = json!({"jsonrpc": huge(), "id": 1, "result": {}}).to_string();
    let err = parse_message(&text).unwrap_err();
    short(&err.message);
    assert!(err.message.contains("jsonrpc version"), "{}", err.message);
}

#[test]
fn a_huge_method_with_a_null_id_is_quoted_in_short() {
    let text = json!({"jsonrpc": "2.0", "id": null, "method": huge()}).to_string();
    short(&parse_message(&text).unwrap_err().message);
}

#[test]
fn a_huge_id_of_the_wrong_type_is_quoted_in_short() {
    let text = json!({"jsonrpc": "2.0", "id": [huge()], "result": {}}).to_string();
    let err = parse_message(&text).unwrap_err();
    short(&err.message);
    assert!(
        err.message.contains("integer or a string"),
        "{}",
        err.message
    );
}

#[test]
fn a_huge_result_type_is_quoted_in_short() {
    let raw = RawValue::from_string(json!({"resultType": huge()}).to_string()).unwrap();
    let err = ModernResult::classify(raw).unwrap_err();
    short(&err.message);
}

#[test]
fn a_huge_invalid_uri_template_is_quoted_in_short() {
    let t = ResourceTemplate {
        uri_template: format!("{}{{", huge()),
        name: "t".into(),
        title: None,
        description: None,
        mime_type: None,
    };
    short(&t.variables().unwrap_err());
    short(&t.expand(&serde_json::Map::new()).unwrap_err());
}

/// Many `inputRequests` parse in one pass (each entry once; the state machine caps how
/// many a round may have).
#[test]
fn a_hundred_thousand_input_requests_parse() {
    let requests: serde_json::Map<String, serde_json::Value> = (0..100_000)
        .map(|i| (format!("r{i}"), json!({"method": "roots/list"})))
        .collect();
    let raw = RawValue::from_string(
        json!({"resultType": "input_required", "inputRequests": requests}).to_string(),
    )
    .unwrap();
    match ModernResult::classify(raw).unwrap() {
        ModernResult::InputRequired(r) => {
            assert_eq!(r.input_requests.map(|m| m.len()), Some(100_000))
        }
        ModernResult::Complete(_) | ModernResult::Task(_) => panic!("not input required"),
    }
}

/// Found by scripts/fuzz: iri-string 0.7.14 panics (slicing inside a character) on a `%`
/// followed by a non-ASCII character, as in `%৽1`. A panic in wasm kills the page; the
/// template is refused in words instead.
#[test]
fn a_percent_before_a_non_ascii_character_is_refused_not_a_panic() {
    for bad in [
        "%\u{9fd}1",
        "a%\u{e9}",
        "%1\u{e9}",
        "{x}%\u{1F600}0",
        "%",
        "%4",
    ] {
        let t = ResourceTemplate {
            uri_template: bad.into(),
            name: "t".into(),
            title: None,
            description: None,
            mime_type: None,
        };
        let err = t.variables().unwrap_err();
        assert!(err.contains("percent"), "{bad:?}: {err}");
        assert!(t.expand(&serde_json::Map::new()).is_err());
    }
}
