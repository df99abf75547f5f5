//! The pattern table (`fixtures/patterns.json`) through the public API, natively: every
//! schema compiles, a `match` case is accepted, a `nomatch` case gets a `pattern` error, and a
//! `skipped` case is accepted (the constraint is not checked here; the server decides).
//! `tests/node/patterns.test.mjs` holds the same table against `new RegExp(p, "u")`, and
//! `patterns_wasm.rs` runs it in headless Chromium.

use mcp_elicit::schema::compile;
use mcp_elicit::validate::{validate_content, ErrorCode};
use serde_json::{json, Value};

const TABLE: &str = include_str!("../fixtures/patterns.json");

/// Runs every case and returns the ones whose outcome differs, as readable lines.
fn mismatches() -> Vec<String> {
    let table: Value = serde_json::from_str(TABLE).unwrap_or_else(|e| panic!("table: {e}"));
    let cases = table["cases"].as_array().cloned().unwrap_or_default();
    assert!(cases.len() > 100, "the table has {} cases", cases.len());
    let mut bad = Vec::new();
    for case in &cases {
        let (p, v, want) = (&case["pattern"], &case["value"], &case["expect"]);
        let schema =
            json!({"type": "object", "properties": {"x": {"type": "string", "pattern": p}}});
        let got = match compile(&schema) {
            Err(e) => format!("schema refused ({e})"),
            Ok(spec) => match validate_content(&spec, &json!({ "x": v })) {
                Ok(_) if want == "skipped" => "skipped".to_owned(),
                Ok(_) => "match".to_owned(),
                Err(errs) if errs.iter().all(|e| e.code == ErrorCode::Pattern) => {
                    "nomatch".to_owned()
                }
                Err(errs) => format!("{errs:?}"),
            },
        };
        if Some(got.as_str()) != want.as_str() {
            bad.push(format!("{p} on {v}: want {want}, got {got}"));
        }
    }
    bad
}

#[test]
fn every_case_of_the_table_answers_as_ecma_262_says() {
    let bad = mismatches();
    assert!(
        bad.is_empty(),
        "{} cases differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Patterns that make a backtracking engine take exponential time, on texts at the length
/// cap: each answers (the memoised run is exact for them) or, with back-references, stops
/// at the step budget and leaves the value to the server. None of them hangs.
#[test]
fn catastrophic_patterns_answer_within_the_step_budget() {
    use mcp_elicit::schema::{Pattern, PatternCheck, MAX_PATTERN_TEXT_LEN};
    let n = MAX_PATTERN_TEXT_LEN - 1;
    let a_bang = format!("{}!", "a".repeat(n));
    let alternation = (0..300)
        .map(|k| format!("x{k}"))
        .collect::<Vec<_>>()
        .join("|");
    let cases: Vec<(String, String, PatternCheck)> = vec![
        ("^(a+)+$".into(), a_bang.clone(), PatternCheck::DoesNotMatch),
        (
            "^(a|a)*$".into(),
            a_bang.clone(),
            PatternCheck::DoesNotMatch,
        ),
        (
            "^(a|aa)+$".into(),
            a_bang.clone(),
            PatternCheck::DoesNotMatch,
        ),
        (
            "^(a*)*b$".into(),
            a_bang.clone(),
            PatternCheck::DoesNotMatch,
        ),
        (
            "^((a+)*)+$".into(),
            a_bang.clone(),
            PatternCheck::DoesNotMatch,
        ),
        (
            "^(.*a){3}$".into(),
            a_bang.clone(),
            PatternCheck::DoesNotMatch,
        ),
        (
            "(?=(a+)+$)".into(),
            a_bang.clone(),
            PatternCheck::DoesNotMatch,
        ),
        ("^(?:a+)+$".into(), "a".repeat(n), PatternCheck::Matches),
        (
            format!("^(?:{alternation})+$"),
            "x1".repeat(n / 2),
            PatternCheck::Matches,
        ),
        // 300 branches tried at 5,000 positions: more than the budget, so not checked here.
        (
            format!("^(?:{alternation})+$"),
            format!("{}!", "x1".repeat(n / 2 - 1)),
            PatternCheck::NotChecked,
        ),
        (
            format!("^(?:{alternation})+$"),
            "x1!".into(),
            PatternCheck::DoesNotMatch,
        ),
        // A property beside a character is one class, so with a back-reference there is
        // one path a character, not two.
        (
            "^(?:\\p{L}|a)*()\\1$".into(),
            a_bang.clone(),
            PatternCheck::DoesNotMatch,
        ),
        // With a back-reference there is no memo: the budget stops it.
        (
            "^(a+)+\\1$".into(),
            a_bang.clone(),
            PatternCheck::NotChecked,
        ),
        ("^(a|aa)+\\1!?b$".into(), a_bang, PatternCheck::NotChecked),
    ];
    for (p, text, want) in cases {
        let pattern = Pattern::compile(&p);
        assert!(
            pattern.not_checked().is_none(),
            "{p}: {:?}",
            pattern.not_checked()
        );
        let shown: String = p.chars().take(40).collect();
        assert_eq!(
            pattern.check(&text),
            want,
            "{shown} on {} chars",
            text.len()
        );
    }
}

/// A class test is charged a step per property it asks (in wasm each is a call into the JS
/// engine): a class of 32 properties on a long text stops at the step budget, where one
/// property answers the same pattern.
#[test]
fn a_class_of_many_properties_is_charged_per_property() {
    use mcp_elicit::schema::{Pattern, PatternCheck, MAX_PATTERN_TEXT_LEN, MAX_PROPERTY_ESCAPES};
    let text = "a".repeat(MAX_PATTERN_TEXT_LEN - 1);
    let many = Pattern::compile(&format!(
        "[^{}]{{10}}b",
        "\\p{Lu}".repeat(MAX_PROPERTY_ESCAPES)
    ));
    assert!(many.not_checked().is_none());
    assert_eq!(many.check(&text), PatternCheck::NotChecked);
    let one = Pattern::compile("[^\\p{Lu}]{10}b");
    assert_eq!(one.check(&text), PatternCheck::DoesNotMatch);
}

/// What is `skipped` in the table is kept and says why; what is `python` reads as Python.
#[test]
fn skipped_cases_say_why_and_python_cases_say_so() {
    use mcp_elicit::schema::Pattern;
    let table: Value = serde_json::from_str(TABLE).unwrap_or_else(|e| panic!("table: {e}"));
    for case in table["cases"].as_array().cloned().unwrap_or_default() {
        let p = Pattern::compile(case["pattern"].as_str().unwrap_or_default());
        let skipped = case["expect"] == "skipped";
        assert_eq!(p.not_checked().is_some(), skipped, "{p}");
        let note = p.note(case["value"].as_str().unwrap_or_default());
        assert_eq!(note.is_some(), skipped, "{p}: {note:?}");
        assert_eq!(p.is_python(), case["dialect"] == "python", "{p}");
    }
}

/// Classes cost memory, and a `\p{…}` a walk over Unicode data (natively) or a `RegExp` (in
/// wasm): past their caps a pattern is kept unchecked, never refused, and one just within
/// them is checked.
#[test]
fn property_escapes_and_class_ranges_are_capped() {
    use mcp_elicit::schema::{Pattern, PatternCheck, MAX_PATTERN_RANGES, MAX_PROPERTY_ESCAPES};
    let at_cap = "\\p{Zs}".repeat(MAX_PROPERTY_ESCAPES);
    let p = Pattern::compile(&at_cap);
    assert!(p.not_checked().is_none());
    assert_eq!(
        p.check(&" ".repeat(MAX_PROPERTY_ESCAPES)),
        PatternCheck::Matches
    );
    let over = Pattern::compile(&"\\p{Zs}".repeat(MAX_PROPERTY_ESCAPES + 1));
    assert!(over.not_checked().is_some());
    assert_eq!(over.check(" "), PatternCheck::NotChecked);
    // A property counts as one range, however many its code points make (in wasm it has
    // no ranges here: the JS engine answers for it), so escapes up to their cap pass.
    let letters = Pattern::compile(&"\\p{L}".repeat(MAX_PROPERTY_ESCAPES));
    assert!(letters.not_checked().is_none());
    // `\S` is 11 ranges: 744 of them are within the range cap, 745 over it.
    let within = Pattern::compile(&"\\S".repeat(744));
    assert!(within.not_checked().is_none());
    let many = Pattern::compile(&"\\S".repeat(745));
    let why = many
        .not_checked()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(why.contains(&MAX_PATTERN_RANGES.to_string()), "{why}");
}

fn form_of(n: usize, pattern: &str) -> serde_json::Value {
    let props: serde_json::Map<String, serde_json::Value> = (0..n)
        .map(|i| {
            (
                format!("f{i}"),
                serde_json::json!({"type": "string", "pattern": pattern}),
            )
        })
        .collect();
    serde_json::json!({"type": "object", "properties": props})
}

fn patterns(spec: &mcp_elicit::schema::FormSpec) -> Vec<&mcp_elicit::schema::Pattern> {
    spec.fields
        .iter()
        .filter_map(|f| match &f.kind {
            mcp_elicit::schema::FieldKind::String { pattern, .. } => pattern.as_ref(),
            _ => None,
        })
        .collect()
}

#[test]
fn a_form_checks_at_most_its_first_patterns_and_says_so_for_the_rest() {
    use mcp_elicit::schema::{compile, MAX_CHECKED_PATTERNS_PER_FORM};
    let spec = compile(&form_of(1000, "^[a-z]+$")).expect("compiles");
    let all = patterns(&spec);
    assert_eq!(all.len(), 1000, "every field keeps its pattern");
    let checked = all.iter().filter(|p| p.not_checked().is_none()).count();
    assert_eq!(checked, MAX_CHECKED_PATTERNS_PER_FORM);
    let note = all[999].note("abc").expect("a note for an unchecked one");
    assert!(note.contains("first 16 fields"), "{note}");
}

#[test]
fn the_patterns_of_one_form_compile_to_a_bounded_program_together() {
    use mcp_elicit::schema::{compile, MAX_FORM_PROGRAM_LEN};
    // 15 bytes that ask for about 20,000 instructions each.
    let spec = compile(&form_of(1000, "(?:a{999}){20}")).expect("compiles");
    let total: usize = patterns(&spec).iter().map(|p| p.program_len()).sum();
    assert!(total > 0 && total <= MAX_FORM_PROGRAM_LEN, "{total}");
    let unchecked = patterns(&spec)
        .iter()
        .filter(|p| p.not_checked().is_some())
        .count();
    assert!(unchecked >= 990, "{unchecked}");
}

#[test]
fn a_huge_pattern_is_quoted_short() {
    use mcp_elicit::schema::{Pattern, MAX_SHOWN_PATTERN_CHARS};
    let p = Pattern::compile(&"é".repeat(1_000_000));
    let shown = p.to_string();
    assert_eq!(
        shown.chars().count(),
        MAX_SHOWN_PATTERN_CHARS + 1,
        "cut, with …"
    );
    assert!(shown.ends_with('…'));
    let note = p.note("x").expect("not checked: too long");
    assert!(note.len() < 2_000, "{}", note.len());
}
