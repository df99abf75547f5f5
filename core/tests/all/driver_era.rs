//! The era decision table and the negotiation around it (see `driver::era`).

use mcp_elicit::driver::era::{
    decide, decide_from_http_failure, decide_from_message, discover_request, EraDecision, EraStep,
    Negotiation, ProbeContext, ProtocolChoice, DISCOVER_TIMEOUT_MS,
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
        decide(&ProbeContext::first(V), 202, None, b""),
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
    let mut era = after_a_legacy_verdict(ProtocolChoice::Auto);
    let step = era.on_handshake_failure(DriverError::from_rpc(e));
    assert_eq!(probed_version(&step), Some(V.to_string()), "{step:?}");
    let e = ErrorObject {
        code: -32600,
        message: "x".into(),
        data: None,
    };
    let mut era = after_a_legacy_verdict(ProtocolChoice::Auto);
    let step = era.on_handshake_failure(DriverError::from_rpc(e));
    assert!(
        matches!(step, EraStep::Failed(DriverError::Rpc(_))),
        "{step:?}"
    );
}

#[test]
fn the_whole_answer_decides() {
    let decide = |_: &str, _: &RequestId, status, content_type, body: &[u8]| {
        decide(&ProbeContext::first(V), status, content_type, body)
    };
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
    let after = |error: DriverError| {
        after_a_legacy_verdict(ProtocolChoice::Auto).on_handshake_failure(error)
    };
    assert_eq!(
        probed_version(&after(refusal(&["2026-07-28"]))),
        Some("2026-07-28".to_string())
    );
    assert_eq!(
        after(refusal(&["2030-01-01"])),
        EraStep::Failed(refusal(&["2030-01-01"]))
    );
    assert_eq!(
        after(DriverError::NoResponse),
        EraStep::Failed(DriverError::NoResponse)
    );
}

// The negotiation: what each choice does with each verdict.

const DISCOVERED: &[u8] =
    br#"{"jsonrpc":"2.0","id":0,"result":{"supportedVersions":["2026-07-28"],"capabilities":{}}}"#;
const NAMES_OURS: &[u8] = br#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}"#;

fn negotiation(choice: ProtocolChoice) -> Negotiation {
    Negotiation::new(
        choice,
        Implementation::this_client(),
        ClientCapabilities::for_host(false),
    )
}

/// The version a probe step sends `server/discover` at, if the step is a probe.
fn probed_version(step: &EraStep) -> Option<String> {
    let EraStep::Probe { request, .. } = step else {
        return None;
    };
    assert_eq!(request.header("mcp-method"), Some("server/discover"));
    request.header("mcp-protocol-version").map(str::to_owned)
}

/// A negotiation for `choice` whose first probe met a legacy server (a 404): Auto runs
/// the handshake now.
fn after_a_legacy_verdict(choice: ProtocolChoice) -> Negotiation {
    let mut era = negotiation(choice);
    let first = era.start();
    assert_eq!(probed_version(&first), Some(V.to_string()));
    let step = era.on_probe_answer(404, Some("text/plain"), b"Not Found");
    if choice == ProtocolChoice::Auto {
        assert_eq!(step, EraStep::Handshake);
    }
    era
}

#[test]
fn legacy_only_runs_the_handshake_without_a_probe_and_keeps_its_refusal() {
    let mut era = negotiation(ProtocolChoice::Legacy);
    assert_eq!(era.start(), EraStep::Handshake);
    // Even a refusal naming our modern version: the host asked for the handshake only.
    let refusal = DriverError::UnsupportedVersion {
        message: "x".into(),
        supported: vec![V.into()],
    };
    assert_eq!(
        era.on_handshake_failure(refusal.clone()),
        EraStep::Failed(refusal)
    );
}

#[test]
fn auto_and_modern_probe_first_within_the_timeout() {
    for choice in [ProtocolChoice::Auto, ProtocolChoice::Modern] {
        let mut era = negotiation(choice);
        let step = era.start();
        let EraStep::Probe { timeout_ms, .. } = &step else {
            panic!("{choice:?}: {step:?}")
        };
        assert_eq!(*timeout_ms, DISCOVER_TIMEOUT_MS);
        assert_eq!(probed_version(&step), Some(V.to_string()));
        let step = era.on_probe_answer(200, Some("application/json"), DISCOVERED);
        assert!(
            matches!(step, EraStep::Modern { ref version, .. } if version == V),
            "{choice:?}: {step:?}"
        );
    }
}

#[test]
fn modern_only_refuses_a_legacy_server_in_words() {
    let mut era = negotiation(ProtocolChoice::Modern);
    let _ = era.start();
    let EraStep::Refused(refusal) = era.on_probe_answer(404, None, b"") else {
        panic!()
    };
    assert_eq!(refusal.handshake.as_deref(), Some("2025-11-25"));
    let why = refusal.to_string();
    assert!(
        why.starts_with("The server does not offer protocol version 2026-07-28: "),
        "{why}"
    );
    assert!(why.contains("HTTP status 404"), "{why}");
}

/// What a legacy-only server (the TypeScript SDK's, the Python SDK's) answers a sessionless
/// `server/discover`: the facts say it speaks 2025-11-25, so the page can say so and offer
/// Auto. A discover result or a -32022 naming handshake versions names the newest.
#[test]
fn modern_only_names_the_handshake_version_a_legacy_server_speaks() {
    let refused = |status: u16, body: &[u8]| {
        let mut era = negotiation(ProtocolChoice::Modern);
        let _ = era.start();
        match era.on_probe_answer(status, Some("application/json"), body) {
            EraStep::Refused(refusal) => refusal,
            step => panic!("{status}: {step:?}"),
        }
    };
    let not_initialized = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}"#;
    let refusal = refused(400, not_initialized);
    assert_eq!(refusal.handshake.as_deref(), Some("2025-11-25"));
    assert_eq!(
        refusal.answer.to_string(),
        "the server answered server/discover at 2026-07-28 with: Bad Request: Server not \
         initialized (error -32000)"
    );
    let older = br#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"x","data":{"supported":["2025-03-26","2025-06-18"]}}}"#;
    assert_eq!(refused(400, older).handshake.as_deref(), Some("2025-06-18"));
    let listed = br#"{"jsonrpc":"2.0","id":0,"result":{"supportedVersions":["2025-06-18"],"capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#;
    assert_eq!(
        refused(200, listed).handshake.as_deref(),
        Some("2025-06-18")
    );
    // A 2xx with nothing in it says nothing.
    assert_eq!(refused(202, b"").handshake, None);
}

#[test]
fn a_probe_left_unanswered_is_the_legacy_verdict() {
    let mut era = negotiation(ProtocolChoice::Auto);
    let _ = era.start();
    assert_eq!(era.on_probe_timeout(), EraStep::Handshake);
    let mut era = negotiation(ProtocolChoice::Modern);
    let _ = era.start();
    let EraStep::Refused(refusal) = era.on_probe_timeout() else {
        panic!()
    };
    // No answer says nothing of the era the server speaks.
    assert_eq!(refusal.handshake, None);
    let why = refusal.to_string();
    assert!(
        why.contains("did not answer server/discover within 10 seconds"),
        "{why}"
    );
}

#[test]
fn an_incompatible_server_fails_the_connect_in_either_probing_mode() {
    let body = br#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"x","data":{"supported":["2027-01-01"]}}}"#;
    for choice in [ProtocolChoice::Auto, ProtocolChoice::Modern] {
        let mut era = negotiation(choice);
        let _ = era.start();
        let step = era.on_probe_answer(400, Some("application/json"), body);
        assert!(
            matches!(
                step,
                EraStep::Failed(DriverError::UnsupportedVersion { .. })
            ),
            "{choice:?}: {step:?}"
        );
    }
}

/// A 401 or 403 is the server asking for a credential, not an answer about the era: with
/// a fall-back the handshake would meet the same status and fail with words about the
/// era. The connect fails at once, in words about signing in, whatever the body says.
#[test]
fn an_unauthorized_probe_is_no_verdict_on_the_era() {
    let body = br#"{"error":"invalid_token","error_description":"Authentication required"}"#;
    for status in [401, 403] {
        for choice in [ProtocolChoice::Auto, ProtocolChoice::Modern] {
            let mut era = negotiation(choice);
            let _ = era.start();
            let step = era.on_probe_answer(status, Some("application/json"), body);
            let EraStep::Failed(error) = step else {
                panic!("{status} {choice:?}: {step:?}");
            };
            assert_eq!(
                error,
                DriverError::Http {
                    status,
                    body: String::new()
                }
            );
        }
    }
    let why = DriverError::Http {
        status: 401,
        body: String::new(),
    }
    .to_string();
    assert!(why.contains("sign in") && why.contains("`auth`"), "{why}");
}

#[test]
fn a_refused_handshake_is_rechecked_once_and_kept_unless_the_server_is_modern() {
    let refusal = DriverError::UnsupportedVersion {
        message: "Unsupported protocol version".into(),
        supported: vec![V.into()],
    };
    // The recheck finds a modern server.
    let mut era = after_a_legacy_verdict(ProtocolChoice::Auto);
    let step = era.on_handshake_failure(refusal.clone());
    assert_eq!(probed_version(&step), Some(V.to_string()));
    let step = era.on_probe_answer(200, Some("application/json"), DISCOVERED);
    assert!(matches!(step, EraStep::Modern { .. }), "{step:?}");
    // Anything else keeps the handshake's refusal: a legacy answer, another -32022 naming
    // our version (no third probe), no answer in time.
    for answer in [(404, &b""[..]), (400, NAMES_OURS)] {
        let mut era = after_a_legacy_verdict(ProtocolChoice::Auto);
        let _ = era.on_handshake_failure(refusal.clone());
        let step = era.on_probe_answer(answer.0, Some("application/json"), answer.1);
        assert_eq!(step, EraStep::Failed(refusal.clone()), "{answer:?}");
    }
    let mut era = after_a_legacy_verdict(ProtocolChoice::Auto);
    let _ = era.on_handshake_failure(refusal.clone());
    assert_eq!(era.on_probe_timeout(), EraStep::Failed(refusal.clone()));
    // One recheck only: the handshake is not run again, so nothing more can be reported.
    assert!(matches!(
        era.on_handshake_failure(refusal.clone()),
        EraStep::Failed(DriverError::Usage(_))
    ));
}

#[test]
fn a_negotiation_ends_within_two_probes_and_one_handshake() {
    // The longest path: a -32022 naming our version (reprobe), a legacy answer to the
    // reprobe (handshake), a refused handshake naming our version (recheck).
    let refusal = DriverError::UnsupportedVersion {
        message: "x".into(),
        supported: vec![V.into()],
    };
    let mut era = negotiation(ProtocolChoice::Auto);
    let mut step = era.start();
    let (mut probes, mut handshakes) = (0, 0);
    loop {
        step = match step {
            EraStep::Probe { .. } => {
                probes += 1;
                match probes {
                    1 => era.on_probe_answer(400, Some("application/json"), NAMES_OURS),
                    _ => era.on_probe_answer(404, None, b""),
                }
            }
            EraStep::Handshake => {
                handshakes += 1;
                era.on_handshake_failure(refusal.clone())
            }
            done => break assert_eq!(done, EraStep::Failed(refusal.clone())),
        };
        assert!(
            probes <= 3 && handshakes <= 1,
            "{probes} probes, {handshakes} handshakes"
        );
    }
    assert_eq!((probes, handshakes), (3, 1));
}

#[test]
fn steps_out_of_order_fail_in_words() {
    let mut era = negotiation(ProtocolChoice::Auto);
    assert!(matches!(
        era.on_probe_answer(200, None, b""),
        EraStep::Failed(DriverError::Usage(_))
    ));
    let mut era = negotiation(ProtocolChoice::Legacy);
    let _ = era.start();
    assert!(matches!(
        era.start(),
        EraStep::Failed(DriverError::Usage(_))
    ));
}
