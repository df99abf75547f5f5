//! What crosses between a JS host and Rust. In: the arguments of `elicit`, `McpClient`'s
//! options, call arguments, and what a host's sampling handler returns. Out: results,
//! lists and sampling params, as `JSON.parse` would give them ([`json_to_js`],
//! [`value_to_js`]).
//!
//! Every such value comes in as JSON through the core's `json_from_js` (a walk inside the
//! engine that writes it in a compact encoding, or `JSON.stringify` there for what that
//! walk leaves; then the core's reader), never by walking it from wasm: a cycle, a throwing
//! getter or a Proxy trap becomes an error in words instead of a stack overflow that
//! leaves the module trapping, or an exception thrown through Rust frames.

use serde::Serialize;
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

/// JSON text (a server's result as it came, or a value's, see [`value_to_js`]) as the JS
/// value `JSON.parse` makes of it: a `__proto__` key is an own data property (never the
/// object's prototype), an integer beyond ±2^53 (an int64 id) is the nearest double,
/// `1e400` is `Infinity`. Walking the value into JS instead refuses such integers (after
/// the tool already ran) and sets `__proto__` through its setter. Fails only for text
/// that is not JSON, as `"{what}: {why}"`.
pub fn json_to_js(text: &str, what: &str) -> Result<JsValue, String> {
    js_sys::JSON::parse(text).map_err(|_| format!("{what}: not JSON"))
}

/// A Rust value as the JS value of its JSON ([`json_to_js`]). serde_json keeps every
/// number it holds exactly (u64, i64, or the shortest text of an f64), so the engine's
/// parse gives the nearest double as for the server's own text.
pub fn value_to_js<T: Serialize>(value: &T, what: &str) -> Result<JsValue, String> {
    let text = serde_json::to_string(value).map_err(|e| format!("{what}: {e}"))?;
    json_to_js(&text, what)
}

// The crate's one JS module (web/src/glue.js says why one).
#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    /// A fresh Promise of what `value` (a host's Promise, thenable or plain value) settles
    /// to. Never throws, whatever the value's `then` or `constructor` does: those run in
    /// the engine's job and reject the Promise instead.
    pub fn settle(value: &JsValue) -> js_sys::Promise;
}
