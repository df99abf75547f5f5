//! Streamable HTTP transport over gloo-net: send a request a core driver built, read the
//! answer's body chunk by chunk.
//!
//! This layer does IO and nothing else: which headers and bodies to send, what a status or
//! a message means, is decided by the core drivers (`mcp_elicit::driver`) and the session
//! code in [`crate::client`]. What it adds is what only a browser can know: reading a
//! body incrementally, cancelling, and saying in words why a request failed (down, CORS,
//! dropped stream).

mod body;
mod error;
mod http;
mod probe;
mod timer;

pub use body::ByteStream;
pub use error::TransportError;
pub use http::{send_request, with_headers, Fetcher, RawResponse, JSON_BODY_LIMIT};
pub use probe::{origin_of, page_origin};
pub use timer::{sleep, within};
