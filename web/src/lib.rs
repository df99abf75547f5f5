//! # mcp-elicit-web
//!
//! The browser side of mcp-elicit: Leptos (CSR) components for form and URL mode, the
//! list of a connection's pending requests, the Streamable HTTP transport over `gloo-net`,
//! the MCP client sessions of both eras, and the JS APIs. The demo app is an app of its own on this
//! crate's public API (`www/demo/`, crate `mcp-elicit-demo`), so this package carries none
//! of it.
//!
//! # Ways in
//!
//! - **From JavaScript** (the wasm-bindgen package or the npm package `mcp-elicit`):
//!   `elicit(element, params)` for one elicitation ([`embed`]), `<mcp-elicitation>` as a
//!   custom element ([`element`]). `McpClient`, a whole connection with its cards in an
//!   element, is the crate `mcp-elicit-host` (`host/`), a wasm of its own: a page that only
//!   shows elicitations does not load the client's code.
//! - **From a Leptos app** (Rust, Leptos 0.8 `csr`): the components in [`components`]
//!   ([`components::ElicitationView`] for one request, [`components::SchemaForm`] for a
//!   bare form; [`pending::PendingList`] shows a connection's many). They show, validate and
//!   return the typed answer through `on_answer`; the app does the network. Their props,
//!   and how the answer comes back, are documented there; `www/leptos-example/` is a small
//!   app that mounts one and has a browser test answering its form.
//! - **The client from Rust**: [`client::Connection`] connects in either era and reports
//!   the elicitations it meets as [`client::ClientEvent`]s; [`pending`] turns those into
//!   the list of cards that the demo app and `McpClient` show.
//!
//! A Leptos app that depends on this crate also links its `#[wasm_bindgen]` exports (the
//! JS APIs above) into its own wasm: they cost size, not behaviour, as nothing calls them.
//! No `#[wasm_bindgen(start)]` is defined here, so the app's own start function is the only one.

pub mod auth;
pub mod boundary;
pub mod client;
pub mod components;
pub mod element;
pub mod embed;
pub mod i18n;
pub mod pending;
pub mod transport;
