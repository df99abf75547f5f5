//! Auto mode: decide between the modern and the legacy era the way the SDK's
//! auto-negotiating client does (`mcp/client/_probe.py`, `negotiate_auto`).
//!
//! The client probes `server/discover` at the newest modern version (a
//! modern request: `_meta` envelope, `MCP-Protocol-Version` and `Mcp-Method`
//! headers). The policy is a *denylist*: anything that is not positive
//! evidence of a modern server falls back to the legacy handshake, except
//! -32022 (unsupported version) whose `data.supported` lists only modern
//! versions none of which we speak. That is a real incompatibility, and
//! falling back would only fail later with a worse message. In detail:
//!
//! | first answer                                              | decision |
//! |-----------------------------------------------------------|----------|
//! | a `DiscoverResult` naming a modern version we speak        | Modern   |
//! | a `DiscoverResult` naming none / an unparseable result     | Legacy   |
//! | -32022 naming a modern version we speak (the probed one too)  | Reprobe at it (once) |
//! | -32022 naming only modern versions we don't speak          | Incompatible |
//! | -32022 naming handshake versions, or without a usable list | Legacy   |
//! | any other JSON-RPC error (-32601, -32600, -32602, ...)     | Legacy   |
//! | an HTTP error status without a JSON-RPC body (404, 400, 405, 500, ...) | Legacy |
//! | a 2xx without an answer (e.g. 202)                         | Legacy   |
//!
//! The reprobe is made once (SEP-2575: retry with a version from `supported`). A -32022
//! naming the probed version is a server contradicting itself, often for a moment (a
//! rolling deploy, a replica behind a balancer); the conformance suite's
//! `request-metadata` scenario answers a client's first request so. The answer to the
//! reprobe is decided by [`decide_reprobed`], which never asks for another: a -32022
//! there decides by its list as if no version in it were ours to retry (only modern
//! versions: Incompatible; handshake versions too, or none: Legacy).
//!
//! A network failure (no HTTP answer at all) is *not* an era verdict: the
//! caller reports it and does not fall back, as the SDK does.
//!
//! If the legacy `initialize` is itself answered with -32022 naming a modern
//! version we speak, the server is modern after all (the SDK re-probes once):
//! see [`after_handshake_error`].

use super::http::{messages_from_body, names, HttpRequest};
use super::DriverError;
use crate::wire::jsonrpc::request_body;
use crate::wire::meta::{HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS};
use crate::wire::{
    codes, from_raw, parse_message, ClientCapabilities, DiscoverResult, ErrorObject,
    Implementation, Incoming, RequestId, RequestMeta,
};

/// The probe's method.
pub const DISCOVER: &str = "server/discover";

/// Which era to use, and why.
#[derive(Debug, Clone, PartialEq)]
pub enum EraDecision {
    /// Use the modern era at `version`.
    Modern {
        version: String,
        discover: DiscoverResult,
    },
    /// Use the legacy handshake. `reason` says what the server answered, for the status line.
    Legacy { reason: String },
    /// Probe once more at `version` (a mutual modern version the server named), and
    /// decide that answer with [`decide_reprobed`].
    Reprobe { version: String },
    /// The server speaks only modern versions this client does not.
    Incompatible(DriverError),
}

/// The `server/discover` probe at `version`.
pub fn discover_request(
    id: &RequestId,
    version: &str,
    client_info: &Implementation,
    capabilities: &ClientCapabilities,
) -> Result<HttpRequest, DriverError> {
    #[derive(serde::Serialize)]
    struct Params {
        #[serde(rename = "_meta")]
        meta: RequestMeta,
    }
    let params = Params {
        meta: RequestMeta {
            protocol_version: version.to_string(),
            client_info: client_info.clone(),
            client_capabilities: capabilities.clone(),
        },
    };
    let body = request_body(id, DISCOVER, Some(&params))?;
    Ok(HttpRequest::post(body)
        .with(names::PROTOCOL_VERSION, version)
        .with(names::METHOD, DISCOVER))
}

/// The mutual modern version in a -32022's `data.supported`, newest first.
fn mutual_modern(supported: &[String]) -> Option<&'static str> {
    MODERN_PROTOCOL_VERSIONS
        .iter()
        .rev()
        .find(|v| supported.iter().any(|s| s == *v))
        .copied()
}

fn supported_list(error: &ErrorObject) -> Option<Vec<String>> {
    let supported = error.data.as_ref()?.get("supported")?;
    serde_json::from_value(supported.clone()).ok()
}

/// Which probe an answer is to: the first may ask for a reprobe, the reprobe may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Attempt {
    First,
    Reprobe,
}

/// Decides from a JSON-RPC error answering the probe sent at `probed`.
pub fn decide_from_error(probed: &str, error: ErrorObject) -> EraDecision {
    decide_error_at(Attempt::First, probed, error)
}

fn decide_error_at(attempt: Attempt, probed: &str, error: ErrorObject) -> EraDecision {
    if error.code == codes::UNSUPPORTED_PROTOCOL_VERSION {
        let supported = supported_list(&error);
        if let Some(v) = supported.as_deref().and_then(mutual_modern) {
            if attempt == Attempt::First {
                return EraDecision::Reprobe {
                    version: v.to_string(),
                };
            }
        }
        if let Some(list) = &supported {
            if !list
                .iter()
                .any(|v| HANDSHAKE_PROTOCOL_VERSIONS.contains(&v.as_str()))
            {
                return EraDecision::Incompatible(DriverError::from_rpc(error));
            }
        }
    }
    EraDecision::Legacy {
        reason: format!(
            "the server answered server/discover at {probed} with: {} (error {})",
            error.message, error.code
        ),
    }
}

/// Decides from one message of the probe's response. `None`: not the
/// answer (a notification, say); keep reading.
pub fn decide_from_message(probed: &str, id: &RequestId, text: &str) -> Option<EraDecision> {
    decide_message_at(Attempt::First, probed, id, text)
}

fn decide_message_at(
    attempt: Attempt,
    probed: &str,
    id: &RequestId,
    text: &str,
) -> Option<EraDecision> {
    match parse_message(text) {
        Ok(Incoming::Response { id: rid, result }) if &rid == id => Some(
            match from_raw::<DiscoverResult>(&result, "discover result") {
                Ok(discover) => match mutual_modern(&discover.supported_versions) {
                    Some(v) => EraDecision::Modern {
                        version: v.to_string(),
                        discover,
                    },
                    None => EraDecision::Legacy {
                        reason: format!(
                            "the server supports only {}",
                            discover.supported_versions.join(", ")
                        ),
                    },
                },
                Err(e) => EraDecision::Legacy {
                    reason: e.to_string(),
                },
            },
        ),
        Ok(Incoming::Error { id: rid, error }) if rid.is_none() || rid.as_ref() == Some(id) => {
            Some(decide_error_at(attempt, probed, error))
        }
        Ok(_) => None,
        Err(e) => Some(EraDecision::Legacy {
            reason: e.to_string(),
        }),
    }
}

/// Decides from a non-2xx HTTP answer to the probe: a JSON-RPC error in the
/// body decides as [`decide_from_error`]; a bare status falls back.
pub fn decide_from_http_failure(
    probed: &str,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> EraDecision {
    decide_http_failure_at(Attempt::First, probed, status, content_type, body)
}

fn decide_http_failure_at(
    attempt: Attempt,
    probed: &str,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> EraDecision {
    if let Ok(texts) = messages_from_body(content_type, body) {
        for text in texts {
            if let Ok(Incoming::Error { error, .. }) = parse_message(&text) {
                return decide_error_at(attempt, probed, error);
            }
        }
    }
    EraDecision::Legacy {
        reason: format!("the server answered server/discover with HTTP status {status}"),
    }
}

/// The probe's response ended (2xx) without an answer.
pub fn decide_without_answer() -> EraDecision {
    EraDecision::Legacy {
        reason: "the server did not answer server/discover".into(),
    }
}

/// The legacy `initialize` (the fallback) failed with `error`: returns the
/// version to re-probe at when that error is itself modern evidence
/// (-32022 naming a modern version we speak), as the SDK does once.
pub fn after_handshake_error(error: &ErrorObject) -> Option<String> {
    if error.code != codes::UNSUPPORTED_PROTOCOL_VERSION {
        return None;
    }
    supported_list(error)
        .as_deref()
        .and_then(mutual_modern)
        .map(str::to_string)
}

/// [`after_handshake_error`] for a handshake failure the session machine already
/// classified (it keeps a -32022's `supported` list, not the raw error).
pub fn after_handshake_failure(error: &super::DriverError) -> Option<String> {
    match error {
        super::DriverError::UnsupportedVersion { supported, .. } => {
            mutual_modern(supported).map(str::to_string)
        }
        _ => None,
    }
}

/// The whole decision from the probe's complete HTTP answer: status,
/// `Content-Type` and body. This is the one call a client needs when it reads
/// the probe's body in full (it is small).
pub fn decide(
    probed: &str,
    id: &RequestId,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> EraDecision {
    decide_at(Attempt::First, probed, id, status, content_type, body)
}

/// [`decide`] for the answer to the reprobe a first answer asked for
/// ([`EraDecision::Reprobe`]): the same table, except that it never asks for another
/// reprobe (see the module docs).
pub fn decide_reprobed(
    probed: &str,
    id: &RequestId,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> EraDecision {
    decide_at(Attempt::Reprobe, probed, id, status, content_type, body)
}

fn decide_at(
    attempt: Attempt,
    probed: &str,
    id: &RequestId,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> EraDecision {
    if !(200..300).contains(&status) {
        return decide_http_failure_at(attempt, probed, status, content_type, body);
    }
    match messages_from_body(content_type, body) {
        Ok(texts) => texts
            .iter()
            .find_map(|t| decide_message_at(attempt, probed, id, t))
            .unwrap_or_else(decide_without_answer),
        Err(e) => EraDecision::Legacy {
            reason: e.to_string(),
        },
    }
}
