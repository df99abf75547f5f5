//! The web crate's browser tests: one test crate (one wasm link, one headless Chromium page)
//! with a module per subject; `ui_support` is the helpers the modules share (mounting,
//! DOM events, waiting, and `fake_fetch`, the one fake of `window.fetch` for a test's server).
//!
//! Run one subject with `wasm-pack test --headless --chrome --chromedriver
//! /usr/bin/chromedriver --mode no-install web -- --test all <module>::` (see `scripts/test`).
//! Every module is wasm32-only.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod ui_support;

mod auth_store;
mod host_on_elicitation;
mod hostile_round3;
mod js_boundary;
mod legacy_restart;
mod modern_rounds;
mod transport_stream;
mod transport_timeout;
mod ui_cards;
mod ui_element;
mod ui_form;
mod ui_hostile;
mod ui_i18n;
mod ui_many_options;
mod ui_url;
mod ui_words;
