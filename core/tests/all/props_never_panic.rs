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
        t in "[a-z:/{}?&#*,.+;=%~-]{0,24}|[{}a-zé日/]{0,12}|[a-f0-9%{}é৽/]{0,12}",
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

    /// Whatever ids a stream sends, every id an event carries and the one kept for
    /// resuming are resume tokens within `MAX_EVENT_ID_LEN`, whatever the chunking.
    #[test]
    fn sse_ids_kept_are_short_tokens(
        ids in proptest::collection::vec(("[ -~\t\u{e9}]{0,4}", 0usize..3), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        use mcp_elicit::sse::{resume_token, SseDecoder, MAX_EVENT_ID_LEN};
        let mut stream = String::new();
        for (id, long) in &ids {
            // Around the cap: under it, at it, past it.
            let pad = [0, MAX_EVENT_ID_LEN - id.len().min(MAX_EVENT_ID_LEN), MAX_EVENT_ID_LEN + 1][*long];
            stream.push_str(&format!("id: {id}{}\ndata: x\n\n", "7".repeat(pad)));
        }
        let bytes = stream.as_bytes();
        let (a, b) = bytes.split_at(cut.index(bytes.len() + 1));
        let mut d = SseDecoder::new();
        let mut events = d.feed(a).unwrap();
        events.extend(d.feed(b).unwrap());
        prop_assert_eq!(events.len(), ids.len());
        for id in events.iter().filter_map(|e| e.id.as_deref()).chain(d.last_event_id()) {
            prop_assert!(id.len() <= MAX_EVENT_ID_LEN);
            prop_assert_eq!(resume_token(id), Some(id));
        }
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

/// Keywords the `x-mcp-header` walk reacts to (and some it must ignore), so random
/// schemas often hold annotations on, off and beside the `properties` chain.
const HEADER_KEYS: &[&str] = &[
    "x-mcp-header",
    "x-mcp-header",
    "type",
    "type",
    "properties",
    "properties",
    "properties",
    "anyOf",
    "items",
    "prefixItems",
    "$defs",
    "not",
    "additionalProperties",
    "patternProperties",
    "default",
    "enum",
    "$ref",
    "a",
    "b",
    "",
];
const HEADER_WORDS: &[&str] = &[
    "string", "integer", "boolean", "number", "object", "A", "a", "X-Id", "x-id", "a b", "", "é",
];

/// Anything, built mostly from the keywords the walk reacts to.
fn header_noise() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        proptest::sample::select(HEADER_WORDS).prop_map(|w| Value::String(w.to_owned())),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
        (-3i64..3).prop_map(Value::from),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 48, 5, |inner| {
        let key = prop_oneof![
            4 => proptest::sample::select(HEADER_KEYS).prop_map(str::to_owned),
            1 => text(),
        ];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((key, inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Tool input schemas: nested `properties` whose leaves mostly carry an annotation
/// (mostly valid, from a small pool so duplicates happen), with noise on any node.
fn header_schema() -> impl Strategy<Value = Value> {
    let extra = || {
        proptest::option::weighted(
            0.25,
            (
                proptest::sample::select(HEADER_KEYS).prop_map(str::to_owned),
                header_noise(),
            ),
        )
    };
    let header = prop_oneof![
        8 => proptest::sample::select(&["A", "B", "C", "X-Id", "x-id", "Trace", "T1", "T2", "T3", "T4"][..])
            .prop_map(|t| Value::String(t.to_owned())),
        1 => header_noise(),
    ];
    let ty = proptest::sample::select(
        &[
            "string", "integer", "boolean", "string", "integer", "boolean", "number", "object",
        ][..],
    );
    let leaf =
        (ty, proptest::option::weighted(0.6, header), extra()).prop_map(|(ty, header, extra)| {
            let mut o = Map::new();
            o.insert("type".into(), json!(ty));
            if let Some(h) = header {
                o.insert("x-mcp-header".into(), h);
            }
            if let Some((k, v)) = extra {
                o.insert(k, v);
            }
            Value::Object(o)
        });
    let node = leaf.prop_recursive(3, 24, 4, move |inner| {
        (
            proptest::collection::vec(("[a-d]|items|x-mcp-header|a\\.b", inner), 0..4),
            extra(),
        )
            .prop_map(|(props, extra)| {
                let mut o = Map::new();
                o.insert("type".into(), json!("object"));
                o.insert(
                    "properties".into(),
                    Value::Object(props.into_iter().collect()),
                );
                if let Some((k, v)) = extra {
                    o.insert(k, v);
                }
                Value::Object(o)
            })
    });
    prop_oneof![4 => node, 1 => header_noise()]
}

/// Arguments that follow the annotated paths, so headers are actually rendered.
fn arguments_along(map: &[(Vec<String>, String)], leaves: &[Value]) -> Map<String, Value> {
    let mut args = Map::new();
    'paths: for (i, (path, _)) in map.iter().enumerate() {
        let Some((last, parents)) = path.split_last() else {
            continue;
        };
        let mut node = &mut args;
        for key in parents {
            let slot = node.entry(key.clone()).or_insert_with(|| json!({}));
            if !slot.is_object() {
                *slot = json!({});
            }
            let Value::Object(m) = slot else {
                continue 'paths;
            };
            node = m;
        }
        let leaf = leaves
            .get(i % leaves.len().max(1))
            .cloned()
            .unwrap_or(Value::Null);
        node.insert(last.clone(), leaf);
    }
    args
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Whatever a `tools/list` holds, judging `x-mcp-header` and mirroring headers never
    /// panics, the verdict, the map and the headers agree, and every header sent is a
    /// well-formed `Mcp-Param-<token>` with a value `fetch` accepts.
    #[test]
    fn x_mcp_header_never_panics_and_agrees(
        schema in prop_oneof![3 => header_schema(), 1 => json_value()],
        other_args in json_value(),
        leaves in proptest::collection::vec(json_value(), 1..4),
    ) {
        use mcp_elicit::driver::headers::{
            invalid_x_mcp_header, keep_valid_tools, param_headers, x_mcp_header_map,
        };
        use mcp_elicit::driver::http::is_header_value;
        let reason = invalid_x_mcp_header(&schema);
        let map = x_mcp_header_map(&schema);
        prop_assert_eq!(reason.clone(), map.clone().err());
        let (kept, dropped) = keep_valid_tools(vec![mcp_elicit::wire::Tool {
            name: "t".into(),
            title: None,
            description: None,
            input_schema: schema.clone(),
            execution: None,
        }]);
        prop_assert_eq!(kept.len(), usize::from(reason.is_none()));
        prop_assert_eq!(dropped.first().map(|d| d.1.to_string()), reason.clone());
        let mut lowered: Vec<String> = Vec::new();
        for (path, token) in map.as_deref().unwrap_or_default() {
            prop_assert!(!path.is_empty());
            prop_assert!(!token.is_empty() && token.bytes().all(|b| b.is_ascii_graphic() && !b"\"(),/:;<=>?@[\\]{}".contains(&b)), "{}", token);
            let low = token.to_ascii_lowercase();
            prop_assert!(!lowered.contains(&low), "duplicate {}", token);
            lowered.push(low);
        }
        let along = arguments_along(map.as_deref().unwrap_or_default(), &leaves);
        let mut args_sets = vec![along];
        if let Value::Object(o) = other_args {
            args_sets.push(o);
        }
        for args in &args_sets {
            let headers = param_headers(&schema, args);
            if reason.is_some() {
                prop_assert!(headers.is_empty());
            }
            let tokens: Vec<&str> = map.as_deref().unwrap_or_default().iter().map(|(_, t)| t.as_str()).collect();
            prop_assert!(headers.len() <= tokens.len());
            for (name, value) in &headers {
                let token = name.strip_prefix("Mcp-Param-").unwrap_or_default();
                prop_assert!(tokens.contains(&token), "{}", name);
                prop_assert!(is_header_value(value), "{:?}", value);
            }
        }
    }
}

#[test]
fn header_schemas_often_carry_valid_headers() {
    // The generator is only useful if it reaches both verdicts and renders headers.
    use mcp_elicit::driver::headers::x_mcp_header_map;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = header_schema();
    let (mut valid, mut invalid) = (0, 0);
    for _ in 0..1000 {
        let Ok(tree) = strategy.new_tree(&mut runner) else {
            continue;
        };
        match x_mcp_header_map(&proptest::strategy::ValueTree::current(&tree)) {
            Ok(m) if !m.is_empty() => valid += 1,
            Ok(_) => {}
            Err(_) => invalid += 1,
        }
    }
    assert!(
        valid >= 30 && invalid >= 100,
        "{valid} valid with headers, {invalid} invalid"
    );
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
