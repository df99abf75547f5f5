//! # mcp-elicit-demo
//!
//! The demo app: connect, list tools (and prompts and resources), call one, answer its
//! elicitations, see the result. An app built on `mcp-elicit-web`'s public API (the client
//! [`Connection`](mcp_elicit_web::client::Connection), the card list
//! [`PendingList`](mcp_elicit_web::pending::PendingList) with its one way of delivering an
//! answer, [`deliver`](mcp_elicit_web::pending::deliver), and the
//! [`SchemaForm`](mcp_elicit_web::components::SchemaForm) of each tool), in a crate of its
//! own so that the library's package carries none of it.
//!
//! `www/index.html` (its script, `www/index.js`) loads this crate's wasm-bindgen package
//! (`www/demo/pkg`, built by `scripts/build-www`) and calls [`mount_demo`] (`mountDemo` in
//! JS) with the element to render into, unless the page is framed (`www/frame-guard.js`).
//! Everything a test drives is in the DOM contract (`docs/dom-contract.md`); the query
//! parameters are read once, here.

mod actions;
mod app;
mod catalog;
mod query;
mod running;
mod state;
mod words;

use wasm_bindgen::prelude::*;

pub use query::{parse as parse_query, Prefill, StartParams};

/// Renders the demo app into `element`, starting from the page's query parameters.
#[wasm_bindgen(js_name = mountDemo)]
pub fn mount_demo(element: web_sys::HtmlElement) {
    let start = query::from_location();
    // The page speaks its language from its first paint: the catalog (loaded on demand
    // unless it is English) first.
    wasm_bindgen_futures::spawn_local(async move {
        mcp_elicit_web::i18n::load_for(start.lang.as_deref()).await;
        mount_demo_with(element, start);
    });
}

/// Renders the demo app into `element` as if opened with `start` (tests use it: their page
/// has no query string of its own).
pub fn mount_demo_with(element: web_sys::HtmlElement, start: StartParams) {
    let messages = match &start.lang {
        Some(tag) => mcp_elicit_web::i18n::Messages::new(tag),
        None => mcp_elicit_web::i18n::Messages::from_browser(),
    };
    // The whole page speaks the chosen language: screen readers read it so.
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", messages.lang());
        let _ = root.set_attribute("dir", messages.dir());
    }
    leptos::mount::mount_to(element, move || {
        leptos::prelude::provide_context(messages);
        leptos::view! { <app::DemoApp start=start /> }
    })
    .forget();
}
