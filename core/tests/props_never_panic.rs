//! Property tests: whatever JSON a server or a page sends, the compiler, the validator and the
//! coercion never panic (a panic in wasm kills the page), and the entry points agree.
#![cfg(not(target_arch = "wasm32"))]

use mcp_elicit::schema::compile;
use mcp_elicit::validate::{
    check_field, coerce_form, default_input, local_to_rfc3339, rfc3339_to_local, validate_content,
    RawInput,
};
use mcp_elicit::wire::ResourceTemplate;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Words the compiler looks at, so random objects often hit real code paths.
const KEYS: &[&str] = &[
    "type",
    "properties",
    "required",
    "title",
    "description",
    "default",
    "enum",
    "enumNames",
    "oneOf",
    "anyOf",
    "const",
    "items",
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "$ref",
    "x",
    "a/b~",
];
const WORDS: &[&str] = &[
    "object",
    "string",
    "number",
    "integer",
    "boolean",
    "array",
    "null",
    "email",
    "uri",
    "date",
    "date-time",
    "a",
    "",
    "2025-12-26",
    "2025-12-26T19:30:00Z",
    "x@y.z",
    "https://e.x",
    "(",
    "[a-",
    "é😀",
    "\u{0}",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(WORDS).prop_map(str::to_owned),
        "[a-z0-9@:/.+()\\[\\]{}*?^$|\\\\-]{0,8}",
        any::<String>(),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(KEYS).prop_map(str::to_owned),
        text()
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A property schema from the spec's subset, with random constraints and a default that is
/// sometimes of the wrong kind.
fn property() -> impl Strategy<Value = Value> {
    let count = proptest::option::of(0u64..5);
    let num = proptest::option::of(-5i64..5);
    // Mostly no default, so most generated schemas compile and reach the validator.
    let default = proptest::option::weighted(0.25, json_value());
    let choices = proptest::collection::btree_set("[a-d]{1,2}", 1..4)
        .prop_map(|c| c.into_iter().collect::<Vec<String>>());
    (0u8..8, count.clone(), count, num.clone(), num, default, choices, text()).prop_map(
        |(kind, lo, hi, min, max, default, choices, s)| {
            let mut p = match kind {
                0 => json!({"type": "string", "format": s}),
                1 => json!({"type": "string", "pattern": s}),
                2 => json!({"type": "number"}),
                3 => json!({"type": "integer"}),
                4 => json!({"type": "boolean"}),
                5 => json!({"type": "string", "enum": choices}),
                6 => json!({"type": "string", "oneOf": choices.iter().map(|c| json!({"const": c, "title": c.to_uppercase()})).collect::<Vec<_>>()}),
                _ => json!({"type": "array", "items": {"type": "string", "enum": choices}}),
            };
            if let Some(o) = p.as_object_mut() {
                let (lk, hk) = match kind {
                    0 | 1 => ("minLength", "maxLength"),
                    _ => ("minItems", "maxItems"),
                };
                if let Some(lo) = lo {
                    o.insert(lk.into(), json!(lo));
                }
                if let Some(hi) = hi {
                    o.insert(hk.into(), json!(hi));
                }
                if let Some(min) = min {
                    o.insert("minimum".into(), json!(min));
                }
                if let Some(max) = max {
                    o.insert("maximum".into(), json!(max));
                }
                if let Some(d) = default {
                    o.insert("default".into(), d);
                }
            }
            p
        },
    )
}

fn schema() -> impl Strategy<Value = Value> {
    proptest::collection::vec(("[a-e]{1,2}", property(), any::<bool>()), 0..6).prop_map(|props| {
        let required: Vec<&String> = props.iter().filter(|p| p.2).map(|p| &p.0).collect();
        let properties: Map<String, Value> = props
            .iter()
            .map(|(n, p, _)| (n.clone(), p.clone()))
            .collect();
        json!({"type": "object", "properties": properties, "required": required})
    })
}

fn raw_input() -> impl Strategy<Value = RawInput> {
    prop_oneof![
        text().prop_map(RawInput::Text),
        "-?[0-9]{0,3}(\\.[0-9]{0,2})?(e[0-9])?".prop_map(RawInput::Text),
        any::<bool>().prop_map(RawInput::Bool),
        proptest::collection::vec("[a-d]{1,2}", 0..4).prop_map(RawInput::List),
        (text(), any::<i32>()).prop_map(|(text, utc_offset_minutes)| RawInput::LocalDateTime {
            text,
            utc_offset_minutes
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn compile_never_panics_on_any_json(v in json_value()) {
        let _ = compile(&v);
        let _ = compile(&json!({"type": "object", "properties": {"x": v}}));
    }

    #[test]
    fn validation_never_panics_and_agrees(s in schema(), content in json_value(),
                                          raws in proptest::collection::vec(raw_input(), 0..6),
                                          offset in -1500i32..1500) {
        let Ok(spec) = compile(&s) else { return Ok(()); };
        // Content as a page might send it: random, or random values under real names.
        let _ = validate_content(&spec, &content);
        let named: Map<String, Value> = spec.fields.iter().map(|f| f.name.clone())
            .zip(std::iter::repeat(content.clone())).collect();
        if let Ok(out) = validate_content(&spec, &Value::Object(named.clone())) {
            prop_assert_eq!(out, named);
        }
        // Raw input per field: what the UI coerces, the validator accepts unchanged.
        let raw: Vec<(String, RawInput)> = spec.fields.iter().map(|f| f.name.clone())
            .zip(raws.iter().cloned()).collect();
        for (f, r) in spec.fields.iter().zip(raws.iter()) {
            if let Ok(Some(v)) = check_field(f, r) {
                let mut single = Map::new();
                single.insert(f.name.clone(), v);
                let errs = validate_content(&spec, &Value::Object(single)).err().unwrap_or_default();
                prop_assert!(errs.iter().all(|e| e.field != f.name), "{:?}", errs);
            }
            let _ = default_input(f, offset);
        }
        if let Ok(content) = coerce_form(&spec, &raw) {
            prop_assert_eq!(validate_content(&spec, &Value::Object(content.clone())), Ok(content));
        }
    }

    #[test]
    fn uri_templates_never_panic(
        t in "[a-z:/{}?&#*,.+;=%~-]{0,24}|[{}a-zé日/]{0,12}",
        value in text(),
    ) {
        let template = ResourceTemplate {
            uri_template: t,
            name: "t".into(),
            title: None,
            description: None,
            mime_type: None,
        };
        if let Ok(names) = template.variables() {
            let values: Map<String, Value> =
                names.into_iter().map(|n| (n, Value::String(value.clone()))).collect();
            let _ = template.expand(&values);
        }
        let _ = template.variables_schema();
    }

    #[test]
    fn datetime_local_helpers_never_panic(t in text(), offset in any::<i32>()) {
        let _ = local_to_rfc3339(&t, offset);
        let _ = rfc3339_to_local(&t, offset);
    }

    #[test]
    fn datetime_local_round_trips(y in 1000u32..9999, mo in 1u32..=12, d in 1u32..=28,
                                  h in 0u32..24, mi in 0u32..60, offset in -1439i32..=1439) {
        let local = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}");
        let rfc = local_to_rfc3339(&local, offset);
        prop_assert!(rfc.is_some(), "{}", local);
        let back = rfc.and_then(|r| rfc3339_to_local(&r, offset));
        prop_assert_eq!(back, Some(local));
    }

    /// `Mcp-Param-*` float rendering: any number text, exponents up to the i64 ends
    /// included, and leading zeros that move the decimal point past them.
    #[test]
    fn python_float_never_panics(
        sign in proptest::option::of(Just("-")),
        int in "0{0,5}[0-9]{0,5}",
        frac in proptest::option::of("0{0,45}[0-9]{0,5}"),
        exp in proptest::option::of(prop_oneof![
            any::<i64>(),
            i64::MIN..i64::MIN + 40,
            i64::MAX - 40..=i64::MAX,
        ]),
    ) {
        let mut text = format!("{}{int}", sign.unwrap_or(""));
        if let Some(f) = frac {
            text.push('.');
            text.push_str(&f);
        }
        if let Some(e) = exp {
            text.push_str(&format!("e{e}"));
        }
        let _ = mcp_elicit::driver::headers::python_float(&text);
    }
}

#[test]
fn generated_schemas_mostly_compile() {
    // The generator is only useful if it reaches the validator: run it and count.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = schema();
    let mut ok = 0;
    for _ in 0..200 {
        let Ok(tree) = strategy.new_tree(&mut runner) else {
            continue;
        };
        if compile(&proptest::strategy::ValueTree::current(&tree)).is_ok() {
            ok += 1;
        }
    }
    assert!(ok >= 50, "only {ok} of 200 generated schemas compiled");
}
