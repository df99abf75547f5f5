//! The demo app: connect, list tools (and prompts and resources), call one, answer its
//! elicitations, see the result.
//!
//! `www/index.html` (its script, `www/index.js`) loads the wasm-bindgen package and calls
//! [`mount_demo`] (`mountDemo` in JS) with the element to render into, unless the page is
//! framed (`www/frame-guard.js`). Everything a test drives is in the DOM contract (README,
//! "Embedding"); the query parameters are read once, here.

mod actions;
mod app;
mod catalog;
mod query;
mod state;

use wasm_bindgen::prelude::*;

pub use query::{parse as parse_query, Prefill, StartParams};

/// Renders the demo app into `element`, starting from the page's query parameters.
#[wasm_bindgen(js_name = mountDemo)]
pub fn mount_demo(element: web_sys::HtmlElement) {
    mount_demo_with(element, query::from_location());
}

/// Renders the demo app into `element` as if opened with `start` (tests use it: their page
/// has no query string of its own).
pub fn mount_demo_with(element: web_sys::HtmlElement, start: StartParams) {
    leptos::mount::mount_to(element, move || {
        leptos::view! { <app::DemoApp start=start /> }
    })
    .forget();
}
