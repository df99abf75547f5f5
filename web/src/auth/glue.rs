//! The browser's parts of sign-in, from the crate's one JS module (web/src/glue.js).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    /// Calls `on_query(query)` for each callback posted to this page by a window of its
    /// own origin, or on its BroadcastChannel; returns the function that stops listening.
    pub fn oauth_listen(on_query: &Closure<dyn FnMut(String)>) -> js_sys::Function;
    /// The popup with the authorization page, or null when the browser blocked it.
    pub fn oauth_open_popup(url: &str) -> JsValue;
    /// Whether the popup is gone.
    pub fn oauth_popup_closed(popup: &JsValue) -> bool;
    /// Leaves the page for `url`, to come back after the sign-in.
    pub fn oauth_redirect(url: &str);
    /// The callback query a full-page redirect left for this page (read once), or null.
    pub fn oauth_take_return() -> JsValue;
    /// `n` random bytes.
    pub fn oauth_random(n: u32) -> js_sys::Uint8Array;
    /// SHA-256 of `bytes`: a Promise of a Uint8Array of 32 bytes.
    pub fn oauth_sha256(bytes: &js_sys::Uint8Array) -> js_sys::Promise;
    /// One operation on a store (see store.rs): a Promise.
    pub fn oauth_store(
        kind: &str,
        host: &JsValue,
        op: &str,
        key: &str,
        value: &JsValue,
    ) -> js_sys::Promise;
}
