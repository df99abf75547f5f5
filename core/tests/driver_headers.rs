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
