//! The demo app: connect, list tools (and prompts and resources), call one, answer its
//! elicitations, see the result.
//!
//! `www/index.html` loads the wasm-bindgen package and calls [`mount_demo`] (`mountDemo`
//! in JS) with the element to render into. Everything a test drives is in the DOM
//! contract (`/work/shared/dom-contract.md`); the query parameters are read once, here.

mod actions;
mod app;
mod catalog;
mod query;
mod state;

use wasm_bindgen::prelude::*;

pub use query::{parse as parse_query, StartParams};

/// Renders the demo app into `element`, starting from the page's query parameters.
#[wasm_bindgen(js_name = mountDemo)]
pub fn mount_demo(element: web_sys::HtmlElement) {
    let start = query::from_location();
    leptos::mount::mount_to(element, move || {
        leptos::view! { <app::DemoApp start=start /> }
    })
    .forget();
}
