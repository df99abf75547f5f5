//! # mcp-elicit core
//!
//! The sans-IO heart of an MCP elicitation client. Nothing in this crate touches
//! a DOM or a socket: it turns bytes and JSON from a server into typed values,
//! decides what to send back, and leaves the actual IO to the caller (the
//! `mcp-elicit-web` crate in a browser, or any other host).
//!
//! - [`wire`]: serde types for both protocol eras (2025-11-25 and 2026-07-28).
//! - [`schema`]: compiles a raw `requestedSchema` into a typed [`schema::FormSpec`].
//! - [`validate`]: coerces raw form input and validates content against a spec.
//! - [`url_policy`]: decides whether a URL-mode URL may be opened, and how to show its host.
//! - [`sse`]: an incremental Server-Sent Events decoder.
//! - [`auth`]: MCP authorization (OAuth 2.1 sign-in) as a state machine.
//! - [`driver`]: the modern multi-round driver and the legacy session handler, as state machines.

pub mod auth;
pub mod driver;
pub mod schema;
pub mod sse;
pub mod url_policy;
pub mod validate;
pub mod wire;
mod words;

mod sort;

#[cfg(target_arch = "wasm32")]
pub mod js;
#[cfg(any(target_arch = "wasm32", test))]
#[cfg_attr(not(feature = "js-api"), allow(dead_code))]
mod js_text;
