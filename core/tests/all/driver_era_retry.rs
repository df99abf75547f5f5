//! SEP-2575: a -32022 answer to the probe whose `supported` names the version the client
//! probed (and speaks) is retried once at that version, not taken as a refusal. The
//! official conformance suite's `request-metadata` scenario answers the client's first
//! request so and expects the retry.

use mcp_elicit::driver::era::{self, decide_from_message, EraDecision, ProbeContext};
use mcp_elicit::wire::RequestId;

const V: &str = "2026-07-28";

fn id() -> RequestId {
    RequestId::Number(0)
}

/// The verdict on the answer to the first probe, sent at `probed`.
fn decide(probed: &str, _: &RequestId, status: u16, ct: Option<&str>, body: &[u8]) -> EraDecision {
    era::decide(&ProbeContext::first(probed), status, ct, body)
}

/// The verdict on the answer to the reprobe, sent at `probed`.
fn decide_reprobed(
    probed: &str,
    _: &RequestId,
    status: u16,
    ct: Option<&str>,
    body: &[u8],
) -> EraDecision {
    era::decide(&ProbeContext::reprobe(probed), status, ct, body)
}

/// The conformance scenario's answer: HTTP 400 with -32022 naming only the probed version.
const REFUSAL: &[u8] = br#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}"#;

#[test]
fn a_32022_naming_the_probed_version_is_retried_at_it() {
    assert_eq!(
        decide(V, &id(), 400, Some("application/json"), REFUSAL),
        EraDecision::Reprobe { version: V.into() }
    );
    // The same in a 200 / JSON-RPC error message, and when the list also names handshake
    // versions (the modern version is preferred: it is what we probed and the server
    // says it speaks it).
    let text = std::str::from_utf8(REFUSAL).unwrap();
    assert_eq!(
        decide_from_message(V, &id(), text),
        Some(EraDecision::Reprobe { version: V.into() })
    );
    let both = r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"x","data":{"supported":["2025-11-25","2026-07-28"]}}}"#;
    assert_eq!(
        decide_from_message(V, &id(), both),
        Some(EraDecision::Reprobe { version: V.into() })
    );
}

#[test]
fn the_answer_to_the_reprobe_never_asks_for_another() {
    use mcp_elicit::driver::DriverError;
    // Refused again: the refusal, in words, naming what the server says it supports.
    let EraDecision::Incompatible(e) =
        decide_reprobed(V, &id(), 400, Some("application/json"), REFUSAL)
    else {
        panic!("a second refusal is final")
    };
    assert!(matches!(e, DriverError::UnsupportedVersion { .. }));
    assert!(e.to_string().contains("2026-07-28"), "{e}");
    // Refused again by a server that also names handshake versions: the handshake.
    let both = br#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"x","data":{"supported":["2025-11-25","2026-07-28"]}}}"#;
    assert!(matches!(
        decide_reprobed(V, &id(), 400, Some("application/json"), both),
        EraDecision::Legacy { .. }
    ));
    // A version other than the probed one is not chased either.
    let other = br#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"x","data":{"supported":["2026-07-28"]}}}"#;
    assert!(matches!(
        decide_reprobed("2030-01-01", &id(), 400, Some("application/json"), other),
        EraDecision::Incompatible(_)
    ));
    // The conformance scenario's second answer: a discover result.
    let ok = br#"{"jsonrpc":"2.0","id":0,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"serverInfo":{"name":"test","version":"1.0"}}}"#;
    assert!(matches!(
        decide_reprobed(V, &id(), 200, Some("application/json"), ok),
        EraDecision::Modern { ref version, .. } if version == V
    ));
}
