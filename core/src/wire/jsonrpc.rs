//! JSON-RPC 2.0 envelopes and a classifier for anything a server sends.
//!
//! Every incoming message is one of four shapes: a response to one of our
//! requests, an error response, a server-to-client request, or a
//! notification. [`parse_message`] decides which from the fields present
//! (never from the method name), so the drivers can route by kind first and
//! by method second. `params` and `result` stay raw ([`RawValue`]) until the
//! driver knows what they are: that keeps `requestState` byte-exact and lets
//! a malformed payload be reported in words at the place it is used.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt;

/// The only JSON-RPC version MCP speaks.
pub const JSONRPC_VERSION: &str = "2.0";

/// The most characters of a server's text quoted in a [`WireError`]: 60. Enough to recognise a
/// method name, version or id; a message quoting a server's whole 16 MiB value would be
/// copied into every error shown (and logged). Longer text is cut with `…`.
pub const MAX_QUOTED_CHARS: usize = 60;

/// `text` quoted for a message (Rust string syntax, so control characters show as escapes),
/// cut to [`MAX_QUOTED_CHARS`] characters.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}…", text.get(..cut).unwrap_or("")),
    }
}

/// A server's JSON value for a message: its JSON text, cut as [`quote`] cuts.
fn show_json(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        None => text,
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or("")),
    }
}

/// Error codes the client must recognise (`mcp_types/jsonrpc.py`).
pub mod codes {
    /// Invalid JSON was received.
    pub const PARSE_ERROR: i64 = -32700;
    /// The message is not a valid request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// The method does not exist (also what we answer to server requests we don't serve).
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid method parameters (e.g. a missing `_meta` envelope key).
    pub const INVALID_PARAMS: i64 = -32602;
    /// Internal error on the receiver.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// 2026-07-28: HTTP headers disagree with the body.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// 2026-07-28: the server needs a client capability the request did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    /// 2026-07-28: the request's protocol version is not served.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
    /// 2025-11-25: URL-mode elicitations must complete before the request can proceed.
    pub const URL_ELICITATION_REQUIRED: i64 = -32042;
}

/// A JSON-RPC id: an integer or a string (the SDK rejects floats and booleans).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RequestId {
    Number(i64),
    String(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// The `error` member of an error response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    pub code: i64,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl fmt::Display for ErrorObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (error {})", self.message, self.code)
    }
}

/// A wire payload that could not be understood, said in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    /// The sentence, in English (the `Display`).
    pub message: String,
    /// What went wrong, for a UI that says it in another language around `message`.
    pub kind: WireKind,
}

/// What kind of trouble a [`WireError`] is, as data: a UI words it in the person's
/// language and quotes the error's own English as the technical detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireKind {
    /// Not something this client can read: not JSON, not a JSON-RPC message (a batch, a
    /// broken envelope or id), a body of another type or of none.
    Unreadable,
    /// A readable answer lacking a member, or with one of the wrong type.
    Malformed,
    /// An answer this request does not take: an unknown `resultType`, a protocol version
    /// this client cannot speak, a task where none can be.
    Unexpected,
    /// Beyond one of this client's bounds (inputs in a round, a `requestState`'s size).
    TooLarge,
    /// The server's task failed without a JSON-RPC error saying why.
    TaskFailed,
    /// The client's own fault: a value of ours it could not encode, a host's call it
    /// could not read.
    Internal,
}

impl WireError {
    /// An [`Unreadable`](WireKind::Unreadable) message, said so in `message`.
    pub fn new(message: impl Into<String>) -> Self {
        Self::of(WireKind::Unreadable, message)
    }

    /// An error of `kind`, said so in `message`.
    pub fn of(kind: WireKind, message: impl Into<String>) -> Self {
        WireError {
            message: message.into(),
            kind,
        }
    }
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WireError {}

/// One message from the server, classified by shape.
#[derive(Debug, Clone)]
pub enum Incoming {
    /// A successful response to one of our requests.
    Response {
        id: RequestId,
        result: Box<RawValue>,
    },
    /// An error response; `id` is `None` when the server could not read ours.
    Error {
        id: Option<RequestId>,
        error: ErrorObject,
    },
    /// A server-to-client request (legacy era): it must be answered with the same id.
    Request {
        id: RequestId,
        method: String,
        params: Option<Box<RawValue>>,
    },
    /// A notification: no answer expected.
    Notification {
        method: String,
        params: Option<Box<RawValue>>,
    },
}

/// Every envelope field, all optional, so classification can say what is missing.
#[derive(Deserialize)]
struct Envelope {
    jsonrpc: Option<String>,
    #[serde(default, deserialize_with = "present")]
    id: Option<Value>,
    method: Option<String>,
    params: Option<Box<RawValue>>,
    result: Option<Box<RawValue>>,
    error: Option<ErrorObject>,
}

/// Distinguishes `"id": null` (Some(Null)) from a missing id (None).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

fn parse_id(v: Value) -> Result<RequestId, WireError> {
    match v {
        Value::String(s) => Ok(RequestId::String(s)),
        Value::Number(n) => n
            .as_i64()
            .map(RequestId::Number)
            .ok_or_else(|| WireError::new(format!("message id {n} is not an integer"))),
        other => Err(WireError::new(format!(
            "message id must be an integer or a string, not {}",
            show_json(&other)
        ))),
    }
}

/// Classifies one JSON-RPC message (a JSON body, or one SSE event's `data`).
pub fn parse_message(text: &str) -> Result<Incoming, WireError> {
    let env: Envelope = serde_json::from_str(text).map_err(|e| {
        if text.trim_start().starts_with('[') {
            WireError::new("the server sent a JSON-RPC batch, which MCP no longer allows")
        } else {
            WireError::new(format!(
                "the server sent a message that is not JSON-RPC: {e}"
            ))
        }
    })?;
    match env.jsonrpc.as_deref() {
        Some(JSONRPC_VERSION) => {}
        Some(other) => {
            return Err(WireError::new(format!(
                "the server sent a message with jsonrpc version {}, expected \"2.0\"",
                quote(other)
            )))
        }
        None => {
            return Err(WireError::new(
                "the server sent a message without the \"jsonrpc\": \"2.0\" member",
            ))
        }
    }
    if let Some(method) = env.method {
        return match env.id {
            None => Ok(Incoming::Notification {
                method,
                params: env.params,
            }),
            Some(Value::Null) => Err(WireError::new(format!(
                "the server sent a {} request with a null id",
                quote(&method)
            ))),
            Some(id) => Ok(Incoming::Request {
                id: parse_id(id)?,
                method,
                params: env.params,
            }),
        };
    }
    if let Some(error) = env.error {
        let id = match env.id {
            None | Some(Value::Null) => None,
            Some(id) => Some(parse_id(id)?),
        };
        return Ok(Incoming::Error { id, error });
    }
    if let Some(result) = env.result {
        return match env.id {
            None | Some(Value::Null) => {
                Err(WireError::new("the server sent a result without an id"))
            }
            Some(id) => Ok(Incoming::Response {
                id: parse_id(id)?,
                result,
            }),
        };
    }
    Err(WireError::new(
        "the server sent a JSON-RPC message with neither method, result nor error",
    ))
}

impl Incoming {
    /// Serialises back to JSON; raw parts are written out byte-exact.
    pub fn to_json(&self) -> Result<String, WireError> {
        #[derive(Serialize)]
        struct Out<'a> {
            jsonrpc: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            id: Option<Option<&'a RequestId>>,
            #[serde(skip_serializing_if = "Option::is_none")]
            method: Option<&'a str>,
            #[serde(skip_serializing_if = "Option::is_none")]
            params: Option<&'a RawValue>,
            #[serde(skip_serializing_if = "Option::is_none")]
            result: Option<&'a RawValue>,
            #[serde(skip_serializing_if = "Option::is_none")]
            error: Option<&'a ErrorObject>,
        }
        let mut out = Out {
            jsonrpc: JSONRPC_VERSION,
            id: None,
            method: None,
            params: None,
            result: None,
            error: None,
        };
        match self {
            Incoming::Response { id, result } => {
                out.id = Some(Some(id));
                out.result = Some(result);
            }
            Incoming::Error { id, error } => {
                out.id = Some(id.as_ref());
                out.error = Some(error);
            }
            Incoming::Request { id, method, params } => {
                out.id = Some(Some(id));
                out.method = Some(method);
                out.params = params.as_deref();
            }
            Incoming::Notification { method, params } => {
                out.method = Some(method);
                out.params = params.as_deref();
            }
        }
        to_json(&out)
    }
}

/// Serialises one of our own values. Our types always serialise; the error
/// path exists so that no caller has to unwrap.
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, WireError> {
    serde_json::to_string(value).map_err(|e| unencodable(&e))
}

/// Parses a raw payload into a typed value, naming what it was meant to be.
pub fn from_raw<'a, T: Deserialize<'a>>(raw: &'a RawValue, what: &str) -> Result<T, WireError> {
    serde_json::from_str(raw.get()).map_err(|e| malformed(what, &e))
}

// The errors of `to_json` and `from_raw`, made once for all their instances (each type
// read or written has its own).
#[inline(never)]
fn unencodable(e: &serde_json::Error) -> WireError {
    WireError::of(WireKind::Internal, format!("could not encode JSON: {e}"))
}

#[inline(never)]
fn malformed(what: &str, e: &serde_json::Error) -> WireError {
    WireError::of(
        WireKind::Malformed,
        format!("the server's {what} is malformed: {e}"),
    )
}

/// Body of an outgoing request.
pub fn request_body<P: Serialize + ?Sized>(
    id: &RequestId,
    method: &str,
    params: Option<&P>,
) -> Result<String, WireError> {
    #[derive(Serialize)]
    struct Req<'a, P: Serialize + ?Sized> {
        jsonrpc: &'a str,
        id: &'a RequestId,
        method: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        params: Option<&'a P>,
    }
    to_json(&Req {
        jsonrpc: JSONRPC_VERSION,
        id,
        method,
        params,
    })
}

/// Body of an outgoing notification.
pub fn notification_body<P: Serialize + ?Sized>(
    method: &str,
    params: Option<&P>,
) -> Result<String, WireError> {
    #[derive(Serialize)]
    struct Note<'a, P: Serialize + ?Sized> {
        jsonrpc: &'a str,
        method: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        params: Option<&'a P>,
    }
    to_json(&Note {
        jsonrpc: JSONRPC_VERSION,
        method,
        params,
    })
}

/// Body of our answer to a server request.
pub fn result_body<R: Serialize + ?Sized>(id: &RequestId, result: &R) -> Result<String, WireError> {
    #[derive(Serialize)]
    struct Res<'a, R: Serialize + ?Sized> {
        jsonrpc: &'a str,
        id: &'a RequestId,
        result: &'a R,
    }
    to_json(&Res {
        jsonrpc: JSONRPC_VERSION,
        id,
        result,
    })
}

/// Body of our error answer to a server request.
pub fn error_body(id: &RequestId, error: &ErrorObject) -> Result<String, WireError> {
    #[derive(Serialize)]
    struct Err<'a> {
        jsonrpc: &'a str,
        id: &'a RequestId,
        error: &'a ErrorObject,
    }
    to_json(&Err {
        jsonrpc: JSONRPC_VERSION,
        id,
        error,
    })
}
