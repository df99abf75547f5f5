//! The worst schemas of `schema_cost` compiled in headless Chromium, each timed with
//! `performance.now()` and printed (run with `--nocapture` to read the figures); nothing
//! here asserts a time: `schema_cost` bounds the same cases by the work counted.
#![cfg(target_arch = "wasm32")]

use super::schema_cost::{choices_and_patterns, form_of, hostile_patterns};
use mcp_elicit::schema::{compile_counting, MAX_ENUM_OPTIONS};
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

/// `performance.now()` in milliseconds.
fn now() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| {
            let now = js_sys::Reflect::get(&p, &"now".into()).ok()?;
            now.dyn_into::<js_sys::Function>().ok()?.call0(&p).ok()
        })
        .and_then(|t| t.as_f64())
        .unwrap_or_default()
}

/// Compiles `schema`, printing the time and the work; whether it compiled or was refused.
fn timed(name: &str, schema: &Value) -> bool {
    let t = now();
    let (spec, work) = compile_counting(schema);
    let ms = now() - t;
    let outcome = match &spec {
        Ok(_) => "compiled".to_owned(),
        Err(e) => format!("refused at {}", e.path),
    };
    console_log!("{name}: {ms:.1} ms, {outcome}, {work:?}");
    spec.is_ok()
}

#[wasm_bindgen_test]
fn the_worst_cases_compile_or_are_refused() {
    for (name, pattern) in hostile_patterns() {
        assert!(timed(&format!("1,000 × {name}"), &form_of(1000, &pattern)));
    }
    assert!(timed(
        "2 × 50,000 choices + 998 × zero repeat",
        &choices_and_patterns(2, MAX_ENUM_OPTIONS, 998)
    ));
    assert!(!timed(
        "3 × 50,000 choices + 997 × zero repeat",
        &choices_and_patterns(3, MAX_ENUM_OPTIONS, 997)
    ));
    // About as many lists of 50,000 short values as fit in a 16 MiB message.
    assert!(!timed(
        "38 × 50,000 choices (16.7 MB of JSON)",
        &choices_and_patterns(38, MAX_ENUM_OPTIONS, 0)
    ));
}
