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
    /// The server answered with an HTTP error status. `rpc` holds the JSON-RPC error the
    /// body carried, if any (the SDK puts one in most 4xx bodies).
    Http {
        status: u16,
        /// Boxed: errors travel in every `Result`, and most carry no JSON-RPC error.
        rpc: Option<Box<RpcError>>,
        body: String,
    },
    /// The session id we sent is unknown to the server (HTTP 404): it expired or the server
    /// restarted. Legacy clients re-initialise on this.
    SessionExpired,
    /// The server answered something that is not what the protocol allows.
    Malformed { detail: String },
    /// The request was cancelled by us (disconnect, page teardown).
    Aborted,
}

/// A JSON-RPC error object, as the server sent it.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<serde_json::Value>,
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (JSON-RPC error {})", self.message, self.code)
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
            TransportError::Http { status, rpc: Some(rpc), .. } => {
                write!(f, "The server refused the request (HTTP {status}): {rpc}.")
            }
            TransportError::Http { status, rpc: None, body } => {
                let excerpt: String = body.chars().take(200).collect();
                if excerpt.trim().is_empty() {
                    write!(f, "The server refused the request (HTTP {status}).")
                } else {
                    write!(f, "The server refused the request (HTTP {status}): {}", excerpt.trim())
                }
            }
            TransportError::SessionExpired => write!(
                f,
                "The server no longer knows this session (HTTP 404): it expired or the server restarted."
            ),
            TransportError::Malformed { detail } => {
                write!(f, "The server sent something this client cannot understand: {detail}.")
            }
            TransportError::Aborted => write!(f, "The request was cancelled."),
        }
    }
}

impl std::error::Error for TransportError {}

impl TransportError {
    /// True when retrying the same request later may work (server down, connection lost):
    /// the UI keeps the user's answers and offers to resend.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            TransportError::Unreachable { .. } | TransportError::Dropped { .. }
        )
    }
}
