//! Auto mode's decision table (see `driver::era`).

use mcp_elicit::driver::era::{
    after_handshake_error, after_handshake_failure, decide_from_http_failure, decide_from_message,
    decide_without_answer, discover_request, EraDecision,
};
use mcp_elicit::driver::DriverError;
use mcp_elicit::wire::{ClientCapabilities, ErrorObject, Implementation, RequestId};
use serde_json::json;

const V: &str = "2026-07-28";

fn id() -> RequestId {
    RequestId::Number(0)
}

#[test]
fn the_probe_is_a_modern_request() {
    let req = discover_request(
        &id(),
        V,
        &Implementation::this_client(),
        &ClientCapabilities::for_host(false),
    )
    .unwrap();
    assert_eq!(req.header("mcp-protocol-version"), Some(V));
    assert_eq!(req.header("mcp-method"), Some("server/discover"));
    let b: serde_json::Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
    assert_eq!(b["method"], "server/discover");
    assert_eq!(
        b["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        V
    );
}

#[test]
fn a_discover_result_with_our_version_is_modern() {
    let text = r#"{"jsonrpc":"2.0","id":0,"result":{"supportedVersions":["2025-11-25","2026-07-28"],"capabilities":{},"cacheScope":"public","ttlMs":0,"resultType":"complete"}}"#;
    let Some(EraDecision::Modern { version, discover }) = decide_from_message(V, &id(), text)
    else {
        panic!()
    };
    assert_eq!(version, V);
    assert_eq!(discover.supported_versions.len(), 2);
}

#[test]
fn a_discover_result_without_a_modern_version_or_malformed_is_legacy() {
    let text = r#"{"jsonrpc":"2.0","id":0,"result":{"supportedVersions":["2025-11-25"],"capabilities":{}}}"#;
    assert!(matches!(
        decide_from_message(V, &id(), text),
        Some(EraDecision::Legacy { .. })
    ));
    let text = r#"{"jsonrpc":"2.0","id":0,"result":{"something":"else"}}"#;
    assert!(matches!(
        decide_from_message(V, &id(), text),
        Some(EraDecision::Legacy { .. })
    ));
}

#[test]
fn notifications_and_other_ids_do_not_decide() {
    assert!(decide_from_message(
        V,
        &id(),
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#
    )
    .is_none());
    assert!(decide_from_message(V, &id(), r#"{"jsonrpc":"2.0","id":9,"result":{}}"#).is_none());
}

#[test]
fn other_errors_fall_back_but_a_disjoint_modern_only_32022_does_not() {
    for code in [-32601, -32600, -32602, -32603, -32020, -32021] {
        let text = format!(r#"{{"jsonrpc":"2.0","id":0,"error":{{"code":{code},"message":"m"}}}}"#);
        let d = decide_from_message(V, &id(), &text).unwrap();
        assert!(matches!(d, EraDecision::Legacy { .. }), "{code}: {d:?}");
    }
    let text = r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2027-01-01"],"requested":"2026-07-28"}}}"#;
    let Some(EraDecision::Incompatible(e)) = decide_from_message(V, &id(), text) else {
        panic!()
    };
    assert!(matches!(e, DriverError::UnsupportedVersion { .. }));
    assert!(e.to_string().contains("2027-01-01"));
    // -32022 that also names handshake versions, or no usable list: legacy.
    let text = r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"x","data":{"supported":["2025-11-25"]}}}"#;
    assert!(matches!(
        decide_from_message(V, &id(), text),
        Some(EraDecision::Legacy { .. })
    ));
    let text = r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"x"}}"#;
    assert!(matches!(
        decide_from_message(V, &id(), text),
        Some(EraDecision::Legacy { .. })
    ));
}

#[test]
fn a_32022_naming_our_version_after_probing_another_reprobes() {
    let text = r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"x","data":{"supported":["2026-07-28"]}}}"#;
    assert_eq!(
        decide_from_message("2030-01-01", &id(), text),
        Some(EraDecision::Reprobe { version: V.into() })
    );
}

#[test]
fn http_failures_fall_back_unless_the_body_says_otherwise() {
    for status in [400, 404, 405, 500] {
        let d = decide_from_http_failure(V, status, Some("text/plain"), b"Not Found");
        assert!(matches!(d, EraDecision::Legacy { .. }), "{status}");
    }
    let body = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"x","data":{"supported":["2027-01-01"]}}}"#;
    assert!(matches!(
        decide_from_http_failure(V, 400, Some("application/json"), body),
        EraDecision::Incompatible(_)
    ));
    assert!(matches!(
        decide_without_answer(),
        EraDecision::Legacy { .. }
    ));
}

#[test]
fn a_handshake_32022_naming_our_modern_version_reprobes() {
    let e = ErrorObject {
        code: -32022,
        message: "x".into(),
        data: Some(json!({"supported":["2026-07-28"]})),
    };
    assert_eq!(after_handshake_error(&e), Some(V.to_string()));
    let e = ErrorObject {
        code: -32600,
        message: "x".into(),
        data: None,
    };
    assert_eq!(after_handshake_error(&e), None);
}

#[test]
fn the_whole_answer_decides() {
    use mcp_elicit::driver::era::decide;
    let ok = br#"{"jsonrpc":"2.0","id":0,"result":{"supportedVersions":["2026-07-28"],"capabilities":{}}}"#;
    assert!(matches!(
        decide(V, &id(), 200, Some("application/json"), ok),
        EraDecision::Modern { .. }
    ));
    let sse = b"event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\r\n\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"supportedVersions\":[\"2026-07-28\"]}}\r\n\r\n";
    assert!(matches!(
        decide(V, &id(), 200, Some("text/event-stream"), sse),
        EraDecision::Modern { .. }
    ));
    assert!(matches!(
        decide(V, &id(), 200, Some("text/html"), b"<html>"),
        EraDecision::Legacy { .. }
    ));
    assert!(matches!(
        decide(V, &id(), 202, None, b""),
        EraDecision::Legacy { .. }
    ));
    assert!(matches!(
        decide(V, &id(), 405, None, b""),
        EraDecision::Legacy { .. }
    ));
}

#[test]
fn a_classified_handshake_refusal_naming_the_modern_version_asks_for_a_reprobe() {
    let refusal = |supported: &[&str]| DriverError::UnsupportedVersion {
        message: "Unsupported protocol version".into(),
        supported: supported.iter().map(|s| s.to_string()).collect(),
    };
    assert_eq!(
        after_handshake_failure(&refusal(&["2026-07-28"])),
        Some("2026-07-28".to_string())
    );
    assert_eq!(after_handshake_failure(&refusal(&["2030-01-01"])), None);
    assert_eq!(after_handshake_failure(&DriverError::NoResponse), None);
}
