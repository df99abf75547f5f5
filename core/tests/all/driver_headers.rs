//! Header value encoding and `x-mcp-header` discovery, matching the SDK.

use mcp_elicit::driver::headers::{
    encode_header_value, invalid_x_mcp_header, keep_valid_tools, param_headers, x_mcp_header_map,
};
use mcp_elicit::wire::Tool;
use serde_json::{json, Map, Value};

#[test]
fn plain_ascii_passes_and_everything_else_is_base64() {
    assert_eq!(encode_header_value("delete_folder"), "delete_folder");
    assert_eq!(encode_header_value("a b"), "a b");
    assert_eq!(encode_header_value(" a"), "=?base64?IGE=?=");
    assert_eq!(encode_header_value("caf\u{e9}"), "=?base64?Y2Fmw6k=?=");
    assert_eq!(encode_header_value("a\nb"), "=?base64?YQpi?=");
    assert_eq!(
        encode_header_value("=?base64?x?="),
        "=?base64?PT9iYXNlNjQ/eD89?="
    );
    assert_eq!(
        encode_header_value("=?base64??="),
        "=?base64?PT9iYXNlNjQ/Pz0=?="
    );
    // The SDK's sentinel pattern needs both ends whole: here they would share
    // the `?`, so the text is not sentinel-like and passes verbatim.
    assert_eq!(encode_header_value("=?base64?="), "=?base64?=");
}

#[test]
fn invalid_annotations_drop_all_headers() {
    let bad = [
        json!({"type":"object","properties":{"x":{"type":"number","x-mcp-header":"X"}}}),
        json!({"type":"object","properties":{"x":{"type":"string","x-mcp-header":"a b"}}}),
        json!({"type":"object","properties":{"x":{"type":"string","x-mcp-header":"X"},"y":{"type":"string","x-mcp-header":"x"}}}),
        json!({"type":"object","x-mcp-header":"Root"}),
        json!({"type":"object","properties":{"x":{"type":"string","x-mcp-header":"X"}},
               "anyOf":[{"properties":{"y":{"type":"string","x-mcp-header":"Y"}}}]}),
        json!({"type":"object","properties":{"x":{"type":"string","x-mcp-header":"X"},
               "l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}),
        json!({"type":"object","properties":{"x":{"type":["string","null"],"x-mcp-header":"X"}}}),
    ];
    for schema in bad {
        assert!(x_mcp_header_map(&schema).is_err(), "{schema}");
        assert!(invalid_x_mcp_header(&schema).is_some(), "{schema}");
        let mut args = Map::new();
        args.insert("x".into(), json!("1"));
        assert!(param_headers(&schema, &args).is_empty());
    }
}

#[test]
fn nested_properties_booleans_and_absent_values() {
    let schema = json!({"type":"object","properties":{
        "o":{"type":"object","properties":{"flag":{"type":"boolean","x-mcp-header":"Flag"}}},
        "missing":{"type":"string","x-mcp-header":"Missing"},
        "nul":{"type":"string","x-mcp-header":"Nul"}}});
    let mut args = Map::new();
    args.insert("o".into(), json!({"flag": false}));
    args.insert("nul".into(), json!(null));
    assert_eq!(
        param_headers(&schema, &args),
        vec![("Mcp-Param-Flag".to_string(), "false".to_string())]
    );
}

#[test]
fn floats_render_like_python_str() {
    use mcp_elicit::driver::headers::python_float;
    // Expected values printed by CPython 3.11's str(float).
    let cases: [(f64, &str); 17] = [
        (42.0, "42.0"),
        (2.5, "2.5"),
        (0.0001, "0.0001"),
        (1e-05, "1e-05"),
        (1.5e-07, "1.5e-07"),
        (1e16, "1e+16"),
        (1e20, "1e+20"),
        (1.5e20, "1.5e+20"),
        (123456789012345.6, "123456789012345.6"),
        (1234567890123456.0, "1234567890123456.0"),
        (-0.5, "-0.5"),
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (-1e-10, "-1e-10"),
        (6.02214, "6.02214"),
        (1e15, "1000000000000000.0"),
        (9.999e15, "9999000000000000.0"),
    ];
    for (v, want) in cases {
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(python_float(&json), want, "{v} (serde_json: {json})");
    }
    assert_eq!(python_float("\u{e9}1"), "\u{e9}1");
    let schema = json!({"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}});
    let mut args = Map::new();
    args.insert("n".into(), json!(1e20));
    assert_eq!(
        param_headers(&schema, &args),
        vec![("Mcp-Param-N".to_string(), "1e+20".to_string())]
    );
}

/// Number text with an extreme exponent must not overflow the decimal-point arithmetic
/// (a panic in wasm kills the page). Such text cannot come from serde_json's own float
/// rendering, but `python_float` is public and takes any text.
#[test]
fn python_float_survives_extreme_exponents() {
    use mcp_elicit::driver::headers::python_float;
    for text in [
        "0.01e-9223372036854775808",
        "-0.01e-9223372036854775808",
        "0.00000000000000000000001e-9223372036854775800",
        "1e-9223372036854775808",
        "12.5e9223372036854775807",
        "100e9223372036854775807",
        "0.1e9223372036854775807",
        "1e99999999999999999999999",
    ] {
        let out = python_float(text);
        assert!(!out.is_empty(), "{text}");
    }
    // Saturated at the ends of i64, still in Python's exponent notation.
    assert_eq!(
        python_float("0.01e-9223372036854775808"),
        "1e-9223372036854775808"
    );
    assert!(python_float("12.5e9223372036854775807").starts_with("1.25e+922337203685477580"));
    // An exponent beyond i64 is not number text serde_json writes: passed through.
    assert_eq!(
        python_float("1e99999999999999999999999"),
        "1e99999999999999999999999"
    );
}

#[test]
fn keep_valid_tools_names_the_dropped_and_keeps_order() {
    let tool = |name: &str, input_schema: Value| Tool {
        name: name.into(),
        title: None,
        description: None,
        input_schema,
        execution: None,
    };
    let good =
        json!({"type":"object","properties":{"r":{"type":"string","x-mcp-header":"Region"}}});
    let nested_in_any_of = json!({"type":"object","anyOf":[{"properties":{"r":{"type":"string","x-mcp-header":"Region"}}}]});
    let number = json!({"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}});
    let (kept, dropped) = keep_valid_tools(vec![
        tool("a", good.clone()),
        tool("b", nested_in_any_of),
        tool("c", json!({})),
        tool("d", number),
        tool("e", good),
    ]);
    let names: Vec<&str> = kept.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a", "c", "e"]);
    let dropped: Vec<(String, String)> = dropped
        .into_iter()
        .map(|(name, fault)| (name, fault.to_string()))
        .collect();
    assert_eq!(
        dropped,
        vec![
            (
                "b".to_string(),
                "x-mcp-header found at a schema position not reachable via a pure `properties` chain"
                    .to_string()
            ),
            (
                "d".to_string(),
                "property 'n': x-mcp-header is only permitted on integer/string/boolean properties (got 'number')"
                    .to_string()
            ),
        ]
    );
}

/// Drops a value without recursing: serde_json's own drop recurses, and these
/// test values are deeper than any thread stack.
fn dismantle(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// `{key: inner}` (or `{key: [inner]}`) over `base`'s entries, without `json!`,
/// which would serialize (so recursively copy) `inner`.
fn wrap(base: Value, key: &str, inner: Value) -> Value {
    let mut map = match base {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    map.insert(key.to_string(), inner);
    Value::Object(map)
}

fn one(key: &str, inner: Value) -> Value {
    wrap(json!({}), key, inner)
}

/// serde_json stops parsing at depth 128, but a `Value` built in code (or by a
/// JS host) can be as deep as memory allows: the walk must not recurse, and
/// judging must stay linear however many annotations a deep chain holds.
#[test]
fn very_deep_schemas_neither_overflow_nor_crawl() {
    const DEPTH: usize = 100_000;
    let annotated = |token: String, inner: Value| {
        wrap(
            json!({"type":"string","x-mcp-header":token}),
            "properties",
            one("a", inner),
        )
    };

    // A `properties` chain with a valid annotation on every level.
    let mut chain = json!({"type":"string","x-mcp-header":"H0"});
    for i in 1..DEPTH {
        chain = annotated(format!("H{i}"), chain);
    }
    let schema = one("properties", one("a", chain));
    assert_eq!(invalid_x_mcp_header(&schema), None);
    dismantle(schema);

    // The same chain ending in a duplicate: the reason names both deep paths.
    let mut chain = json!({"type":"string","x-mcp-header":"h1"});
    for i in 1..DEPTH {
        chain = annotated(format!("H{i}"), chain);
    }
    let schema = one("properties", one("a", chain));
    let reason = invalid_x_mcp_header(&schema).unwrap_or_default();
    let head: String = reason.chars().take(60).collect();
    assert!(
        reason.starts_with("x-mcp-header 'h1' on property 'a.a.a."),
        "{head}"
    );
    assert!(reason.ends_with(".a.a'"), "{head}");
    dismantle(schema);

    // One annotation at the bottom of a plain chain: its path is the whole chain.
    let mut chain = json!({"type":"integer","x-mcp-header":"Deep"});
    for _ in 0..DEPTH {
        chain = wrap(json!({"type":"object"}), "properties", one("a", chain));
    }
    let map = x_mcp_header_map(&chain);
    assert!(
        matches!(&map, Ok(m) if m.len() == 1 && m[0].0.len() == DEPTH && m[0].1 == "Deep"),
        "{:?}",
        map.as_ref().map(|m| m.len())
    );
    let mut args = json!(7);
    for _ in 0..DEPTH {
        args = one("a", args);
    }
    let headers = match &args {
        Value::Object(a) => param_headers(&chain, a),
        _ => Vec::new(),
    };
    assert_eq!(
        headers,
        vec![("Mcp-Param-Deep".to_string(), "7".to_string())]
    );
    dismantle(args);
    dismantle(chain);

    // Deep nesting through every other applicator, with an annotation at the bottom.
    let keys = [
        "anyOf",
        "items",
        "$defs",
        "not",
        "prefixItems",
        "additionalProperties",
    ];
    let mut schema = json!({"type":"string","x-mcp-header":"X"});
    for i in 0..DEPTH {
        let key = keys[i % keys.len()];
        schema = match key {
            "anyOf" | "prefixItems" => one(key, Value::Array(vec![schema])),
            "$defs" => one(key, one("d", schema)),
            _ => one(key, schema),
        };
    }
    assert_eq!(
        invalid_x_mcp_header(&schema).as_deref(),
        Some("x-mcp-header found at a schema position not reachable via a pure `properties` chain")
    );
    dismantle(schema);
}
