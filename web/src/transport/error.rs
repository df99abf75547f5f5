//! What can go wrong between the page and an MCP endpoint, said in words a person
//! understands. `fetch` only ever rejects with an opaque `TypeError`, so the transport
//! classifies a failed request (see [`super::probe`]) before it builds one of these.

use std::fmt;

/// A failure of one HTTP exchange with the MCP endpoint.
#[derive(Debug, Clone, PartialEq)]
pub enum TransportError {
    /// Nothing answered at all: the server is down, the port is wrong, or the network dropped.
    Unreachable { url: String },
    /// The server answered, but the browser withheld the answer from the page because the
    /// server does not send CORS headers for this page's origin.
    BlockedByCors { url: String, origin: String },
    /// The connection broke while a response body (JSON or SSE stream) was being read.
    Dropped { url: String, detail: String },
    /// The server answered something that is not what the protocol allows.
    Malformed { detail: String },
    /// The request was cancelled by us (disconnect, page teardown).
    Aborted,
    /// The server did not finish answering within `after_ms` (see
    /// `client::exchange::ANSWER_POST_TIMEOUT_MS`); the request was aborted. Whether the
    /// server acted on it is unknown.
    TimedOut { url: String, after_ms: u32 },
    /// The server answered with a redirect (3xx), which is never followed: it would carry
    /// the request, its session id and any credential to wherever the server points.
    Redirected { url: String },
    /// The host's own `fetch` (`options.fetch`) threw or answered no `Response`.
    HostFetch { url: String, detail: String },
    /// The browser refused to make the request at all (a header value it cannot send,
    /// a body it cannot take).
    Unsendable { detail: String },
}

impl TransportError {
    /// The error in the language of `m`, for the person (`transport.*` in the catalogs;
    /// English's are the [`fmt::Display`] texts).
    pub fn words(&self, m: &crate::i18n::Messages) -> String {
        crate::i18n::speak_for_connections();
        match self {
            TransportError::Unreachable { url } => m.t("transport.unreachable", &[("url", url)]),
            TransportError::BlockedByCors { url, origin } => {
                m.t("transport.cors", &[("url", url), ("origin", origin)])
            }
            TransportError::Dropped { url, detail } => {
                m.t("transport.dropped", &[("url", url), ("detail", detail)])
            }
            TransportError::Malformed { detail } => {
                m.t("transport.malformed", &[("detail", detail)])
            }
            TransportError::Aborted => m.t("transport.aborted", &[]),
            TransportError::TimedOut { url, after_ms } => m.t(
                "transport.timed_out",
                &[
                    ("url", url),
                    ("seconds", &m.number(f64::from(after_ms / 1000))),
                ],
            ),
            TransportError::Redirected { url } => m.t("transport.redirected", &[("url", url)]),
            TransportError::HostFetch { url, detail } => {
                m.t("transport.host_fetch", &[("url", url), ("detail", detail)])
            }
            TransportError::Unsendable { detail } => {
                m.t("transport.unsendable", &[("detail", detail)])
            }
        }
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransportError::Unreachable { url } => write!(
                f,
                "Cannot reach the server at {url}: nothing answered. Is it running, and is the address right?"
            ),
            TransportError::BlockedByCors { url, origin } => write!(
                f,
                "The server at {url} answered, but the browser blocked the response because the \
                 server does not allow this page's origin ({origin}). The server must answer CORS \
                 preflight (OPTIONS) requests, send Access-Control-Allow-Origin: {origin}, allow the \
                 headers content-type, accept, mcp-protocol-version, mcp-session-id, mcp-method, \
                 mcp-name and last-event-id, and expose mcp-session-id; or serve this page from \
                 the same origin as the endpoint."
            ),
            TransportError::Dropped { url, detail } => write!(
                f,
                "The connection to {url} broke while reading the server's answer ({detail})."
            ),
            TransportError::Malformed { detail } => {
                write!(f, "The server sent something this client cannot understand: {detail}.")
            }
            TransportError::Aborted => write!(f, "The request was cancelled."),
            TransportError::TimedOut { url, after_ms } => write!(
                f,
                "The server at {url} did not answer within {} seconds, so the request was \
                 given up.",
                after_ms / 1000
            ),
            TransportError::Redirected { url } => write!(
                f,
                "The server at {url} answered with a redirect to another address. This client \
                 does not follow redirects, so that no request, session or credential goes \
                 anywhere but the server you connected to. If the server has moved, connect to \
                 its new address (some servers want the address with a trailing slash)."
            ),
            TransportError::HostFetch { url, detail } => write!(
                f,
                "The page's own fetch function failed for {url}: {detail}"
            ),
            TransportError::Unsendable { detail } => {
                write!(f, "The browser could not send the request: {detail}.")
            }
        }
    }
}

impl std::error::Error for TransportError {}
