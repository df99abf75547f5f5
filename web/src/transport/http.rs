//! The three HTTP exchanges of Streamable HTTP: POST a JSON-RPC message, GET the
//! session's server-to-client stream, DELETE the session.
//!
//! Headers are passed in as name/value pairs because the core drivers decide them
//! (`MCP-Protocol-Version`, `Mcp-Session-Id`, `Mcp-Method`, `Mcp-Name`, ...); this module
//! only adds what every POST needs and turns the HTTP answer into a [`Reply`].

use gloo_net::http::{Request, RequestBuilder, Response};
use web_sys::AbortSignal;

use super::body::ByteStream;
use super::error::{RpcError, TransportError};
use super::probe::classify_fetch_failure;
use super::sse_stream::SseStream;

/// The largest JSON body we read into memory (an SSE stream is bounded by the decoder).
const JSON_BODY_LIMIT: usize = 16 * 1024 * 1024;

/// What a successful POST or GET gave back.
pub enum Reply {
    /// 202 Accepted: a notification or a response was taken; nothing comes back.
    Accepted,
    /// `application/json`: exactly one JSON-RPC message, as text (kept raw so the core can
    /// keep `requestState` byte-exact).
    Json(String),
    /// `text/event-stream`: messages arrive one by one; read them with [`SseStream::next_message`].
    Stream(Box<SseStream>),
}

/// A reply plus the response headers the protocol cares about.
pub struct Exchange {
    pub status: u16,
    /// `Mcp-Session-Id` (legacy `initialize` answer). Only readable cross-origin when the
    /// server exposes it (`Access-Control-Expose-Headers`).
    pub session_id: Option<String>,
    pub reply: Reply,
}

/// POSTs one JSON-RPC message (`body`, already serialised) to `url`.
pub async fn post(
    url: &str,
    headers: &[(String, String)],
    body: String,
    signal: Option<&AbortSignal>,
) -> Result<Exchange, TransportError> {
    let builder = with_headers(Request::post(url), headers)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .abort_signal(signal);
    let request = builder
        .body(body)
        .map_err(|err| TransportError::Malformed {
            detail: format!("the request could not be built ({err})"),
        })?;
    let response = send(url, request.send()).await?;
    read_reply(url, response, has_session(headers)).await
}

/// Opens the session's GET stream. `Ok(None)` when the server offers none (405).
pub async fn open_get_stream(
    url: &str,
    headers: &[(String, String)],
    signal: Option<&AbortSignal>,
) -> Result<Option<SseStream>, TransportError> {
    let builder = with_headers(Request::get(url), headers)
        .header("Accept", "text/event-stream")
        .abort_signal(signal);
    let response = send(url, builder.send()).await?;
    if response.status() == 405 {
        return Ok(None);
    }
    match read_reply(url, response, has_session(headers)).await? {
        Exchange {
            reply: Reply::Stream(stream),
            ..
        } => Ok(Some(*stream)),
        Exchange { .. } => Err(TransportError::Malformed {
            detail: "the GET stream did not answer with text/event-stream".into(),
        }),
    }
}

/// Ends the session. A server that already forgot it (404) or does not allow DELETE (405)
/// counts as success: either way the session is over.
pub async fn delete(url: &str, headers: &[(String, String)]) -> Result<(), TransportError> {
    let response = send(url, with_headers(Request::delete(url), headers).send()).await?;
    match response.status() {
        200..=299 | 404 | 405 => Ok(()),
        status => Err(http_error(
            status,
            response.text().await.unwrap_or_default(),
        )),
    }
}

/// A response as it came: status, the headers the protocol reads, and the body still to
/// read. Nothing is interpreted here; the core drivers decide what a status or body means.
pub struct RawResponse {
    pub status: u16,
    pub content_type: Option<String>,
    /// `Mcp-Session-Id`, when the server sent (and, cross-origin, exposed) one.
    pub session_id: Option<String>,
    pub body: Option<ByteStream>,
}

impl RawResponse {
    /// The whole body (empty when there is none), bounded like any JSON body.
    pub async fn read_all(&mut self) -> Result<Vec<u8>, TransportError> {
        match self.body.as_mut() {
            Some(body) => body.read_to_end(JSON_BODY_LIMIT).await,
            None => Ok(Vec::new()),
        }
    }
}

/// Sends one request a core driver built ([`mcp_elicit::driver::HttpRequest`]) to `url`,
/// exactly as built: its method, its headers in order, its body.
pub async fn send_request(
    url: &str,
    request: &mcp_elicit::driver::HttpRequest,
    signal: Option<&AbortSignal>,
) -> Result<RawResponse, TransportError> {
    use mcp_elicit::driver::HttpMethod;
    let builder = match request.method {
        HttpMethod::Get => Request::get(url),
        HttpMethod::Post => Request::post(url),
        HttpMethod::Delete => Request::delete(url),
    };
    let builder = with_headers(builder, &request.headers).abort_signal(signal);
    let response = match &request.body {
        Some(body) => {
            let built = builder
                .body(body.clone())
                .map_err(|err| TransportError::Malformed {
                    detail: format!("the request could not be built ({err})"),
                })?;
            send(url, built.send()).await?
        }
        None => send(url, builder.send()).await?,
    };
    let headers = response.headers();
    let body = match response.body() {
        Some(stream) => Some(ByteStream::new(&stream, url)?),
        None => None,
    };
    Ok(RawResponse {
        status: response.status(),
        content_type: headers.get("content-type"),
        session_id: headers.get("mcp-session-id"),
        body,
    })
}

fn with_headers(mut builder: RequestBuilder, headers: &[(String, String)]) -> RequestBuilder {
    for (name, value) in headers {
        builder = builder.header(name, value);
    }
    builder
}

fn has_session(headers: &[(String, String)]) -> bool {
    headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("mcp-session-id"))
}

/// Awaits `fetch`, turning its opaque rejection into a worded [`TransportError`].
async fn send(
    url: &str,
    pending: impl std::future::Future<Output = Result<Response, gloo_net::Error>>,
) -> Result<Response, TransportError> {
    match pending.await {
        Ok(response) => Ok(response),
        Err(gloo_net::Error::JsError(err)) if err.name == "AbortError" => {
            Err(TransportError::Aborted)
        }
        Err(gloo_net::Error::JsError(_)) => Err(classify_fetch_failure(url).await),
        Err(other) => Err(TransportError::Malformed {
            detail: other.to_string(),
        }),
    }
}

async fn read_reply(
    url: &str,
    response: Response,
    sent_session: bool,
) -> Result<Exchange, TransportError> {
    let status = response.status();
    let headers = response.headers();
    let session_id = headers.get("mcp-session-id");
    if status == 404 && sent_session {
        return Err(TransportError::SessionExpired);
    }
    if status == 202 || status == 204 {
        return Ok(Exchange {
            status,
            session_id,
            reply: Reply::Accepted,
        });
    }
    let content_type = headers
        .get("content-type")
        .unwrap_or_default()
        .to_ascii_lowercase();
    let mut body = match response.body() {
        Some(stream) => Some(ByteStream::new(&stream, url)?),
        None => None,
    };
    if !(200..300).contains(&status) {
        let text = match body.as_mut() {
            Some(b) => String::from_utf8_lossy(&b.read_to_end(JSON_BODY_LIMIT).await?).into_owned(),
            None => String::new(),
        };
        return Err(http_error(status, text));
    }
    let reply = match body {
        None => Reply::Accepted,
        Some(stream) if content_type.starts_with("text/event-stream") => {
            Reply::Stream(Box::new(SseStream::new(stream)))
        }
        Some(mut stream) => {
            let bytes = stream.read_to_end(JSON_BODY_LIMIT).await?;
            let text = String::from_utf8(bytes).map_err(|_| TransportError::Malformed {
                detail: "the response body is not UTF-8 text".into(),
            })?;
            if text.trim().is_empty() {
                Reply::Accepted
            } else {
                Reply::Json(text)
            }
        }
    };
    Ok(Exchange {
        status,
        session_id,
        reply,
    })
}

/// An HTTP error, with the JSON-RPC error its body carries when there is one.
fn http_error(status: u16, body: String) -> TransportError {
    TransportError::Http {
        status,
        rpc: rpc_error_in(&body).map(Box::new),
        body,
    }
}

/// The `error` member of a JSON-RPC message in `body`, if the body is one.
pub fn rpc_error_in(body: &str) -> Option<RpcError> {
    let value: serde_json::Value = serde_json::from_str(body).ok()?;
    let error = value.get("error")?;
    Some(RpcError {
        code: error.get("code")?.as_i64()?,
        message: error
            .get("message")
            .and_then(|m| m.as_str())
            .unwrap_or("no message")
            .to_owned(),
        data: error.get("data").cloned(),
    })
}
