//! The pattern table (`fixtures/patterns.json`) in headless Chromium: the core compiled to
//! wasm answers every case as natively and as V8's `RegExp(p, "u")` (checked by the Node
//! test), and a catastrophic pattern on a text at the length cap answers.
#![cfg(target_arch = "wasm32")]

use mcp_elicit::schema::{compile, Pattern, PatternCheck, MAX_PATTERN_TEXT_LEN};
use mcp_elicit::validate::{validate_content, ErrorCode};
use serde_json::{json, Value};
use wasm_bindgen_test::*;

const TABLE: &str = include_str!("../fixtures/patterns.json");

#[wasm_bindgen_test]
fn every_case_of_the_table_answers_as_natively() {
    let table: Value = serde_json::from_str(TABLE).unwrap();
    let cases = table["cases"].as_array().cloned().unwrap_or_default();
    assert!(cases.len() > 100);
    let mut bad = Vec::new();
    for case in &cases {
        let (p, v, want) = (&case["pattern"], &case["value"], &case["expect"]);
        let schema =
            json!({"type": "object", "properties": {"x": {"type": "string", "pattern": p}}});
        let spec = compile(&schema).unwrap();
        let got = match validate_content(&spec, &json!({ "x": v })) {
            Ok(_) if want == "skipped" => "skipped",
            Ok(_) => "match",
            Err(e) if e.iter().all(|e| e.code == ErrorCode::Pattern) => "nomatch",
            Err(_) => "other error",
        };
        if Some(got) != want.as_str() {
            bad.push(format!("{p} on {v}: want {want}, got {got}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[wasm_bindgen_test]
fn a_catastrophic_pattern_answers_in_the_browser() {
    let text = format!("{}!", "a".repeat(MAX_PATTERN_TEXT_LEN - 1));
    assert_eq!(
        Pattern::compile("^(a+)+$").check(&text),
        PatternCheck::DoesNotMatch
    );
    assert_eq!(
        Pattern::compile("^(a|aa)+\\1b$").check(&text),
        PatternCheck::NotChecked
    );
}

/// A class of 32 properties asks the JS engine up to 32 times a character, and each ask
/// is charged as a step: on a long text it stops at the step budget (a few hundred
/// milliseconds of engine calls at most) instead of some 30 million calls, seconds of a
/// frozen page. One property answers the same pattern.
#[wasm_bindgen_test]
fn a_class_of_many_properties_stops_at_the_step_budget_in_the_browser() {
    let text = "a".repeat(MAX_PATTERN_TEXT_LEN - 1);
    let many = Pattern::compile(&format!("[^{}]{{10}}b", "\\p{Lu}".repeat(32)));
    assert!(many.not_checked().is_none());
    assert_eq!(many.check(&text), PatternCheck::NotChecked);
    assert_eq!(
        Pattern::compile("[^\\p{Lu}]{10}b").check(&text),
        PatternCheck::DoesNotMatch
    );
}

/// The same table against this browser's own `RegExp(p, "u")`, live: every case the
/// browser can read answers as it does (the Python-dialect and over-limit cases, which V8
/// refuses or which we leave to the server, are the ones it cannot compare).
#[wasm_bindgen_test]
fn every_case_answers_as_this_browsers_regexp() {
    let test = js_sys::Function::new_with_args(
        "p, v",
        "try { return new RegExp(p, 'u').test(v) ? 'match' : 'nomatch'; } catch (e) { return 'unreadable'; }",
    );
    let table: Value = serde_json::from_str(TABLE).unwrap();
    let cases = table["cases"].as_array().cloned().unwrap_or_default();
    let (mut compared, mut bad) = (0, Vec::new());
    for case in &cases {
        let (p, v, want) = (&case["pattern"], &case["value"], &case["expect"]);
        let (Some(ps), Some(vs)) = (p.as_str(), v.as_str()) else {
            continue;
        };
        let browser = test
            .call2(&wasm_bindgen::JsValue::NULL, &ps.into(), &vs.into())
            .ok()
            .and_then(|r| r.as_string())
            .unwrap_or_default();
        if browser == "unreadable" || want == "skipped" {
            continue;
        }
        compared += 1;
        if Some(browser.as_str()) != want.as_str() {
            bad.push(format!("{p} on {v}: table {want}, this browser {browser}"));
        }
    }
    assert!(compared > 100, "only {compared} cases compared");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
