//! # mcp-elicit-web
//!
//! The browser side of mcp-elicit: Leptos (CSR) components for form and URL mode,
//! the request queue, the Streamable HTTP transport over `gloo-net`, the demo app,
//! and the JS embedding API (`elicit(element, params)`).

pub mod boundary;
pub mod client;
pub mod components;
pub mod demo;
pub mod element;
pub mod embed;
pub mod host;
pub mod pending;
pub mod transport;
