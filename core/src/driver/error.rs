//! Why a call or a session failed, said in words a user can act on.

use std::fmt;

use serde_json::Value;

use crate::sse::SseError;
use crate::wire::{codes, ErrorObject, UrlParams, WireError};

/// A failure the drivers report. `Display` is the sentence to show.
#[derive(Debug, Clone, PartialEq)]
pub enum DriverError {
    /// Any other JSON-RPC error the server answered with.
    Rpc(ErrorObject),
    /// -32021: the server needs a capability this client did not declare.
    MissingCapability { message: String, required: Value },
    /// -32022: the server does not serve our protocol version.
    UnsupportedVersion {
        message: String,
        supported: Vec<String>,
    },
    /// -32020: the server says our headers disagree with the body. A `tools/call`
    /// recovers once per round: [Header mismatch](super::modern#header-mismatch).
    HeaderMismatch { message: String },
    /// -32042 (legacy): URL-mode elicitations must be completed, then the call retried.
    UrlElicitationRequired {
        message: String,
        /// The entries of `data.elicitations` that are valid URL-mode params
        /// (`elicitationId` may be absent: then it is empty).
        elicitations: Vec<UrlParams>,
        /// Entries that were not (skipped, so one bad entry does not hide the rest).
        unusable: usize,
    },
    /// The server asked for input more rounds than allowed.
    RoundsExceeded { max_rounds: u32 },
    /// The server asked for an LLM completion and the host has no sampling handler.
    SamplingRefused { key: String },
    /// The server asked for something this client cannot provide.
    UnsupportedInput { key: String, method: String },
    /// A non-2xx HTTP status without a JSON-RPC error in the body.
    Http { status: u16, body: String },
    /// Legacy: the server no longer knows our session (HTTP 404).
    SessionExpired,
    /// The response ended without answering our request.
    NoResponse,
    /// The server sent a body or a message that could not be read as
    /// JSON-RPC (not JSON, cut off, an HTML page from a proxy, ...).
    Wire(WireError),
    /// The server answered our request with a result this client cannot use
    /// (malformed, of an unknown `resultType`, or a protocol version it cannot
    /// speak): a readable answer, so sending the request again would not help.
    BadResult(WireError),
    /// The server's event stream broke.
    Sse(SseError),
    /// The caller used the machine out of order (a bug in the IO layer).
    Usage(String),
}

impl DriverError {
    /// Maps a JSON-RPC error to the specific variant its code stands for.
    pub fn from_rpc(error: ErrorObject) -> Self {
        match error.code {
            codes::MISSING_REQUIRED_CLIENT_CAPABILITY => DriverError::MissingCapability {
                required: error
                    .data
                    .as_ref()
                    .and_then(|d| d.get("requiredCapabilities"))
                    .cloned()
                    .unwrap_or(Value::Null),
                message: error.message,
            },
            codes::UNSUPPORTED_PROTOCOL_VERSION => DriverError::UnsupportedVersion {
                supported: error
                    .data
                    .as_ref()
                    .and_then(|d| d.get("supported"))
                    .and_then(|s| serde_json::from_value(s.clone()).ok())
                    .unwrap_or_default(),
                message: error.message,
            },
            codes::HEADER_MISMATCH => DriverError::HeaderMismatch {
                message: error.message,
            },
            codes::URL_ELICITATION_REQUIRED => {
                let (elicitations, unusable) =
                    url_elicitations(error.data.as_ref().and_then(|d| d.get("elicitations")));
                DriverError::UrlElicitationRequired {
                    message: error.message,
                    elicitations,
                    unusable,
                }
            }
            _ => DriverError::Rpc(error),
        }
    }

    /// Whether the request that failed so may simply be sent again, unchanged
    /// (what that keeps of a modern call: [Resending](super::modern#resending)).
    /// True for accidents on the way, which are not the server's verdict on the
    /// request:
    /// - [`NoResponse`](Self::NoResponse): the body ended without an answer;
    /// - [`Sse`](Self::Sse)`(`[`Truncated`](SseError::Truncated)`)`: the event
    ///   stream was cut in the middle of an event;
    /// - [`Wire`](Self::Wire): a body or message that was not readable
    ///   JSON-RPC (a cut JSON body, a proxy's HTML page);
    /// - [`Http`](Self::Http) (a status with no JSON-RPC error in the body)
    ///   with 408, 425, 429, or any 5xx but 501 and 505: timeouts, rate
    ///   limits, overload, gateways.
    ///
    /// False for everything else: a JSON-RPC error the server sent (whatever
    /// the HTTP status it came with), other statuses (4xx verdicts, 501/505,
    /// which say the server never will), an expired session (a new one is
    /// needed first), an event line beyond the client's limit and a
    /// [`BadResult`](Self::BadResult) (the same answer would come back), and
    /// the client's own refusals and bounds.
    ///
    /// Resending may run the request twice on the server if it acted before
    /// the failure; whether to resend, and when, is the caller's choice.
    pub fn is_resendable(&self) -> bool {
        match self {
            DriverError::NoResponse | DriverError::Wire(_) => true,
            DriverError::Sse(e) => matches!(e, SseError::Truncated),
            DriverError::Http { status, .. } => {
                matches!(status, 408 | 425 | 429)
                    || (matches!(status, 500..=599) && !matches!(status, 501 | 505))
            }
            DriverError::Rpc(_)
            | DriverError::MissingCapability { .. }
            | DriverError::UnsupportedVersion { .. }
            | DriverError::HeaderMismatch { .. }
            | DriverError::UrlElicitationRequired { .. }
            | DriverError::RoundsExceeded { .. }
            | DriverError::SamplingRefused { .. }
            | DriverError::UnsupportedInput { .. }
            | DriverError::SessionExpired
            | DriverError::BadResult(_)
            | DriverError::Usage(_) => false,
        }
    }

    /// The JSON-RPC code behind this error, when there is one.
    pub fn code(&self) -> Option<i64> {
        match self {
            DriverError::Rpc(e) => Some(e.code),
            DriverError::MissingCapability { .. } => {
                Some(codes::MISSING_REQUIRED_CLIENT_CAPABILITY)
            }
            DriverError::UnsupportedVersion { .. } => Some(codes::UNSUPPORTED_PROTOCOL_VERSION),
            DriverError::HeaderMismatch { .. } => Some(codes::HEADER_MISMATCH),
            DriverError::UrlElicitationRequired { .. } => Some(codes::URL_ELICITATION_REQUIRED),
            _ => None,
        }
    }
}

impl fmt::Display for DriverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriverError::Rpc(e) => write!(f, "The server answered with an error: {e}."),
            DriverError::MissingCapability { message, required } => write!(
                f,
                "The server needs a client capability this client did not declare ({}): {message}.",
                describe_capabilities(required).unwrap_or_else(|| "not named".to_owned())
            ),
            DriverError::UnsupportedVersion { message, supported } => write!(
                f,
                "The server does not support this protocol version ({message}); it supports: {}.",
                if supported.is_empty() { "nothing it named".to_string() } else { supported.join(", ") }
            ),
            DriverError::HeaderMismatch { message } => write!(
                f,
                "The server says the request's headers do not match its body: {message}."
            ),
            DriverError::UrlElicitationRequired {
                message,
                elicitations,
                unusable,
            } => {
                let message = for_a_person(message, codes::URL_ELICITATION_REQUIRED);
                match (elicitations.len(), *unusable) {
                    (0, 0) => write!(
                        f,
                        "The server needs a web page completed before this call can proceed, but named none: {message}"
                    ),
                    (0, bad) => write!(
                        f,
                        "The server needs a web page completed before this call can proceed, but none of the {bad} it named could be read: {message}"
                    ),
                    (n, 0) => write!(
                        f,
                        "The server needs {} completed before this call can proceed: {message}",
                        web_pages(n)
                    ),
                    (n, bad) => write!(
                        f,
                        "The server needs {} completed before this call can proceed ({bad} more could not be read and are left out): {message}",
                        web_pages(n)
                    ),
                }
            }
            DriverError::RoundsExceeded { max_rounds } => write!(
                f,
                "The server kept asking for more input after {max_rounds} rounds; the call was stopped."
            ),
            DriverError::SamplingRefused { key } => write!(
                f,
                "The server asked for an LLM completion (sampling, request {key:?}), which this client does not provide; the call cannot continue."
            ),
            DriverError::UnsupportedInput { key, method } => write!(
                f,
                "The server asked for {method:?} (request {key:?}), which this client does not support; the call cannot continue."
            ),
            DriverError::Http { status: 401, .. } => f.write_str(
                "The server needs you to sign in (HTTP 401), and this client has no way to: \
                 give it a credential (the `headers` option) or let the person sign in (the \
                 `auth` option).",
            ),
            DriverError::Http { status: 403, .. } => f.write_str(
                "The server refused access (HTTP 403): the credential this client has does not \
                 allow this request.",
            ),
            DriverError::Http { status, body } if body.is_empty() => {
                write!(f, "The server answered with HTTP status {status}.")
            }
            DriverError::Http { status, body } => {
                write!(f, "The server answered with HTTP status {status}: {body}")
            }
            DriverError::SessionExpired => f.write_str(
                "The server no longer knows this session (HTTP 404); a new session is needed.",
            ),
            DriverError::NoResponse => {
                f.write_str("The server closed the response without answering the request.")
            }
            DriverError::Wire(e) | DriverError::BadResult(e) => write!(f, "{e}."),
            DriverError::Sse(e) => write!(f, "{e}."),
            DriverError::Usage(m) => write!(f, "Internal client error: {m}."),
        }
    }
}

/// "1 web page", "3 web pages".
fn web_pages(n: usize) -> String {
    if n == 1 {
        "1 web page".to_owned()
    } else {
        format!("{n} web pages")
    }
}

/// A server's error message as the end of one of our sentences: without the prefix the
/// TypeScript SDK's `McpError` puts before its text ("MCP error -32042: "), and ending in
/// exactly one full stop (none added when it ends its own sentence).
fn for_a_person(message: &str, code: i64) -> String {
    server_reason(message, code).unwrap_or_else(|| "it gave no reason.".to_owned())
}

/// [`for_a_person`]'s server text (the UI words the error in its own language around it),
/// or `None` when the server gave no reason.
pub fn server_reason(message: &str, code: i64) -> Option<String> {
    let prefix = format!("MCP error {code}:");
    let text = message.trim();
    let text = text.strip_prefix(prefix.as_str()).unwrap_or(text).trim();
    let text = text.trim_end_matches('.');
    if text.is_empty() {
        None
    } else if text.ends_with(['!', '?', '\u{2026}']) {
        Some(text.to_owned())
    } else {
        Some(format!("{text}."))
    }
}

/// The usable URL-mode params of -32042's `data.elicitations`, read entry by
/// entry, and how many entries were not usable. Read as the SDK's
/// `ElicitationRequiredErrorData` would: `mode` defaults to `"url"` and
/// `elicitationId` may be absent or `null` (2026-07-28 dropped it). A list
/// that is missing or not an array names no page at all: `(vec![], 0)`.
fn url_elicitations(list: Option<&Value>) -> (Vec<UrlParams>, usize) {
    let Some(entries) = list.and_then(Value::as_array) else {
        return (Vec::new(), 0);
    };
    let mut usable = Vec::new();
    let mut unusable = 0usize;
    for entry in entries {
        let mut entry = entry.clone();
        if let Some(obj) = entry.as_object_mut() {
            obj.entry("mode").or_insert_with(|| Value::from("url"));
            if obj.get("elicitationId").is_some_and(Value::is_null) {
                obj.remove("elicitationId");
            }
        }
        match serde_json::from_value::<UrlParams>(entry) {
            Ok(params) => usable.push(params),
            Err(_) => unusable = unusable.saturating_add(1),
        }
    }
    (usable, unusable)
}

/// `{"elicitation":{"form":{}},"roots":{}}` as `elicitation (form), roots` (`None` when
/// the server named none).
pub fn describe_capabilities(required: &Value) -> Option<String> {
    match required.as_object() {
        Some(caps) if !caps.is_empty() => caps
            .iter()
            .map(|(name, sub)| match sub.as_object() {
                Some(parts) if !parts.is_empty() => {
                    let parts: Vec<&str> = parts.keys().map(String::as_str).collect();
                    format!("{name} ({})", parts.join(", "))
                }
                _ => name.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
            .into(),
        _ => None,
    }
}

impl std::error::Error for DriverError {}

impl From<WireError> for DriverError {
    fn from(e: WireError) -> Self {
        DriverError::Wire(e)
    }
}

impl From<SseError> for DriverError {
    fn from(e: SseError) -> Self {
        DriverError::Sse(e)
    }
}
