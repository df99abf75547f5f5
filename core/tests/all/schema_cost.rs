//! What a hostile schema costs to compile, as work counted by the compiler
//! (`schema::compile_counting`), never as time: the patterns of a form are read and compiled
//! within `MAX_FORM_COMPILE_STEPS`, and its fields offer at most `MAX_FORM_CHOICES` choices.
//! The same worst cases are timed in headless Chromium by `patterns_wasm` (printed, never
//! asserted).

use mcp_elicit::schema::{
    compile_counting, CompileWork, FieldKind, FormSpec, MAX_COMPILE_STEPS, MAX_ENUM_OPTIONS,
    MAX_FORM_CHOICES, MAX_FORM_COMPILE_STEPS, MAX_PATTERN_LEN,
};
use serde_json::{json, Map, Value};

/// `(?:(?:(a)bbb…b){0}){20000}`, 2,048 bytes: each of the 20,000 copies of the outer
/// repeat once walked the whole inner subtree to find its groups (about 40 M visits).
pub fn zero_repeat_of_a_big_group() -> String {
    let head = "(?:(?:(a)";
    let tail = "){0}){20000}";
    let b = MAX_PATTERN_LEN - head.len() - tail.len();
    format!("{head}{}{tail}", "b".repeat(b))
}

/// A copy that writes one instruction but visits hundreds of empty parts.
fn one_instruction_many_visits() -> String {
    let head = "(?:a";
    let tail = "){20000}";
    let n = (MAX_PATTERN_LEN - head.len() - tail.len()) / "(?:){0}".len();
    format!("{head}{}{tail}", "(?:){0}".repeat(n))
}

/// The hostile patterns: each fits [`MAX_PATTERN_LEN`].
pub fn hostile_patterns() -> Vec<(&'static str, String)> {
    vec![
        ("zero repeat of a big group", zero_repeat_of_a_big_group()),
        ("one instruction many visits", one_instruction_many_visits()),
        ("program at its bound", "(?:a{999}){20}".to_owned()),
        ("program past its bound", "(?:[a-z]{1000}){1000}".to_owned()),
        (
            "nested counted repeats",
            format!("{}a{}", "(?:".repeat(40), "){9}".repeat(40)),
        ),
        ("properties", "\\p{L}".repeat(32)),
        ("too many properties", "\\p{Lu}".repeat(300)),
        ("many ranges", "\\S".repeat(745)),
        (
            "long then invalid",
            format!("{}(", "a".repeat(MAX_PATTERN_LEN - 1)),
        ),
        (
            "groups and back-references",
            format!("{}\\1{{20000}}", "(a)".repeat(200)),
        ),
    ]
}

pub fn form_of(n: usize, pattern: &str) -> Value {
    let props: Map<String, Value> = (0..n)
        .map(|i| {
            (
                format!("f{i}"),
                json!({"type": "string", "pattern": pattern}),
            )
        })
        .collect();
    json!({"type": "object", "properties": props})
}

fn checked(spec: &FormSpec) -> usize {
    spec.fields
        .iter()
        .filter(|f| {
            matches!(&f.kind, FieldKind::String { pattern: Some(p), .. } if p.not_checked().is_none())
        })
        .count()
}

#[test]
fn one_hostile_pattern_compiles_within_its_steps() {
    for (name, pattern) in hostile_patterns() {
        assert!(pattern.len() <= MAX_PATTERN_LEN, "{name}");
        let (spec, work) = compile_counting(&form_of(1, &pattern));
        assert!(spec.is_ok(), "{name}: a pattern never refuses the schema");
        assert!(
            work.pattern_steps <= MAX_COMPILE_STEPS,
            "{name}: {} steps",
            work.pattern_steps
        );
    }
}

#[test]
fn the_zero_repeat_of_a_big_group_is_not_checked_in_words() {
    let (spec, work) = compile_counting(&form_of(1, &zero_repeat_of_a_big_group()));
    let spec = spec.expect("compiles");
    let Some(FieldKind::String {
        pattern: Some(p), ..
    }) = spec.fields.first().map(|f| &f.kind)
    else {
        panic!("a patterned field");
    };
    let why = p.not_checked().map(|e| e.to_string()).unwrap_or_default();
    assert!(why.contains("20000"), "{why}");
    // Today it stops at the program's bound: 20,000 Clears, a step to visit each copy.
    assert!(
        work.pattern_steps < 3 * 20_000 + 2 * MAX_PATTERN_LEN,
        "{work:?}"
    );
}

#[test]
fn a_thousand_hostile_patterns_cost_one_form_budget() {
    for (name, pattern) in hostile_patterns() {
        let (spec, work) = compile_counting(&form_of(1000, &pattern));
        let spec = spec.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(spec.fields.len(), 1000, "{name}");
        assert!(
            work.pattern_steps <= MAX_FORM_COMPILE_STEPS + MAX_COMPILE_STEPS,
            "{name}: {} steps",
            work.pattern_steps
        );
    }
}

#[test]
fn a_pattern_past_the_form_budget_is_not_read_and_says_why() {
    let (spec, _) = compile_counting(&form_of(1000, &zero_repeat_of_a_big_group()));
    let spec = spec.expect("compiles");
    assert_eq!(checked(&spec), 0);
    let last = spec.fields.last().map(|f| &f.kind);
    let Some(FieldKind::String {
        pattern: Some(p), ..
    }) = last
    else {
        panic!("a patterned field");
    };
    let note = p.note("a").unwrap_or_default();
    assert!(note.contains(&MAX_FORM_COMPILE_STEPS.to_string()), "{note}");
}

#[test]
fn real_patterns_after_hostile_ones_are_still_checked() {
    // Three hostile patterns then sixteen real ones: the real ones are checked.
    let mut props = Map::new();
    for i in 0..3 {
        props.insert(
            format!("h{i}"),
            json!({"type": "string", "pattern": zero_repeat_of_a_big_group()}),
        );
    }
    for i in 0..16 {
        props.insert(
            format!("r{i}"),
            json!({"type": "string", "pattern": "^[A-Z]{2}-[0-9]{4}$"}),
        );
    }
    let (spec, _) = compile_counting(&json!({"type": "object", "properties": props}));
    assert_eq!(checked(&spec.expect("compiles")), 16);
}

/// `n` multi-selects of `each` short distinct values, then `patterns` hostile patterns.
pub fn choices_and_patterns(n: usize, each: usize, patterns: usize) -> Value {
    let values: Vec<Value> = (0..each).map(|k| json!(format!("v{k}"))).collect();
    let mut props = Map::new();
    for i in 0..n {
        props.insert(
            format!("m{i}"),
            json!({"type": "array", "items": {"type": "string", "enum": values}}),
        );
    }
    for i in 0..patterns {
        props.insert(
            format!("p{i}"),
            json!({"type": "string", "pattern": zero_repeat_of_a_big_group()}),
        );
    }
    json!({"type": "object", "properties": props})
}

#[test]
fn a_form_offers_at_most_its_total_of_choices() {
    let (spec, work) = compile_counting(&choices_and_patterns(2, MAX_ENUM_OPTIONS, 998));
    assert!(spec.is_ok(), "two full lists are a form");
    assert_eq!(work.choices, MAX_FORM_CHOICES);
    assert!(work.pattern_steps <= MAX_FORM_COMPILE_STEPS + MAX_COMPILE_STEPS);

    let (spec, work) = compile_counting(&choices_and_patterns(3, MAX_ENUM_OPTIONS, 997));
    let Err(e) = spec else {
        panic!("three full lists are too many")
    };
    assert_eq!(e.path, "/properties");
    assert!(
        e.message().contains(&MAX_FORM_CHOICES.to_string()) && e.message().contains("choices"),
        "{}",
        e.message()
    );
    assert!(
        work.choices <= MAX_FORM_CHOICES + MAX_ENUM_OPTIONS,
        "{work:?}"
    );
    // Refused as the third list is read: no pattern was read.
    assert_eq!(
        work,
        CompileWork {
            pattern_steps: 0,
            choices: 3 * MAX_ENUM_OPTIONS
        }
    );
}

#[test]
fn choices_of_selects_and_multi_selects_count_together() {
    let values: Vec<Value> = (0..MAX_ENUM_OPTIONS)
        .map(|k| json!(format!("v{k}")))
        .collect();
    let titled: Vec<Value> = (0..MAX_ENUM_OPTIONS)
        .map(|k| json!({"const": format!("v{k}")}))
        .collect();
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "string", "enum": values},
        "b": {"type": "string", "oneOf": titled},
        "c": {"type": "string", "enum": ["x"]},
    }});
    let (spec, _) = compile_counting(&schema);
    let Err(e) = spec else {
        panic!("one choice over is too many")
    };
    assert_eq!(e.path, "/properties");
    assert!(e.message().contains("\"c\""), "{}", e.message());
}
