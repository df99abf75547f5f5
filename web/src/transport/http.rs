//! One HTTP exchange of Streamable HTTP (POST a JSON-RPC message, GET the session's
//! stream, DELETE the session), sent exactly as a core driver built it: the drivers decide
//! every header (`MCP-Protocol-Version`, `Mcp-Session-Id`, `Mcp-Method`, `Mcp-Name`, ...)
//! and what the answer means; this module sends, and words a failed `fetch`.

use gloo_net::http::{Headers, Request, RequestBuilder, Response};
use web_sys::AbortSignal;

use super::body::ByteStream;
use super::error::TransportError;
use super::probe::classify_fetch_failure;

/// The largest JSON body read into memory: the SSE decoder's bound on one event
/// ([`mcp_elicit::sse::DEFAULT_LIMIT`]), so a message is as large in either body.
pub const JSON_BODY_LIMIT: usize = mcp_elicit::sse::DEFAULT_LIMIT;

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
    let builder = with_headers(builder, &request.headers)?.abort_signal(signal);
    let response = match &request.body {
        Some(body) => {
            let built = builder
                .body(body.clone())
                .map_err(|err| TransportError::Unsendable {
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

/// Sets the request's headers through the browser's own `Headers.set`, which refuses a
/// value it cannot send (e.g. text beyond Latin-1 taken from a server's event id) with an
/// exception: that becomes a worded error. gloo's `header()` would throw it through our
/// frames instead, leaving the call's task dead.
fn with_headers(
    builder: RequestBuilder,
    headers: &[(String, String)],
) -> Result<RequestBuilder, TransportError> {
    let raw = web_sys::Headers::new().map_err(|_| TransportError::Unsendable {
        detail: "no request headers could be made".into(),
    })?;
    for (name, value) in headers {
        raw.set(name, value)
            .map_err(|_| TransportError::Unsendable {
                detail: format!("the header {name} would carry {value:?}, which is not allowed"),
            })?;
    }
    Ok(builder.headers(Headers::from_raw(raw)))
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
