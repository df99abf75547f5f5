//! The HTTP side of Streamable HTTP, as data: requests to send, and bodies
//! (JSON or SSE) turned into JSON-RPC message texts.

use crate::sse::{SseDecoder, SseError, SseEvent};

use super::DriverError;

/// `Accept` for every POST: the server may answer with JSON or an SSE stream.
pub const ACCEPT_POST: &str = "application/json, text/event-stream";
/// `Accept` for the legacy GET stream.
pub const ACCEPT_STREAM: &str = "text/event-stream";

/// Header names, as the SDK spells them on the wire (HTTP names are case-insensitive).
pub mod names {
    pub const CONTENT_TYPE: &str = "Content-Type";
    pub const ACCEPT: &str = "Accept";
    pub const PROTOCOL_VERSION: &str = "MCP-Protocol-Version";
    pub const SESSION_ID: &str = "Mcp-Session-Id";
    pub const METHOD: &str = "Mcp-Method";
    pub const NAME: &str = "Mcp-Name";
    pub const PARAM_PREFIX: &str = "Mcp-Param-";
    pub const LAST_EVENT_ID: &str = "Last-Event-ID";
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpMethod {
    Get,
    Post,
    Delete,
}

impl HttpMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            HttpMethod::Get => "GET",
            HttpMethod::Post => "POST",
            HttpMethod::Delete => "DELETE",
        }
    }
}

/// One HTTP request to the server's MCP endpoint (the URL is the caller's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    pub method: HttpMethod,
    /// In the order they should be sent.
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
}

impl HttpRequest {
    /// A JSON POST with the standard `Content-Type` / `Accept`.
    pub fn post(body: String) -> Self {
        HttpRequest {
            method: HttpMethod::Post,
            headers: vec![
                (names::CONTENT_TYPE.into(), "application/json".into()),
                (names::ACCEPT.into(), ACCEPT_POST.into()),
            ],
            body: Some(body),
        }
    }

    /// Adds a header.
    pub fn with(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.to_string(), value.into()));
        self
    }

    /// A header's value, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Whether `fetch` sends `value` as a request header exactly as given. The
/// headers this crate builds from server text (resume tokens, `Mcp-Param-*`)
/// satisfy it, as the tests check; the web layer still sets headers through
/// the browser's fallible `Headers.set`, so a value that does not is an error
/// there, never a throw. The rule:
/// - every character is at most U+00FF (header values are WebIDL byte
///   strings: anything above makes `fetch` throw a `TypeError`);
/// - no NUL, CR or LF (the Fetch standard's "header value": `fetch` throws);
/// - no leading or trailing space or tab (`fetch` strips them silently, so
///   the server would get another value than the one meant).
///
/// The empty value is a header value. This is the browser's rule, not RFC
/// 9110's stricter one: other control characters pass here (a server may
/// still refuse them). Characters U+0080..=U+00FF are sent as one Latin-1
/// byte each, not as UTF-8: encode text that must arrive as UTF-8 first (as
/// [`super::headers::encode_header_value`] does).
pub fn is_header_value(value: &str) -> bool {
    let edge = |c: Option<char>| !matches!(c, Some(' ' | '\t'));
    value
        .chars()
        .all(|c| c <= '\u{FF}' && !matches!(c, '\0' | '\r' | '\n'))
        && edge(value.chars().next())
        && edge(value.chars().next_back())
}

/// What kind of body a `Content-Type` announces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyKind {
    Json,
    EventStream,
    /// No content type (e.g. a 202 with no body).
    None,
    Other(String),
}

/// Classifies a `Content-Type` header value (parameters such as charset ignored).
pub fn body_kind(content_type: Option<&str>) -> BodyKind {
    let Some(ct) = content_type else {
        return BodyKind::None;
    };
    let essence = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "application/json" => BodyKind::Json,
        "text/event-stream" => BodyKind::EventStream,
        "" => BodyKind::None,
        _ => BodyKind::Other(essence),
    }
}

/// The JSON-RPC messages in a whole response body: one for JSON, one per
/// `message` event with data for SSE (keep-alive comments and the SDK's empty
/// priming events carry none), nothing for an empty body.
pub fn messages_from_body(
    content_type: Option<&str>,
    body: &[u8],
) -> Result<Vec<String>, DriverError> {
    match body_kind(content_type) {
        // The SDK answers notifications and answer POSTs with 202 and an empty
        // `application/json` body: no message there.
        BodyKind::Json if body.iter().all(u8::is_ascii_whitespace) => Ok(Vec::new()),
        BodyKind::Json => Ok(vec![String::from_utf8_lossy(body).into_owned()]),
        BodyKind::EventStream => {
            let mut stream = MessageStream::new();
            let mut out = stream.feed(body)?;
            out.extend(stream.finish()?);
            Ok(out)
        }
        BodyKind::None if body.iter().all(u8::is_ascii_whitespace) => Ok(Vec::new()),
        BodyKind::None => Err(DriverError::Wire(crate::wire::WireError::new(
            "the server sent a body without a Content-Type",
        ))),
        BodyKind::Other(t) => Err(DriverError::Wire(crate::wire::WireError::new(format!(
            "the server answered with {t}, not JSON or an event stream"
        )))),
    }
}

/// Why a non-2xx HTTP answer failed: the JSON-RPC error its body carries when
/// there is one (the SDK sends -32020/-32021/-32022 with HTTP 400), else the
/// status and the start of the body.
pub fn failure_from_http(status: u16, content_type: Option<&str>, body: &[u8]) -> DriverError {
    if let Ok(texts) = messages_from_body(content_type, body) {
        for text in texts {
            if let Ok(crate::wire::Incoming::Error { error, .. }) =
                crate::wire::parse_message(&text)
            {
                return DriverError::from_rpc(error);
            }
        }
    }
    let excerpt: String = String::from_utf8_lossy(body).chars().take(300).collect();
    DriverError::Http {
        status,
        body: excerpt,
    }
}

/// SSE body read chunk by chunk, yielding JSON-RPC message texts.
#[derive(Debug, Clone, Default)]
pub struct MessageStream {
    decoder: SseDecoder,
}

impl MessageStream {
    pub fn new() -> Self {
        Self::default()
    }

    /// Decodes a chunk; returns the message texts it completed. Events that
    /// carry no message (keep-alives, empty priming events, other event types)
    /// are dropped as they are decoded, so the result holds messages only.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<String>, SseError> {
        let mut out = Vec::new();
        self.decoder
            .feed_each(chunk, |e| out.extend(message_text(e)))?;
        Ok(out)
    }

    /// Ends the body. A cut-off final event is reported, not silently dropped.
    pub fn finish(&mut self) -> Result<Vec<String>, SseError> {
        self.decoder.finish().map(|()| Vec::new())
    }

    /// The stream's last event id when it can be sent as `Last-Event-ID` to
    /// resume (see [`crate::sse::resume_token`]); `None` when the stream has
    /// no id, reset it with an empty `id:`, or its latest id is not usable.
    pub fn last_event_id(&self) -> Option<&str> {
        // The decoder keeps tokens only; checking again keeps this promise
        // independent of that.
        self.decoder
            .last_event_id()
            .and_then(crate::sse::resume_token)
    }

    /// The server's requested reconnection delay (ms), if it gave one.
    pub fn retry_ms(&self) -> Option<u64> {
        self.decoder.retry_ms()
    }
}

fn message_text(e: SseEvent) -> Option<String> {
    (e.event == "message" && !e.data.trim().is_empty()).then_some(e.data)
}
