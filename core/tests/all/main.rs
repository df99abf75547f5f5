//! The core's integration tests: one test crate (one link, one browser page for the wasm
//! ones) with a module per subject. Case tables live as data in `core/tests/fixtures/`.
//!
//! Run one subject with `cargo test -p mcp-elicit --test all <module>::`. The `*_wasm`
//! modules run only on wasm32, in headless Chromium (`wasm-pack test`, see `scripts/test`);
//! the modules marked native-only read files or use proptest.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod auth_flow;
mod auth_hostile;
mod auth_scenarios;
mod auth_util;
mod driver_era;
mod driver_era_retry;
mod driver_error;
mod driver_headers;
mod driver_headers_sdk;
mod driver_legacy;
mod driver_modern;
mod driver_progress;
mod driver_task_ext;
mod driver_tasks;
mod driver_tool_tasks;
mod hostile_wasm;
mod js_api_wasm;
mod js_boundary_wasm;
mod js_crossing_wasm;
mod js_values;
mod patterns_table;
mod patterns_wasm;
mod props_never_panic;
mod schema_compile;
mod schema_cost;
mod schema_cost_wasm;
mod schema_refusals;
mod sdk_schemas;
mod server_sized_lists;
mod sse_decoder;
mod sse_transcripts;
mod url_policy;
mod validate_codes;
mod wire_catalog;
mod wire_hostile;
mod wire_transcripts;
mod wire_types;
mod wire_wasm;
