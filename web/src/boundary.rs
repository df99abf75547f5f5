//! What crosses from a JS host into Rust: the arguments of `elicit`, `McpClient`'s
//! options, call arguments, and what a host's sampling handler returns.
//!
//! Every such value comes in as JSON through the core's `json_from_js` (`JSON.stringify`
//! inside the engine, then serde_json), never by walking it from wasm: a cycle, a throwing
//! getter or a Proxy trap becomes an error in words instead of a stack overflow that
//! leaves the module trapping, or an exception thrown through Rust frames.

use serde_json::Value;
use wasm_bindgen::prelude::*;

/// The host's `value` as JSON, or `"{what}: {why}"` (e.g. `callTool's arguments: the
/// member /parent refers back to an object that contains it (a cycle), ...`). An object
/// member that is `undefined` is left out, as `JSON.stringify` does: a host writing
/// `{ stopReason: maybeUndefined }` means no `stopReason`.
pub fn json_arg(value: &JsValue, what: &str) -> Result<Value, String> {
    read(value).map_err(|why| format!("{what}: {why}"))
}

#[cfg(target_arch = "wasm32")]
fn read(value: &JsValue) -> Result<Value, String> {
    use mcp_elicit::js::{json_from_js, UndefinedMembers};
    json_from_js(value, UndefinedMembers::Omit)
}

/// Native builds (clippy) have no JS engine and no JS values to read; the core's JS API
/// exists only for wasm32.
#[cfg(not(target_arch = "wasm32"))]
fn read(_value: &JsValue) -> Result<Value, String> {
    Err("JS values can only be read in the wasm32 build".into())
}

// A static module (no eval, so it works under an extension's strict CSP); wasm-bindgen
// copies it into the package's `snippets/`.
#[wasm_bindgen(module = "/src/boundary.js")]
extern "C" {
    /// A fresh Promise of what `value` (a host's Promise, thenable or plain value) settles
    /// to. Never throws, whatever the value's `then` or `constructor` does: those run in
    /// the engine's job and reject the Promise instead.
    pub fn settle(value: &JsValue) -> js_sys::Promise;
}
