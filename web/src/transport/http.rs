//! One HTTP exchange of Streamable HTTP (POST a JSON-RPC message, GET the session's
//! stream, DELETE the session), sent exactly as a core driver built it: the drivers decide
//! every header (`MCP-Protocol-Version`, `Mcp-Session-Id`, `Mcp-Method`, `Mcp-Name`, ...)
//! and what the answer means; this module sends, and words a failed `fetch`.

use gloo_net::http::{Headers, Request, RequestBuilder, Response};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, RequestRedirect, ResponseType};

use super::body::{is_abort, js_message, ByteStream};
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
    /// `WWW-Authenticate`, when the server sent (and, cross-origin, exposed) one: what a
    /// 401 or 403 asks for (the sign-in's challenge).
    pub www_authenticate: Option<String>,
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

/// How requests leave the page: the browser's `fetch`, or the host's own function with
/// `fetch`'s signature (`options.fetch`: a host that routes through its backend, adds a
/// proxy, or logs). Either way the request is built here, so redirects stay refused.
#[derive(Clone, Default)]
pub struct Fetcher(Option<js_sys::Function>);

impl Fetcher {
    /// The host's `fetch`; `None` for the browser's.
    pub fn new(host_fetch: Option<js_sys::Function>) -> Self {
        Fetcher(host_fetch)
    }

    /// The host's `fetch`, if it passed one (sign-in's own wasm is handed the same).
    pub fn host_fetch(&self) -> Option<&js_sys::Function> {
        self.0.as_ref()
    }

    /// Sends a built request, following no redirect: a redirect answers as
    /// [`TransportError::Redirected`], since following it would carry the JSON-RPC body,
    /// the `Mcp-*` headers and any credential to wherever the server points (another origin,
    /// a service on the person's own machine) while the card still names this server.
    pub async fn fetch(
        &self,
        url: &str,
        builder: RequestBuilder,
    ) -> Result<Response, TransportError> {
        self.fetch_with_body(url, builder, None).await
    }

    /// [`Fetcher::fetch`] with a body (form-encoded or JSON text).
    pub async fn fetch_with_body(
        &self,
        url: &str,
        builder: RequestBuilder,
        body: Option<&str>,
    ) -> Result<Response, TransportError> {
        let builder = builder.redirect(RequestRedirect::Manual);
        let built = match body {
            Some(body) => builder.body(body.to_owned()),
            None => builder.build(),
        }
        .map_err(|err| TransportError::Unsendable {
            detail: format!("the request could not be built ({err})"),
        })?;
        let response = match &self.0 {
            None => send(url, built.send()).await?,
            Some(host_fetch) => host_send(url, host_fetch, built).await?,
        };
        if response.type_() == ResponseType::Opaqueredirect
            || (300..400).contains(&response.status())
        {
            return Err(TransportError::Redirected {
                url: url.to_owned(),
            });
        }
        Ok(response)
    }
}

/// Sends one request a core driver built ([`mcp_elicit::driver::HttpRequest`]) to `url`,
/// exactly as built: its method, its headers in order (then `extra`: the host's headers and
/// the credential, which only ever go to this endpoint), its body.
pub async fn send_request(
    fetcher: &Fetcher,
    url: &str,
    request: &mcp_elicit::driver::HttpRequest,
    extra: &[(String, String)],
    signal: Option<&AbortSignal>,
) -> Result<RawResponse, TransportError> {
    use mcp_elicit::driver::HttpMethod;
    let builder = match request.method {
        HttpMethod::Get => Request::get(url),
        HttpMethod::Post => Request::post(url),
        HttpMethod::Delete => Request::delete(url),
    };
    let builder = with_headers(builder, request.headers.iter().chain(extra))?.abort_signal(signal);
    let response = fetcher
        .fetch_with_body(url, builder, request.body.as_deref())
        .await?;
    let headers = response.headers();
    let body = match response.body() {
        Some(stream) => Some(ByteStream::new(&stream, url)?),
        None => None,
    };
    Ok(RawResponse {
        status: response.status(),
        content_type: headers.get("content-type"),
        session_id: headers.get("mcp-session-id"),
        www_authenticate: headers.get("www-authenticate"),
        body,
    })
}

/// Sets the request's headers through the browser's own `Headers.set`, which refuses a
/// value it cannot send (e.g. text beyond Latin-1 taken from a server's event id) with an
/// exception: that becomes a worded error. gloo's `header()` would throw it through our
/// frames instead, leaving the call's task dead.
pub fn with_headers<'a>(
    builder: RequestBuilder,
    headers: impl IntoIterator<Item = &'a (String, String)>,
) -> Result<RequestBuilder, TransportError> {
    let raw = web_sys::Headers::new().map_err(|_| TransportError::Unsendable {
        detail: "no request headers could be made".into(),
    })?;
    for (name, value) in headers {
        raw.set(name, value)
            .map_err(|_| TransportError::Unsendable {
                detail: format!("the header {name} has a value the browser cannot send"),
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

/// Awaits the host's `fetch(request)`: a rejection or an answer that is not a `Response` is
/// said in words (the host's message, which is the host's own text).
async fn host_send(
    url: &str,
    host_fetch: &js_sys::Function,
    request: Request,
) -> Result<Response, TransportError> {
    let raw: web_sys::Request = request.into();
    let failed = |detail: String| TransportError::HostFetch {
        url: url.to_owned(),
        detail,
    };
    let promise = host_fetch
        .call1(&wasm_bindgen::JsValue::NULL, &raw)
        .map_err(|err| failed(js_message(&err)))?;
    let promise = promise
        .dyn_into::<js_sys::Promise>()
        .or_else(|value| Ok::<_, TransportError>(js_sys::Promise::resolve(&value)))?;
    let answer = JsFuture::from(promise).await.map_err(|err| {
        if is_abort(&err) {
            TransportError::Aborted
        } else {
            failed(js_message(&err))
        }
    })?;
    answer
        .dyn_into::<web_sys::Response>()
        .map(Response::from)
        .map_err(|_| failed("it answered something other than a Response".into()))
}
