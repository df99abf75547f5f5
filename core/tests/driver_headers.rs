//! Header value encoding and `x-mcp-header` discovery, matching the SDK.

use mcp_elicit::driver::headers::{encode_header_value, param_headers, x_mcp_header_map};
use serde_json::{json, Map};

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
    ];
    for schema in bad {
        assert!(x_mcp_header_map(&schema).is_err(), "{schema}");
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
