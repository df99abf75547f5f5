//! Streamable HTTP transport over gloo-net: POST JSON-RPC, read JSON or SSE, the GET stream.
//!
//! This layer does IO and nothing else: which headers and bodies to send, and what a
//! message means, is decided by the core drivers (`mcp_elicit::driver`) and the session
//! code in [`crate::client`]. What it adds is what only a browser can know: reading a
//! body incrementally, cancelling, and saying in words why a request failed (down, CORS,
//! HTTP status, JSON-RPC error, dropped stream).

mod body;
mod error;
mod http;
mod probe;
mod sse_stream;
mod timer;

pub use body::ByteStream;
pub use error::{RpcError, TransportError};
pub use http::{
    delete, open_get_stream, post, rpc_error_in, send_request, Exchange, RawResponse, Reply,
};
pub use probe::{origin_of, page_origin};
pub use sse_stream::SseStream;
pub use timer::sleep;
